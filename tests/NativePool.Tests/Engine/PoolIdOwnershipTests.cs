using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace NativePool.Tests.Engine;

/// <summary>
/// Only a pool that got an id gives one back: a pool whose constructor threw (out of ids, or before it asked for one)
/// owns none, so the live count stays put and no two live pools share an id.
/// </summary>
/// <remarks>Alone in the process: these tests count and exhaust the process-wide ids.</remarks>
[Collection(RunsAlone.Name)]
public sealed class PoolIdOwnershipTests
{
    private const int FailedCreations = 8;

    /// <summary>More free ids than any run leaves behind: the loop that takes them all ends well before.</summary>
    private const int MaximumFreeIds = 1 << 20;

    [Fact]
    public void PoolsThatRanOutOfIdsGiveNothingBackAndNoTwoLivePoolsShareAnId()
    {
        CollectThoroughly();
        int liveIdsBefore = ThreadCacheTable.LiveIds;
        int limit = ThreadCacheTable.MaximumPoolsForTest;
        var kept = new List<StripedPool<object>>();
        try
        {
            // No id above those already handed out: take the free ones until a creation fails for want of an id.
            ThreadCacheTable.MaximumPoolsForTest = 0;
            while (TryCreate(out StripedPool<object>? pool))
            {
                kept.Add(pool);
                Assert.InRange(kept.Count, 1, MaximumFreeIds);
            }

            for (int i = 0; i < FailedCreations; i++)
            {
                Assert.Throws<InvalidOperationException>(CreateAndDrop);
            }

            // The failed pools are garbage now; their finalizers must give nothing back.
            CollectThoroughly();

            Assert.Equal(liveIdsBefore + kept.Count, ThreadCacheTable.LiveIds);
            Assert.False(TryCreate(out StripedPool<object>? stray), $"Out of ids, a pool still got id {stray?.Id}.");
            Assert.Equal(kept.Count, kept.Select(pool => pool.Id).Distinct().Count());
        }
        finally
        {
            ThreadCacheTable.MaximumPoolsForTest = limit;
            foreach (StripedPool<object> pool in kept)
            {
                pool.Shutdown();
            }
        }

        // Ids can be handed out again.
        Create().Shutdown();
    }

    [Fact]
    public void APoolWhoseConstructorThrewBeforeItAskedForAnIdGivesNothingBack()
    {
        CollectThoroughly();
        int liveIdsBefore = ThreadCacheTable.LiveIds;

        for (int i = 0; i < FailedCreations; i++)
        {
            Assert.Throws<ArgumentOutOfRangeException>(CreateWithTooManyClasses);
        }

        CollectThoroughly();

        Assert.Equal(liveIdsBefore, ThreadCacheTable.LiveIds);
        // Ids can be handed out again.
        Create().Shutdown();
    }

    [Fact]
    public void ReleasingAnIdThatIsFreeOrWasNeverHandedOutChangesNothing()
    {
        StripedPool<object> pool = Create();
        int id = pool.Id;
        pool.Shutdown();
        int liveIdsBefore = ThreadCacheTable.LiveIds;

        Assert.False(ThreadCacheTable.ReleasePoolId(id));
        Assert.False(ThreadCacheTable.ReleasePoolId(-1));
        Assert.False(ThreadCacheTable.ReleasePoolId(ThreadCacheTable.MaximumPools));

        Assert.Equal(liveIdsBefore, ThreadCacheTable.LiveIds);
        // Ids can be handed out again.
        Create().Shutdown();
    }

    private static StripedPool<object> Create() =>
        new(new StripedPoolSettings { ClassCount = 1, CapacityPerStripe = [4], StripeCount = 1, TrimmingEnabled = false }, static _ => new object());

    private static bool TryCreate([NotNullWhen(true)] out StripedPool<object>? pool)
    {
        try
        {
            pool = Create();
            return true;
        }
        catch (InvalidOperationException)
        {
            pool = null;
            return false;
        }
    }

    /// <summary>Out of line, so nothing on the test's frame keeps the half-made pool reachable.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void CreateAndDrop() => _ = Create();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void CreateWithTooManyClasses() =>
        _ = new StripedPool<object>(
            new StripedPoolSettings { ClassCount = 33, CapacityPerStripe = new int[33], StripeCount = 1, TrimmingEnabled = false },
            static _ => new object());

    /// <summary>
    /// Every pool unreachable now has been finalized when this returns (one blocking full collection queues them all,
    /// and the wait runs them): a finalizer that would give an id back has had its chance, whatever the GC's pacing.
    /// </summary>
    private static void CollectThoroughly() => Finalization.CollectAndFinalize();
}
