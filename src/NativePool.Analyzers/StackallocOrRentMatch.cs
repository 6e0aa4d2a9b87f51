using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// A <c>stackalloc</c>-or-rent that a scope can hold: <c>T[]? rented = null;</c>, a span declared as
/// <c>c ? stackalloc T[k] : (rented = pool.Rent(n))</c> (<c>RentBranch</c> the rent's branch), and the <c>Release</c>
/// <c>if (rented != null) pool.Return(rented);</c> after the span's uses or in the <c>finally</c> of a <c>Try</c> around them.
/// </summary>
internal sealed record StackallocOrRentMatch(
    IVariableDeclarationGroupOperation SpanDeclaration, IConditionalOperation Choice, IOperation RentBranch, IInvocationOperation Rent, IConditionalOperation Release, ITryOperation? Try, bool ClearOnReturn);
