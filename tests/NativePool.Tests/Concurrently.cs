namespace NativePool.Tests;

/// <summary>Runs a body on dedicated threads released together by a barrier, and rethrows the first failure.</summary>
internal static class Concurrently
{
    public static void Run(int threadCount, Action<int> body)
    {
        using var start = new Barrier(threadCount);
        var failures = new System.Collections.Concurrent.ConcurrentQueue<Exception>();
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

        if (failures.TryDequeue(out Exception? first))
        {
            throw new AggregateException(first);
        }
    }
}
