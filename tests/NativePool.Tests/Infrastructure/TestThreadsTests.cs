namespace NativePool.Tests;

/// <summary>The shared thread runner fails the test that used it, never the test host.</summary>
public sealed class TestThreadsTests
{
    [Fact]
    public void RunRethrowsWhatEachFailedThreadThrew()
    {
        AggregateException failure = Assert.Throws<AggregateException>(() => TestThreads.Run(3, index =>
        {
            if (index != 1)
            {
                throw new InvalidOperationException($"thread {index}");
            }
        }));

        Assert.Equal(["thread 0", "thread 2"], failure.InnerExceptions.Select(e => e.Message).Order());
    }

    [Fact]
    public void AStartedThreadStaysAliveAfterItsBodyUntilTheHandleIsDisposed()
    {
        Thread? started = null;
        StartedThreads threads = TestThreads.Start(1, (_, _) => started = Thread.CurrentThread);
        threads.WaitForBodies();

        Assert.True(started!.IsAlive);
        threads.Dispose();
        Assert.False(started.IsAlive);
    }

    [Fact]
    public void DisposeStopsALoopingBody()
    {
        bool ended = false;
        using (StartedThreads threads = TestThreads.Start(1, (_, stopping) =>
        {
            while (!stopping.IsCancellationRequested)
            {
                Thread.Yield();
            }

            ended = true;
        }))
        {
            Assert.False(threads.WaitForBodies(TimeSpan.Zero));
        }

        // The join in Dispose orders the thread's write before this read.
        Assert.True(ended);
    }

    [Fact]
    public void AFailureIsRethrownOnceByWaitForBodiesAndNotAgainByDispose()
    {
        StartedThreads threads = TestThreads.Start(2, (index, _) =>
        {
            if (index == 0)
            {
                throw new InvalidOperationException("failed");
            }
        });

        AggregateException failure = Assert.Throws<AggregateException>(threads.WaitForBodies);
        Assert.True(threads.HasFailed);
        Assert.Equal("failed", Assert.Single(failure.InnerExceptions).Message);
        threads.Dispose();
    }

    [Fact]
    public void DisposeRethrowsAFailureNobodyWaitedFor()
    {
        StartedThreads threads = TestThreads.Start(1, (_, _) => throw new InvalidOperationException("failed"));

        AggregateException failure = Assert.Throws<AggregateException>(threads.Dispose);
        Assert.Equal("failed", Assert.Single(failure.InnerExceptions).Message);
    }
}
