using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// A rent and the statement that returns it, in a <c>finally</c> (NP0007) or not (NP0014), that a <c>RentScoped</c>
/// scope can replace, or with <c>Lease</c> a <c>RentLease</c> lease, the array being held across an <c>await</c> (NP0016).
/// </summary>
internal sealed record RentScopedMatch(IVariableDeclarationGroupOperation Declaration, IOperation GiveBack, IInvocationOperation Rent, ILocalSymbol Local, bool ClearOnReturn, bool Lease);
