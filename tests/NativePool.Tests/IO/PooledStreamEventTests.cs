using System.Diagnostics;
using System.IO;
using System.Runtime.CompilerServices;
using Microsoft.IO;

namespace NativePool.Tests.IO;

/// <summary>
/// The manager's in-process events, each raised in the situation where RecyclableMemoryStreamManager raises its event of
/// the same name: both managers run the same steps side by side, and each event is compared with the reference's.
/// </summary>
public class PooledStreamEventTests
{
    private const int BlockSize = 1024;

    private static PooledStreamManager Manager(long maximumStreamCapacity = 0, bool trackLeaks = false, bool throwOnToArray = false) =>
        PooledStreamManager.Create(new PooledStreamManagerOptions
        {
            BlockSize = BlockSize,
            TrimmingEnabled = false,
            MaximumStreamCapacity = maximumStreamCapacity,
            TrackLeaks = trackLeaks,
            ThrowExceptionOnToArray = throwOnToArray,
        });

    private static RecyclableMemoryStreamManager Recyclable(bool generateCallStacks = false, bool throwOnToArray = false) =>
        new(new RecyclableMemoryStreamManager.Options
        {
            BlockSize = BlockSize,
            GenerateCallStacks = generateCallStacks,
            ThrowExceptionOnToArray = throwOnToArray,
        });

    /// <summary>The id in a RecyclableMemoryStream's <c>ToString</c> (it keeps its <c>Id</c> internal).</summary>
    private static Guid IdIn(RecyclableMemoryStream stream)
    {
        string text = stream.ToString();
        int start = text.IndexOf("Id = ", StringComparison.Ordinal) + "Id = ".Length;
        return Guid.Parse(text[start..text.IndexOf(',', start)]);
    }

    [Fact]
    public void StreamCreatedAndStreamDisposedAreRaisedOncePerStreamWithItsIdTagAndSizesAsOnRecyclableMemoryStreamManager()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        var referenceCreated = new List<RecyclableMemoryStreamManager.StreamCreatedEventArgs>();
        var referenceDisposed = new List<RecyclableMemoryStreamManager.StreamDisposedEventArgs>();
        recyclable.StreamCreated += (sender, e) => referenceCreated.Add(e);
        recyclable.StreamDisposed += (sender, e) => referenceDisposed.Add(e);
        RecyclableMemoryStream referencePlain = recyclable.GetStream("plain");
        RecyclableMemoryStream referenceSized = recyclable.GetStream("sized", 3000);
        Guid[] referenceIds = [IdIn(referencePlain), IdIn(referenceSized)];
        referencePlain.WriteByte(1);
        referencePlain.Dispose();
        referenceSized.Dispose();

        Assert.Equal(referenceIds, referenceCreated.Select(e => e.Id));
        Assert.Equal(["plain", "sized"], referenceCreated.Select(e => e.Tag));
        Assert.Equal([0L, 3000L], referenceCreated.Select(e => e.RequestedSize));
        Assert.Equal(referenceIds, referenceDisposed.Select(e => e.Id));
        Assert.All(referenceDisposed, e => Assert.True(e.Lifetime >= TimeSpan.Zero));

        PooledStreamManager manager = Manager();
        var created = new List<StreamCreatedEventArgs>();
        var disposed = new List<StreamDisposedEventArgs>();
        var senders = new List<object?>();
        manager.StreamCreated += (sender, e) =>
        {
            senders.Add(sender);
            created.Add(e);
        };
        manager.StreamDisposed += (sender, e) =>
        {
            senders.Add(sender);
            disposed.Add(e);
        };
        PooledStream plain = manager.GetStream("plain");
        PooledStream sized = manager.GetStream("sized", 3000);
        long[] ids = [plain.Id, sized.Id];
        plain.WriteByte(1);
        plain.Dispose();
        sized.Dispose();

        Assert.Equal(ids, created.Select(e => e.Id));
        Assert.Equal(["plain", "sized"], created.Select(e => e.Tag));
        Assert.Equal([0L, 3000L], created.Select(e => e.RequestedSize));

