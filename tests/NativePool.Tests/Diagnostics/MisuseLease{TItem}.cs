namespace NativePool.Tests.Diagnostics;

/// <summary>One copy of a pool's lease (an <see cref="ArrayLease{T}"/>, an <see cref="ObjectLease{T}"/>), for a misuse run.</summary>
/// <typeparam name="TItem">The leased item.</typeparam>
internal abstract class MisuseLease<TItem>
    where TItem : class
{
    /// <summary>Creates the copy.</summary>
    /// <param name="item">The leased item, kept here because the lease's own accessor throws once the lease ended.</param>
    protected MisuseLease(TItem item) => Item = item;

    /// <summary>The item the lease was rented with.</summary>
    public TItem Item { get; }

    /// <summary>Whether the lease (any copy of it) has not ended yet.</summary>
    public abstract bool IsActive { get; }

    /// <summary>Disposes this copy: the first dispose of any copy returns the item, every later one nothing.</summary>
    public abstract void Dispose();

    /// <summary>Another copy of the same lease.</summary>
    public abstract MisuseLease<TItem> Copy();
}
