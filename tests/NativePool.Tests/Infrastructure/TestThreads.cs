using System.Collections.Concurrent;

namespace NativePool.Tests;

/// <summary>The one way tests run code on threads of their own: the threads are joined and their failures rethrown.</summary>
internal static class TestThreads
{
    /// <summary>
    /// Runs <paramref name="body"/> on <paramref name="threadCount"/> dedicated threads released together by a barrier,
    /// waits for all of them and rethrows their failures.
    /// </summary>
    /// <param name="threadCount">How many threads.</param>
    /// <param name="body">The work of one thread, given its index from 0.</param>
    /// <exception cref="AggregateException">A thread threw; the inner exceptions are what the threads threw.</exception>
    public static void Run(int threadCount, Action<int> body)
    {
        using var start = new Barrier(threadCount);
        var failures = new ConcurrentQueue<Exception>();
        Thread[] threads = Enumerable.Range(0, threadCount).Select(index => new Thread(() =>
        {
            try
            {
                start.SignalAndWait();
                body(index);
            }
            catch (Exception e)
            {
                failures.Enqueue(e);
            }
        })
        { IsBackground = true }).ToArray();

        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        foreach (Thread thread in threads)
        {
            thread.Join();
        }

        if (!failures.IsEmpty)
        {
            throw new AggregateException(failures);
        }
    }

    /// <summary>Runs <paramref name="action"/> on a new thread, waits for it and rethrows what it threw.</summary>
    /// <param name="action">The work.</param>
    /// <exception cref="InvalidOperationException">The thread threw; the inner exception is what it threw.</exception>
    public static void RunOnNewThread(Action action)
    {
        Exception? failure = null;
        var thread = new Thread(() =>
        {
            try
            {
                action();
            }
            catch (Exception exception)
            {
                failure = exception;
            }
        });
        thread.Start();
        thread.Join();
        if (failure is not null)
        {
            throw new InvalidOperationException("The other thread failed: " + failure.Message, failure);
        }
    }
}
