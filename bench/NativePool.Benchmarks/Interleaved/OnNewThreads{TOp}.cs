using System.Threading;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// Runs the batch of <typeparamref name="TOp"/> split over <c>threads</c> new threads, started and joined inside the
/// batch, so both sides of a scenario pay the same thread start and join.
/// </summary>
public readonly struct OnNewThreads<TOp>(int threads, TOp body) : IOperation, IDisposable, ICountsBuilds
    where TOp : struct, IOperation
{
    /// <summary>The body's count, when it keeps one (otherwise 0, and <see cref="GetsPer"/> 0: nothing is reported).</summary>
    public long Built => body is ICountsBuilds counts ? counts.Built : 0;

    public long GetsPer(int count) => body is ICountsBuilds counts ? counts.GetsPer(count) : 0;

    public void Run(int count)
    {
        var started = new Thread[threads];
        for (int t = 0; t < started.Length; t++)
        {
            TOp copy = body;
            int share = (count / threads) + (t < count % threads ? 1 : 0);
            started[t] = new Thread(() => copy.Run(share)) { IsBackground = true };
            started[t].Start();
        }

        foreach (Thread thread in started)
        {
            thread.Join();
        }
    }

    public void Dispose() => (body as IDisposable)?.Dispose();
}
