namespace NativePool.Tests.ArrayPool;

/// <summary>Runs test code on a thread of its own.</summary>
public static class TestThreads
{
    /// <summary>Runs <paramref name="action"/> on a new thread, waits for it and rethrows what it threw.</summary>
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
