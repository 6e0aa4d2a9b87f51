using Microsoft.CodeAnalysis;

namespace NativePool.Analyzers;

/// <summary>A place where a pooled item, or a view or task over it, leaves the method: reported (NP0013) when the method then gives the item back.</summary>
internal sealed class EscapeSite(IOperation carrier, TrackedLocal owner, string clause, string? key)
{
    /// <summary>The value that leaves; the finding's location.</summary>
    public IOperation Carrier { get; } = carrier;

    /// <summary>The item it is, or is over.</summary>
    public TrackedLocal Owner { get; } = owner;

    /// <summary>How it leaves, the start of the message: <c>'scope.Span' is returned</c>.</summary>
    public string Clause { get; } = clause;

    /// <summary>The field, property or parameter it is stored in, when a later write there takes it back; else null.</summary>
    public string? Key { get; } = key;
}
