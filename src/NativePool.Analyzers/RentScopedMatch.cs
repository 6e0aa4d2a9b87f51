using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>A rent and its try/finally return that a <c>RentScoped</c> scope (or, across an <c>await</c>, a <c>RentLease</c> lease) can replace.</summary>
internal sealed class RentScopedMatch(IVariableDeclarationGroupOperation declaration, ITryOperation tryOperation, IInvocationOperation rent, ILocalSymbol local, bool clearOnReturn, bool lease)
{
    /// <summary>The declaration of the array's local.</summary>
    public IVariableDeclarationGroupOperation Declaration { get; } = declaration;

    /// <summary>The try/finally.</summary>
    public ITryOperation Try { get; } = tryOperation;

    /// <summary>The rent.</summary>
    public IInvocationOperation Rent { get; } = rent;

    /// <summary>The array's local.</summary>
    public ILocalSymbol Local { get; } = local;

    /// <summary>Whether the return clears the array.</summary>
    public bool ClearOnReturn { get; } = clearOnReturn;

    /// <summary>Whether the array is held across an <c>await</c>, so a <c>RentLease</c> lease takes its place rather than a scope.</summary>
    public bool Lease { get; } = lease;
}
