using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>
/// What <c>Return(null)</c> does, ours beside Microsoft's <see cref="DefaultObjectPool{T}"/> with its default policy:
/// ours throws and keeps nothing; Microsoft's drops a null that finds its fast slot empty and queues one that finds it
/// taken, to hand it out later. The docs state both halves.
/// </summary>
public class ReturnNullBesideMicrosoftTests
{
    private sealed class Thing;

    [Fact]
    public void MicrosoftsPoolDropsANullReturnedIntoAnEmptyFastSlotAndOursThrows()
    {
        var peer = new DefaultObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 4);
        var ours = new StripedObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 4);

        peer.Return(null!);
        Assert.NotNull(peer.Get());

        Assert.Throws<ArgumentNullException>(() => ours.Return(null!));
        Assert.NotNull(ours.Get());
    }

    [Fact]
    public void MicrosoftsPoolHandsOutANullReturnedWhileItsFastSlotIsTakenAndOursThrows()
    {
        var peer = new DefaultObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 4);
        var ours = new StripedObjectPool<Thing>(new DefaultPooledObjectPolicy<Thing>(), 4);
        Thing peerThing = peer.Get();
        Thing ourThing = ours.Get();

        peer.Return(peerThing);
        peer.Return(null!);
        Assert.Same(peerThing, peer.Get());
        Assert.Null(peer.Get());

        ours.Return(ourThing);
        Assert.Throws<ArgumentNullException>(() => ours.Return(null!));
        Assert.Same(ourThing, ours.Get());
        Assert.NotNull(ours.Get());
    }
}
