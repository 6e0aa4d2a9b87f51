namespace NativePool.Tests.Engine;

/// <summary>
/// A set that waits for busy stripes (the object pools') sleeps while it waits; a <see cref="Thread.Interrupt"/> that
/// lands in that sleep must neither throw out of the operation nor lose its item, and must reach the caller afterwards.
/// </summary>
public class BusyStripeInterruptTests
{
    private sealed class Item;

    [Fact]
    public void AnInterruptDuringTheWaitForABusyStripeLosesNoItemAndReachesTheCallerAfterwards()
    {
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: 4, waitForBusyStripes: true);
        var item = new Item();

        (Exception? thrownByPush, Exception? thrownAfterwards) = PushWhileInterrupted(set, () => Assert.Equal(StripeResult.Done, set.Push(0, item, item)));

        Assert.Null(thrownByPush);
        Assert.Same(item, set.Pop(0));
        Assert.IsType<ThreadInterruptedException>(thrownAfterwards);
    }

    [Fact]
    public void AnInterruptDuringTheWaitOfABatchMoveLosesNoItemAndReachesTheCallerAfterwards()
    {
        var set = new StripeSet<Item>(stripeCount: 1, capacityPerStripe: 4, waitForBusyStripes: true);
        Item[] items = [new Item(), new Item()];

        (Exception? thrownByPush, Exception? thrownAfterwards) = PushWhileInterrupted(set, () => Assert.Equal(2, set.PushBatch(0, items)));

        Assert.Null(thrownByPush);
        Assert.Equal(2, set.CountItems());
        Assert.IsType<ThreadInterruptedException>(thrownAfterwards);
    }

    /// <summary>
    /// Runs <paramref name="push"/> on a thread of its own, interrupted before it starts, while the set's only stripe is
    /// busy; then frees the stripe. Returns what the push threw and what the thread's next wait threw.
    /// </summary>
    private static (Exception? ThrownByPush, Exception? ThrownAfterwards) PushWhileInterrupted(StripeSet<Item> set, Action push)
    {
        Exception? thrownByPush = null;
        Exception? thrownAfterwards = null;

        // The only stripe is busy: the push waits, spinning, yielding, then sleeping, for as long as it stays busy.
        set.GetHeader(0).Claim = 1;
        using (StartedThreads threads = TestThreads.Start(1, (_, _) =>
        {
            // Raised before the push: the first blocking call the thread makes, a sleep of the wait, receives it.
            Thread.CurrentThread.Interrupt();
            thrownByPush = Record.Exception(push);
            if (thrownByPush is null)
            {
                thrownAfterwards = Record.Exception(() => Thread.Sleep(0));
            }
        }))
        {
            // The push cannot finish while the stripe is busy; a push that let the interrupt out ends at its first sleep.
            // The wait gives it that chance (it takes microseconds); a push that keeps the interrupt passes whatever it is.
            threads.WaitForBodies(TimeSpan.FromMilliseconds(200));
            set.GetHeader(0).Claim = 0;
            threads.WaitForBodies();
        }

        return (thrownByPush, thrownAfterwards);
    }
}
