using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Objects;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>One Get and one Return per operation (<see cref="ObjectWork.GetReturn{TPool}"/>).</summary>
public readonly struct GetReturnOperation<TPool>(TPool pool, IDisposable? owner) : IOperation, IDisposable, ICountsBuilds
    where TPool : struct, IObjectPoolAdapter<PooledObject>
{
    public long Built => PooledObject.Built;

    public long GetsPer(int count) => count;

    public void Run(int count)
    {
        for (int i = 0; i < count; i++)
        {
            ObjectWork.GetReturn(pool);
        }
    }

    public void Dispose() => owner?.Dispose();
}

/// <summary>One Get, one write to the object and one Return per operation (<see cref="ObjectWork.GetTouchReturn{TPool}"/>).</summary>
public readonly struct GetTouchReturnOperation<TPool>(TPool pool, IDisposable? owner) : IOperation, IDisposable, ICountsBuilds
    where TPool : struct, IObjectPoolAdapter<PooledObject>
{
    public long Built => PooledObject.Built;

    public long GetsPer(int count) => count;

    public void Run(int count)
    {
        for (int i = 0; i < count; i++)
        {
            ObjectWork.GetTouchReturn(pool);
        }
    }

    public void Dispose() => owner?.Dispose();
}

/// <summary>One whole drain and refill of the store per operation (<see cref="ObjectWork.DrainRefill{TPool}"/>).</summary>
public readonly struct DrainRefillOperation<TPool>(TPool pool, PooledObject[] store, IDisposable? owner) : IOperation, IDisposable, ICountsBuilds
    where TPool : struct, IObjectPoolAdapter<PooledObject>
{
    public long Built => PooledObject.Built;

    public long GetsPer(int count) => (long)count * store.Length;

    public void Run(int count)
    {
        for (int i = 0; i < count; i++)
        {
            ObjectWork.DrainRefill(pool, store);
        }
    }

    public void Dispose() => owner?.Dispose();
}

/// <summary>
/// Get → work → Return (<paramref name="store"/> null) or a drain and refill with work (<paramref name="store"/> given)
/// per operation, while the side's <paramref name="load"/> threads do the same on the same pool.
/// </summary>
/// <remarks>
/// The load runs only while this side's batch does (it is resumed at the batch's start and paused at its end), so the
/// other side's batches run beside their own load alone: on a 2-core machine each side is timed with two busy threads,
/// its measuring thread and its load, as aspnetcore's benchmark runs with a ThreadCount of 2.
/// </remarks>
public readonly struct UnderLoadOperation<TPool>(TPool pool, PooledObject[]? store, BackgroundLoad load, IDisposable? owner) : IOperation, IDisposable
    where TPool : struct, IObjectPoolAdapter<PooledObject>
{
    private readonly Random _random = new(0);

    public void Run(int count)
    {
        load.Resume();
        for (int i = 0; i < count; i++)
        {
            if (store is null)
            {
                ObjectWork.GetWorkReturn(pool, _random);
            }
            else
            {
                ObjectWork.DrainWorkRefill(pool, store, _random);
            }
        }

        load.Pause();
    }

    public void Dispose()
    {
        load.Dispose();
        owner?.Dispose();
    }
}
