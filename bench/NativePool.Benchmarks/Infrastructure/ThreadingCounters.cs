using System.Threading;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// Measures <see cref="Monitor.LockContentionCount"/> and <see cref="ThreadPool.CompletedWorkItemCount"/> across a
/// benchmark case: <see cref="Start"/> in the global setup, <see cref="Count"/> once per invocation, <see cref="Stop"/>
/// in the global cleanup. The deltas cover every invocation of the case (pilot, warm-up and measured ones alike) and are
/// divided by their number.
/// </summary>
/// <remarks>Counting is a plain increment on the benchmark thread: negligible next to the microseconds these cases take.</remarks>
public sealed class ThreadingCounters
{
    private long _lockContentions;
    private long _completedWorkItems;
    private long _invocations;

    /// <summary>Takes the starting readings.</summary>
    public void Start()
    {
        _invocations = 0;
        _lockContentions = Monitor.LockContentionCount;
        _completedWorkItems = ThreadPool.CompletedWorkItemCount;
    }

    /// <summary>Counts one invocation.</summary>
    public void Count() => _invocations++;

    /// <summary>Takes the final readings and stores the per-invocation deltas under <paramref name="key"/>.</summary>
    public void Stop(string key)
    {
        long invocations = Math.Max(1, _invocations);
        CounterStore.Write(
            key,
            new ThreadingCounterValues(
                (double)(Monitor.LockContentionCount - _lockContentions) / invocations,
                (double)(ThreadPool.CompletedWorkItemCount - _completedWorkItems) / invocations,
                _invocations));
    }
}