        // Ours rents no block before the first write; a requested size is rounded up to whole blocks.
        Assert.Equal([0L, 3L * BlockSize], created.Select(e => e.ActualSize));
        Assert.Equal(ids, disposed.Select(e => e.Id));
        Assert.Equal(["plain", "sized"], disposed.Select(e => e.Tag));
        Assert.Equal([1L, 0L], disposed.Select(e => e.Length));
        Assert.All(disposed, e => Assert.True(e.Lifetime >= TimeSpan.Zero));
        Assert.All(disposed, e => Assert.Null(e.AllocationStack));
        Assert.All(senders, sender => Assert.Same(manager, sender));
    }

    [Fact]
    public void StreamCreatedNamesTheContiguousBufferSizeAndTheCopiedLength()
    {
        PooledStreamManager manager = Manager();
        var created = new List<StreamCreatedEventArgs>();
        manager.StreamCreated += (_, e) => created.Add(e);
        using PooledStream contiguous = manager.GetStream("contiguous", (4 * BlockSize) + 1, asContiguousBuffer: true);
        using PooledStream copy = manager.GetStream("copy", new byte[10], 0, 10);

        Assert.Equal([(4L * BlockSize) + 1, 10L], created.Select(e => e.RequestedSize));
        Assert.Equal([contiguous.Capacity64, copy.Capacity64], created.Select(e => e.ActualSize));
        Assert.Equal(8L * BlockSize, contiguous.Capacity64);
    }

    [Fact]
    public void AStreamCreatedBeforeAStreamDisposedHandlerWasAttachedHasNoLifetime()
    {
        PooledStreamManager manager = Manager();
        PooledStream before = manager.GetStream();
        var disposed = new List<StreamDisposedEventArgs>();
        manager.StreamDisposed += (_, e) => disposed.Add(e);
        PooledStream after = manager.GetStream();
        before.Dispose();
        after.Dispose();

        Assert.Equal([before.Id, after.Id], disposed.Select(e => e.Id));
        Assert.Null(disposed[0].Lifetime);
        Assert.NotNull(disposed[1].Lifetime);
    }

    [Fact]
    public void StreamDoubleDisposedIsRaisedOnTheSecondDisposeAsOnRecyclableMemoryStreamManager()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        var referenceEvents = new List<RecyclableMemoryStreamManager.StreamDoubleDisposedEventArgs>();
        recyclable.StreamDoubleDisposed += (_, e) => referenceEvents.Add(e);
        RecyclableMemoryStream reference = recyclable.GetStream("twice");
        Guid referenceId = IdIn(reference);
        reference.Dispose();
        Assert.Empty(referenceEvents);
        reference.Dispose();
        Assert.Equal(referenceId, Assert.Single(referenceEvents).Id);
        Assert.Equal("twice", referenceEvents[0].Tag);

        PooledStreamManager manager = Manager();
        var events = new List<StreamDoubleDisposedEventArgs>();
        manager.StreamDoubleDisposed += (_, e) => events.Add(e);
        PooledStream stream = manager.GetStream("twice");
        stream.Dispose();
        Assert.Empty(events);
        stream.Dispose();
        StreamDoubleDisposedEventArgs args = Assert.Single(events);
        Assert.Equal(stream.Id, args.Id);
        Assert.Equal("twice", args.Tag);
        Assert.Null(args.AllocationStack);
        Assert.Null(args.DisposeStack1);
        Assert.Null(args.DisposeStack2);
    }

    [Fact]
    public void ATrackingManagersEventsCarryTheCreationAndDisposeStacksAsRecyclableMemoryStreamsGenerateCallStacksDoes()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable(generateCallStacks: true);
        var referenceEvents = new List<RecyclableMemoryStreamManager.StreamDoubleDisposedEventArgs>();
        recyclable.StreamDoubleDisposed += (_, e) => referenceEvents.Add(e);
        RecyclableMemoryStream reference = recyclable.GetStream();
        reference.Dispose();
        reference.Dispose();
        RecyclableMemoryStreamManager.StreamDoubleDisposedEventArgs referenceArgs = Assert.Single(referenceEvents);
        Assert.Contains(nameof(ATrackingManagersEventsCarryTheCreationAndDisposeStacksAsRecyclableMemoryStreamsGenerateCallStacksDoes), referenceArgs.AllocationStack, StringComparison.Ordinal);
        Assert.NotNull(referenceArgs.DisposeStack1);
        Assert.NotNull(referenceArgs.DisposeStack2);

        PooledStreamManager manager = Manager(trackLeaks: true);
        var disposed = new List<StreamDisposedEventArgs>();
        var twice = new List<StreamDoubleDisposedEventArgs>();
        manager.StreamDisposed += (_, e) => disposed.Add(e);
        manager.StreamDoubleDisposed += (_, e) => twice.Add(e);
        PooledStream stream = CreateHere(manager);
        DisposeHere(stream);
        stream.Dispose();

        StreamDisposedEventArgs first = Assert.Single(disposed);
        Assert.Contains(nameof(CreateHere), first.AllocationStack!.ToString(), StringComparison.Ordinal);
        Assert.Contains(nameof(DisposeHere), first.DisposeStack!.ToString(), StringComparison.Ordinal);
        StreamDoubleDisposedEventArgs again = Assert.Single(twice);
        Assert.Same(first.AllocationStack, again.AllocationStack);
        Assert.Same(first.DisposeStack, again.DisposeStack1);
        Assert.Contains(nameof(ATrackingManagersEventsCarryTheCreationAndDisposeStacksAsRecyclableMemoryStreamsGenerateCallStacksDoes), again.DisposeStack2!.ToString(), StringComparison.Ordinal);
        Assert.DoesNotContain(nameof(DisposeHere), again.DisposeStack2.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void StreamFinalizedIsRaisedForAStreamCollectedUndisposedAsOnRecyclableMemoryStreamManager()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        var referenceTags = new List<string?>();
        recyclable.StreamFinalized += (_, e) =>
        {
            lock (referenceTags)
            {
                referenceTags.Add(e.Tag);
            }
        };
        LeaveUndisposed(() => recyclable.GetStream("leaked"));

        PooledStreamManager manager = Manager();
        var tags = new List<string?>();
        manager.StreamFinalized += (_, e) =>
        {
            lock (tags)
            {
                tags.Add(e.Tag);
            }
        };
        LeaveUndisposed(() => manager.GetStream("leaked"));

        Finalization.WaitUntil(
            () =>
            {
                lock (referenceTags)
                {
                    lock (tags)
                    {
                        return referenceTags.Count == 1 && tags.Count == 1;
                    }
                }
            },
            () => $"{referenceTags.Count} finalized reference streams, {tags.Count} of ours");
        Assert.Equal(["leaked"], referenceTags);
        Assert.Equal(["leaked"], tags);
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void StreamOverCapacityIsRaisedBeforeTheRefusedRequestThrowsAsOnRecyclableMemoryStreamManager()
    {
        const long Cap = 2 * BlockSize;
        var recyclable = new RecyclableMemoryStreamManager(new RecyclableMemoryStreamManager.Options { BlockSize = BlockSize, MaximumStreamCapacity = Cap });
        var referenceEvents = new List<RecyclableMemoryStreamManager.StreamOverCapacityEventArgs>();
        recyclable.StreamOverCapacity += (_, e) => referenceEvents.Add(e);
        using (RecyclableMemoryStream reference = recyclable.GetStream("capped"))
        {
            // RMS throws OutOfMemoryException; ours IOException.
            Assert.Throws<OutOfMemoryException>(() => reference.SetLength(Cap + 5));
        }

        RecyclableMemoryStreamManager.StreamOverCapacityEventArgs referenceArgs = Assert.Single(referenceEvents);
        Assert.Equal(("capped", Cap + 5, Cap), (referenceArgs.Tag, referenceArgs.RequestedCapacity, referenceArgs.MaximumCapacity));

        PooledStreamManager manager = Manager(maximumStreamCapacity: Cap);
        var events = new List<StreamOverCapacityEventArgs>();
        using PooledStream stream = manager.GetStream("capped");
        manager.StreamOverCapacity += (_, e) =>
        {
            // Raised before the throw: the stream is still as it was.
            Assert.Equal(0, stream.Length);
            events.Add(e);
        };
        Assert.Throws<IOException>(() => stream.SetLength(Cap + 5));

        StreamOverCapacityEventArgs args = Assert.Single(events);
        Assert.Equal((stream.Id, "capped", Cap + 5, Cap), (args.Id, args.Tag, args.RequestedCapacity, args.MaximumCapacity));
        Assert.Null(args.AllocationStack);
        Assert.Throws<IOException>(() => manager.GetStream("big", Cap + 1, asContiguousBuffer: true));
        Assert.Equal(2, events.Count);
    }

    [Fact]
    public void AGetStreamRefusedOnCapacityRaisesCreatedOverCapacityAndDisposedWhereRecyclableMemoryStreamManagerRaisesOnlyOverCapacity()
    {
        const long Cap = 2 * BlockSize;
        var recyclable = new RecyclableMemoryStreamManager(new RecyclableMemoryStreamManager.Options { BlockSize = BlockSize, MaximumStreamCapacity = Cap });
        var referenceEvents = new List<string>();
        recyclable.StreamCreated += (_, _) => referenceEvents.Add("created");
        recyclable.StreamOverCapacity += (_, _) => referenceEvents.Add("over capacity");
        recyclable.StreamDisposed += (_, _) => referenceEvents.Add("disposed");
        Assert.Throws<OutOfMemoryException>(() => recyclable.GetStream("big", Cap + 1));
        Assert.Equal(["over capacity"], referenceEvents);

        PooledStreamManager manager = Manager(maximumStreamCapacity: Cap);
        var events = new List<string>();
        manager.StreamCreated += (_, _) => events.Add("created");
        manager.StreamOverCapacity += (_, _) => events.Add("over capacity");
        manager.StreamDisposed += (_, _) => events.Add("disposed");
        Assert.Throws<IOException>(() => manager.GetStream("big", Cap + 1));
        Assert.Equal(["created", "over capacity", "disposed"], events);
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    [Fact]
    public void StreamConvertedToArrayIsRaisedOnEveryToArrayAndBeforeThrowExceptionOnToArrayThrowsAsOnRecyclableMemoryStreamManager()
    {
        foreach (bool throwOnToArray in new[] { false, true })
        {
            RecyclableMemoryStreamManager recyclable = Recyclable(throwOnToArray: throwOnToArray);
            var referenceLengths = new List<long>();
            recyclable.StreamConvertedToArray += (_, e) => referenceLengths.Add(e.Length);
            using RecyclableMemoryStream reference = recyclable.GetStream("copied");
            reference.Write(new byte[10]);
            Action referenceToArray = () => _ = ((MemoryStream)reference).ToArray();

            PooledStreamManager manager = Manager(throwOnToArray: throwOnToArray);
            var events = new List<StreamConvertedToArrayEventArgs>();
            manager.StreamConvertedToArray += (_, e) => events.Add(e);
            using PooledStream stream = manager.GetStream("copied");
            stream.Write(new byte[10]);
            Action toArray = () => _ = stream.ToArray();

            foreach (Action call in new[] { referenceToArray, toArray })
            {
                if (throwOnToArray)
                {
                    Assert.Throws<NotSupportedException>(call);
                }
                else
                {
                    call();
                }
            }

            Assert.Equal([10L], referenceLengths);
            StreamConvertedToArrayEventArgs args = Assert.Single(events);
            Assert.Equal((stream.Id, "copied", 10L), (args.Id, args.Tag, args.Length));
            Assert.Null(args.Stack);
        }
    }

    [Fact]
    public void BufferDiscardedNamesABlockThePoolHadNoRoomForAsOnRecyclableMemoryStreamManager()
    {
        // RMS keeps at most one free block here and reports the first it cannot keep (it then stops returning).
        var recyclable = new RecyclableMemoryStreamManager(new RecyclableMemoryStreamManager.Options { BlockSize = BlockSize, MaximumSmallPoolFreeBytes = BlockSize });
        var referenceEvents = new List<RecyclableMemoryStreamManager.BufferDiscardedEventArgs>();
        recyclable.BufferDiscarded += (_, e) => referenceEvents.Add(e);
        using (RecyclableMemoryStream reference = recyclable.GetStream("discarding"))
        {
            reference.Write(new byte[3 * BlockSize]);
        }

        Assert.NotEmpty(referenceEvents);
        Assert.All(referenceEvents, e => Assert.Equal(
            ("discarding", RecyclableMemoryStreamManager.Events.MemoryStreamBufferType.Small, RecyclableMemoryStreamManager.Events.MemoryStreamDiscardReason.EnoughFree),
            (e.Tag, e.BufferType, e.Reason)));

        // Ours keeps one block per stripe here (one stripe), and reports every block it does not keep.
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions
        {
            BlockSize = BlockSize,
            StripeCount = 1,
            MaximumRetainedBytesPerSizeClass = BlockSize,
            TrimmingEnabled = false,
        });
        var events = new List<BufferDiscardedEventArgs>();
        manager.BufferDiscarded += (_, e) => events.Add(e);
        long id;
        using (PooledStream stream = manager.GetStream("discarding"))
        {
            stream.Write(new byte[3 * BlockSize]);
            id = stream.Id;
        }

        Assert.Equal(2, manager.GetStatistics().Dropped);
        Assert.Equal(2, events.Count);
        Assert.All(events, e => Assert.Equal((id, "discarding", StreamBufferKind.Block, StreamBufferDiscardReason.EnoughFree), (e.Id, e.Tag, e.BufferKind, e.Reason)));
    }

    [Fact]
    public void BufferDiscardedNamesABufferTooLargeToPoolAsOnRecyclableMemoryStreamManager()
    {
        const int MaximumBufferSize = 4 * BlockSize;
        var recyclable = new RecyclableMemoryStreamManager(new RecyclableMemoryStreamManager.Options
        {
            BlockSize = BlockSize,
            LargeBufferMultiple = BlockSize,
            MaximumBufferSize = MaximumBufferSize,
        });
        var referenceEvents = new List<RecyclableMemoryStreamManager.BufferDiscardedEventArgs>();
        recyclable.BufferDiscarded += (_, e) => referenceEvents.Add(e);
        using (RecyclableMemoryStream reference = recyclable.GetStream("large"))
        {
            reference.Write(new byte[5 * BlockSize]);
            _ = reference.GetBuffer();
        }

        RecyclableMemoryStreamManager.BufferDiscardedEventArgs referenceArgs = Assert.Single(referenceEvents);
        Assert.Equal(
            ("large", RecyclableMemoryStreamManager.Events.MemoryStreamBufferType.Large, RecyclableMemoryStreamManager.Events.MemoryStreamDiscardReason.TooLarge),
            (referenceArgs.Tag, referenceArgs.BufferType, referenceArgs.Reason));

        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = BlockSize, MaximumBufferSize = MaximumBufferSize, TrimmingEnabled = false });
        var events = new List<BufferDiscardedEventArgs>();
        manager.BufferDiscarded += (_, e) => events.Add(e);
        long id;
        using (PooledStream stream = manager.GetStream("large"))
        {
            stream.Write(new byte[5 * BlockSize]);
            _ = stream.GetBuffer();
            id = stream.Id;
        }

        BufferDiscardedEventArgs args = Assert.Single(events);
        Assert.Equal((id, "large", StreamBufferKind.Buffer, StreamBufferDiscardReason.TooLarge), (args.Id, args.Tag, args.BufferKind, args.Reason));
    }

    [Fact]
    public void UsageReportIsRaisedWhenAStreamIsCreatedAndWhenItIsDisposedAsOnRecyclableMemoryStreamManager()
    {
        RecyclableMemoryStreamManager recyclable = Recyclable();
        var referenceReports = new List<RecyclableMemoryStreamManager.UsageReportEventArgs>();
        recyclable.UsageReport += (_, e) => referenceReports.Add(e);
        using (RecyclableMemoryStream reference = recyclable.GetStream())
        {
            reference.Write(new byte[3 * BlockSize]);
            Assert.Single(referenceReports);
        }

        Assert.Equal(2, referenceReports.Count);
        Assert.Equal((0L, 3L * BlockSize), (referenceReports[1].SmallPoolInUseBytes, referenceReports[1].SmallPoolFreeBytes));

        PooledStreamManager manager = Manager();
        var reports = new List<UsageReportEventArgs>();
        manager.UsageReport += (_, e) => reports.Add(e);
        using (PooledStream stream = manager.GetStream())
        {
            stream.Write(new byte[3 * BlockSize]);
            Assert.Single(reports);
        }

        Assert.Equal(2, reports.Count);
        Assert.Equal((0L, 0L, 0L, 0L), (reports[0].BlockBytesInUse, reports[0].BlockBytesFree, reports[0].BufferBytesInUse, reports[0].BufferBytesFree));
        Assert.Equal((0L, 3L * BlockSize, 0L, 0L), (reports[1].BlockBytesInUse, reports[1].BlockBytesFree, reports[1].BufferBytesInUse, reports[1].BufferBytesFree));
    }

    [Fact]
    public void AHandlerDetachedIsNoLongerCalled()
    {
        PooledStreamManager manager = Manager();
        int created = 0;
        EventHandler<StreamCreatedEventArgs> handler = (_, _) => created++;
        manager.StreamCreated += handler;
        manager.GetStream().Dispose();
        manager.StreamCreated -= handler;
        manager.GetStream().Dispose();
        Assert.Equal(1, created);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static PooledStream CreateHere(PooledStreamManager manager) => manager.GetStream();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void DisposeHere(PooledStream stream) => stream.Dispose();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void LeaveUndisposed(Func<MemoryStream> create) => create().WriteByte(1);
}
