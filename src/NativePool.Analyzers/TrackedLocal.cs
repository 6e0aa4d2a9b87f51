using Microsoft.CodeAnalysis;

namespace NativePool.Analyzers;

/// <summary>A local the flow analysis follows: a rented resource, a view (span, memory, segment) over one, or a boolean flag.</summary>
internal sealed class TrackedLocal(ILocalSymbol local, int slot, ResourceKind kind, int parent)
{
    /// <summary>The local.</summary>
    public ILocalSymbol Local { get; } = local;

    /// <summary>Its index in a path's state.</summary>
    public int Slot { get; } = slot;

    /// <summary>What it holds (a view has its resource's kind).</summary>
    public ResourceKind Kind { get; } = kind;

    /// <summary>The slot of the resource a view is over, or -1 for a resource.</summary>
    public int Parent { get; } = parent;

    /// <summary>Whether the local is a view over another tracked local.</summary>
    public bool IsView => Parent >= 0;

    /// <summary>Whether ownership may leave the method (stored, returned, captured, passed on): then no leak is reported.</summary>
    public bool Escapes { get; set; }
}
