using System.Threading;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// Dedicated background threads that repeat an action until disposed: the "ThreadCount − 1 threads" load of aspnetcore's ObjectPool micro-benchmarks.
/// Dedicated threads rather than thread-pool tasks, so all of them run from the start on a 2-core machine (the pool would
/// inject threads for blocked-forever tasks only slowly).
/// </summary>
/// <remarks>
/// A load can be paused between a side's batches (<see cref="Pause"/>, <see cref="Resume"/>), so that an interleaved
/// comparison times each side beside its own load only, as each BenchmarkDotNet benchmark runs beside its own: the paused
/// threads wait on an event and take no processor time.
/// </remarks>
public sealed class BackgroundLoad : IDisposable
{
    /// <summary>How long <see cref="Start"/> lets the threads run before the measurement starts (as in aspnetcore's benchmarks: 250 ms).</summary>
    public static readonly TimeSpan Settle = TimeSpan.FromMilliseconds(250);

    private readonly Thread[] _threads;
    private readonly ManualResetEventSlim _running = new(initialState: true);
    private int _stop;

    private BackgroundLoad(int threadCount, Action<int, Random> body)
    {
        _threads = new Thread[threadCount];
        for (int i = 0; i < threadCount; i++)
        {
            int index = i;
            _threads[i] = new Thread(() => Loop(index, body)) { IsBackground = true, Name = $"bench load {i}" };
        }
    }

    /// <summary>Starts <paramref name="threadCount"/> threads running <paramref name="body"/>(thread index, its own Random) in a loop, then settles.</summary>
    public static BackgroundLoad Start(int threadCount, Action<int, Random> body)
    {
        var load = new BackgroundLoad(threadCount, body);
        foreach (Thread thread in load._threads)
        {
            thread.Start();
        }

        if (threadCount > 0)
        {
            Thread.Sleep(Settle);
        }

        return load;
    }

    /// <summary>Asks the threads to wait after their current pass until <see cref="Resume"/>; returns at once.</summary>
    public void Pause() => _running.Reset();

    /// <summary>Lets paused threads loop again.</summary>
    public void Resume() => _running.Set();

    /// <summary>Stops the threads and waits for them.</summary>
    public void Dispose()
    {
        // Publishes the stop request to the looping threads, which poll it.
        Volatile.Write(ref _stop, 1);
        _running.Set();
        foreach (Thread thread in _threads)
        {
            thread.Join();
        }

        _running.Dispose();
    }

    private void Loop(int index, Action<int, Random> body)
    {
        var random = new Random(index + 1);

        // Volatile: the stop flag is written by the benchmark thread; each pass must see it eventually.
        while (Volatile.Read(ref _stop) == 0)
        {
            body(index, random);
            _running.Wait();
        }
    }
}
