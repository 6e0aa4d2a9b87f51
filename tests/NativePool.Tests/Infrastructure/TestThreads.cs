namespace NativePool.Tests;

/// <summary>The one way tests run code on threads of their own: the threads are joined and their failures rethrown.</summary>
internal static class TestThreads
{
    /// <summary>
    /// Runs <paramref name="body"/> on <paramref name="threadCount"/> dedicated threads released together by a barrier,
    /// waits for all of them and rethrows their failures.
    /// </summary>
    /// <remarks>
    /// The threads have ended when this returns, so the pools' caches of those threads may be finalized at any later
    /// collection, which drops what they hold (pooled items become dropped ones; native blocks are freed). Counts that
    /// changes are read inside the body, or with the threads kept alive by <see cref="Start"/>; counts it leaves alone
    /// (allocated, outstanding) may be read afterwards.
    /// </remarks>
    /// <param name="threadCount">How many threads.</param>
    /// <param name="body">The work of one thread, given its index from 0.</param>
    /// <exception cref="AggregateException">A thread threw; the inner exceptions are what the threads threw.</exception>
    public static void Run(int threadCount, Action<int> body)
    {
        using StartedThreads threads = Start(threadCount, (index, _) => body(index));
        threads.WaitForBodies();
    }

    /// <summary>
    /// Starts <paramref name="body"/> on <paramref name="threadCount"/> dedicated threads released together by a
    /// barrier, and returns at once. Each thread, once its body has returned or thrown, stays alive (parked) until the
    /// returned handle is disposed, so its thread-local caches count as live while the test checks the pool; disposing
    /// the handle is the controlled moment the threads end.
    /// </summary>
    /// <remarks>
    /// Use it where the main thread must act while the threads live: read statistics while they hold their caches,
    /// dispose a pool under them, run beside a trimmer. Everything else uses <see cref="Run"/>.
    /// </remarks>
    /// <param name="threadCount">How many threads.</param>
    /// <param name="body">
    /// The work of one thread, given its index from 0 and a token cancelled when the handle is disposed: a body that
    /// loops until it is told to stop watches the token, and so does a body that waits for the main thread.
    /// </param>
    /// <returns>
    /// The threads: <see cref="StartedThreads.WaitForBodies()"/> waits for every body and rethrows their failures;
    /// <see cref="StartedThreads.Dispose"/> cancels the token, joins the threads and rethrows failures not yet rethrown.
    /// </returns>
    public static StartedThreads Start(int threadCount, Action<int, CancellationToken> body) => new(threadCount, body);

    /// <summary>Runs <paramref name="action"/> on a new thread, waits for it and rethrows what it threw.</summary>
    /// <remarks>The thread has ended when this returns, as with <see cref="Run"/>.</remarks>
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
