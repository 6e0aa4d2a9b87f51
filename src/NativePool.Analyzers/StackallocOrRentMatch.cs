using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace NativePool.Analyzers;

/// <summary>
/// A <c>stackalloc</c>-or-rent that a scope can hold: <c>T[]? rented = null;</c>, a span declared as
/// <c>c ? stackalloc T[k] : (rented = pool.Rent(n))</c>, and <c>if (rented != null) pool.Return(rented);</c> after the
/// span's uses or in the <c>finally</c> of a <c>try</c> around them.
/// </summary>
internal sealed class StackallocOrRentMatch(
    IVariableDeclarationGroupOperation rentedDeclaration,
    IVariableDeclarationGroupOperation spanDeclaration,
    IConditionalOperation choice,
    IOperation rentBranch,
    IInvocationOperation rent,
    IConditionalOperation release,
    ITryOperation? tryOperation,
    bool clearOnReturn)
{
    /// <summary>The declaration of the nullable array local.</summary>
    public IVariableDeclarationGroupOperation RentedDeclaration { get; } = rentedDeclaration;

    /// <summary>The declaration of the span.</summary>
    public IVariableDeclarationGroupOperation SpanDeclaration { get; } = spanDeclaration;

    /// <summary>The conditional that chooses between the <c>stackalloc</c> and the rent.</summary>
    public IConditionalOperation Choice { get; } = choice;

    /// <summary>The branch of <see cref="Choice"/> that rents (the assignment, under any conversion).</summary>
    public IOperation RentBranch { get; } = rentBranch;

    /// <summary>The rent.</summary>
    public IInvocationOperation Rent { get; } = rent;

    /// <summary>The <c>if</c> that returns the array when one was rented.</summary>
    public IConditionalOperation Release { get; } = release;

    /// <summary>The <c>try</c> whose <c>finally</c> holds <see cref="Release"/>, or null when the release is a statement of the block.</summary>
    public ITryOperation? Try { get; } = tryOperation;

    /// <summary>Whether the return clears the array.</summary>
    public bool ClearOnReturn { get; } = clearOnReturn;
}
