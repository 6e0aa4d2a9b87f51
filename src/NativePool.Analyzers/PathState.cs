namespace NativePool.Analyzers;

/// <summary>Where a tracked local stands on one path.</summary>
internal enum PathStatus
{
    /// <summary>Nothing known: not rented yet, or assigned something the analysis does not follow.</summary>
    None,

    /// <summary>Rented (or a live view over a rented resource).</summary>
    Held,

    /// <summary>Given back to its pool (or a view over a resource that was given back).</summary>
    Released,
}
