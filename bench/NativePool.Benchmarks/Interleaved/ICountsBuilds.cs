namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// An object-pool operation that can say how many gets a batch made and how many objects its side's pool has built, so
/// the runner reports objects built per 10^6 gets beside the times. Read only outside the timed interval.
/// </summary>
public interface ICountsBuilds
{
    /// <summary>The objects this side's pool has built so far (a running count).</summary>
    public long Built { get; }

    /// <summary>The gets a call of <see cref="IOperation.Run(int)"/> with <paramref name="count"/> makes.</summary>
    public long GetsPer(int count);
}
