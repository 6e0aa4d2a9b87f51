namespace NativePool.Tests.Diagnostics;

/// <summary>What a <see cref="SeededMisuseRun{TItem}"/> needs of the guarded pool under test.</summary>
/// <typeparam name="TItem">The pooled item: an array, an object.</typeparam>
internal interface IMisuseSubject<TItem>
    where TItem : class
{
    /// <summary>Whether the pool sees a write made into an item while it was in the pool (a poison pattern).</summary>
    public bool DetectsWriteAfterReturn { get; }

    /// <summary>A size to rent (pools of one size ignore it).</summary>
    public int NextSize(Random random);

    /// <summary>The size that rents an item of <paramref name="item"/>'s size class.</summary>
    public int SizeOf(TItem item);

    /// <summary>A raw rent: the caller hands back just the reference.</summary>
    public TItem Rent(int size);

    /// <summary>A raw return.</summary>
    public void Return(TItem item);

    /// <summary>A rent under a lease, whose copies share the token of this one rent.</summary>
    public MisuseLease<TItem> RentLease(int size);

    /// <summary>An item of the pool's type that the pool never handed out.</summary>
    public TItem CreateForeign(int size);

    /// <summary>The holder's own write into the item, right after renting it.</summary>
    public void Stamp(TItem item, int thread);

    /// <summary>A write into an item the writer does not hold; <paramref name="where"/> picks the spot.</summary>
    public void Scribble(TItem item, int where);
}
