namespace NativePool.Tests;

/// <summary>Settles what the GC owes the test: unreachable pools and caches finalized, their ids given back.</summary>
internal static class Finalization
{
    /// <summary>
    /// A blocking full collection, then every finalizer it queued has run: pools unreachable before the call have
    /// given their ids back when it returns (a pool's finalizer only waits for the collection that finds it dead).
    /// </summary>
    public static void CollectAndFinalize()
    {
        GC.Collect(2, GCCollectionMode.Forced, blocking: true);
        GC.WaitForPendingFinalizers();
    }

    /// <summary>
    /// Collects and finalizes until <paramref name="condition"/> holds (a finalized object may free others for the next
    /// collection, so a chain takes a few rounds), failing with <paramref name="what"/> after a generous deadline.
    /// </summary>
    /// <param name="condition">What the test waits for.</param>
    /// <param name="what">Describes the condition and the last observed state, for the failure message.</param>
    public static void WaitUntil(Func<bool> condition, Func<string> what)
    {
        long deadline = Environment.TickCount64 + 60_000;
        while (!condition())
        {
            if (Environment.TickCount64 > deadline)
            {
                Assert.Fail($"Still not settled after 60 s: {what()}");
            }

            CollectAndFinalize();
        }
    }
}
