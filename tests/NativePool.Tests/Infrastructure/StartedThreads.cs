using System.Collections.Concurrent;

namespace NativePool.Tests;

/// <summary>
/// Threads started by <see cref="TestThreads.Start"/>: their bodies run, then the threads stay parked until this is
/// disposed. Their failures are rethrown once, by <see cref="WaitForBodies()"/> or by <see cref="Dispose"/>.
/// </summary>
internal sealed class StartedThreads : IDisposable
{
    private readonly Thread[] _threads;
    private readonly Barrier _start;
    private readonly CountdownEvent _bodiesLeft;
    private readonly CancellationTokenSource _stop = new();
    private readonly ConcurrentQueue<Exception> _failures = new();
    private bool _failuresRethrown;
    private bool _disposed;

    /// <summary>Starts the threads (see <see cref="TestThreads.Start"/>).</summary>
    internal StartedThreads(int threadCount, Action<int, CancellationToken> body)
    {
        _start = new Barrier(threadCount);
        _bodiesLeft = new CountdownEvent(threadCount);
        CancellationToken stopping = _stop.Token;
        _threads = new Thread[threadCount];
        for (int i = 0; i < threadCount; i++)
        {
            int index = i;
            _threads[i] = new Thread(() =>
            {
                try
                {
                    _start.SignalAndWait();
                    body(index, stopping);
                }
                catch (Exception exception)
                {
                    _failures.Enqueue(exception);
                }
                finally
                {
                    _bodiesLeft.Signal();
                }

                // Parked: the thread, and with it its thread-local caches, lives until the handle is disposed.
                stopping.WaitHandle.WaitOne();
            })
            { IsBackground = true };
        }

        foreach (Thread thread in _threads)
        {
            thread.Start();
        }
    }

    /// <summary>True once a body has thrown (for a main thread that waits in a loop on the threads' progress).</summary>
    public bool HasFailed => !_failures.IsEmpty;

    /// <summary>Waits until every body has returned or thrown, then rethrows what they threw.</summary>
    /// <exception cref="AggregateException">A body threw; the inner exceptions are what the bodies threw.</exception>
    public void WaitForBodies() => WaitForBodies(Timeout.InfiniteTimeSpan);

    /// <summary>Waits up to <paramref name="timeout"/> for every body to return or throw, then rethrows what they threw.</summary>
    /// <param name="timeout">How long to wait; <see cref="Timeout.InfiniteTimeSpan"/> for as long as it takes.</param>
    /// <returns>True when every body has ended; false when the time ran out first.</returns>
    /// <exception cref="AggregateException">Every body has ended and one threw; the inner exceptions are what they threw.</exception>
    public bool WaitForBodies(TimeSpan timeout)
    {
        if (!_bodiesLeft.Wait(timeout))
        {
            return false;
        }

        RethrowFailures();
        return true;
    }

    /// <summary>Cancels the bodies' token, lets the parked threads end, joins them and rethrows failures not yet rethrown.</summary>
    /// <exception cref="AggregateException">A body threw and no <see cref="WaitForBodies()"/> rethrew it yet.</exception>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        _stop.Cancel();
        foreach (Thread thread in _threads)
        {
            thread.Join();
        }

        _stop.Dispose();
        _bodiesLeft.Dispose();
        _start.Dispose();
        RethrowFailures();
    }

    private void RethrowFailures()
    {
        // Once: a Dispose that runs while the failure rethrown by WaitForBodies propagates must not replace it.
        if (_failuresRethrown || _failures.IsEmpty)
        {
            return;
        }

        _failuresRethrown = true;
        throw new AggregateException(_failures);
    }
}
