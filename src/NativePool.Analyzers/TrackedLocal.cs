using Microsoft.CodeAnalysis;

namespace NativePool.Analyzers;

/// <summary>A local the flow analysis follows: a rented resource, or a view over the one in slot <c>Parent</c> (-1 for a resource).</summary>
internal sealed record TrackedLocal(ILocalSymbol Local, int Slot, ResourceKind Kind, int Parent)
{
    public bool IsView => Parent >= 0;

    /// <summary>Whether ownership may leave the method (stored, returned, captured, passed on): then no leak is reported.</summary>
    public bool Escapes { get; set; }
}
