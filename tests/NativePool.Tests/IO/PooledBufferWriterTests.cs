using CommunityToolkit.HighPerformance.Buffers;

namespace NativePool.Tests.IO;

/// <summary>
/// <see cref="PooledBufferWriter{T}"/> against CommunityToolkit's <see cref="ArrayPoolBufferWriter{T}"/> as the oracle:
/// the same written contents, counts and exception types for the same calls, and the array going back once.
/// </summary>
public class PooledBufferWriterTests
{
    /// <summary>Runs a call on both writers and checks they agree on the outcome (result or exception type) and the written contents.</summary>
    private static void Check<TResult>(string name, PooledBufferWriter<byte> ours, ArrayPoolBufferWriter<byte> oracle, Func<IBufferWriter<byte>, TResult> call)
    {
        (TResult? expected, Type? expectedError) = Outcome(oracle, call);
        (TResult? actual, Type? actualError) = Outcome(ours, call);
        Assert.True(expectedError == actualError, $"{name}: the toolkit threw {expectedError?.Name ?? "nothing"}, ours {actualError?.Name ?? "nothing"}.");
        Assert.Equal(expected, actual);
        Assert.Equal(oracle.WrittenCount, ours.WrittenCount);
        if (expectedError is null || expectedError != typeof(ObjectDisposedException))
        {
            Assert.Equal(oracle.WrittenSpan.ToArray(), ours.WrittenSpan.ToArray());
        }
    }

    private static (TResult? Result, Type? Error) Outcome<TResult>(IBufferWriter<byte> writer, Func<IBufferWriter<byte>, TResult> call)
    {
        try
        {
            return (call(writer), null);
        }
        catch (Exception exception)
        {
            return (default, exception.GetType());
        }
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    public void RandomWritesAgreeWithTheToolkitWriter(int seed)
    {
        var random = new Random(seed);
        var pool = StripedArrayPool<byte>.Create();
        using var ours = new PooledBufferWriter<byte>(pool, 0);
        using var oracle = new ArrayPoolBufferWriter<byte>(ArrayPool<byte>.Create(), 0);
        for (int step = 0; step < 300; step++)
        {
            int hint = random.Next(-1, 5000);
            byte value = (byte)step;
            switch (random.Next(5))
            {
                case 0:
                    Check($"{step}: span {hint}", ours, oracle, w => { Span<byte> s = w.GetSpan(hint); int n = Math.Min(s.Length, Math.Max(hint, 1)); s[..n].Fill(value); w.Advance(n); return s.Length >= Math.Max(hint, 1); });
                    break;
                case 1:
                    Check($"{step}: memory {hint}", ours, oracle, w => { Memory<byte> m = w.GetMemory(hint); m.Span[..Math.Min(m.Length, 3)].Fill(value); w.Advance(Math.Min(m.Length, 3)); return m.Length >= Math.Max(hint, 1); });
                    break;
                case 2:
                    Check($"{step}: advance {hint - 2500}", ours, oracle, w => { w.Advance(hint - 2500); return 0; });
                    break;
                case 3:
                    Check($"{step}: clear", ours, oracle, w => { ((dynamic)w).Clear(); return 0; });
                    break;
                default:
                    Check($"{step}: free capacity is positive", ours, oracle, w => ((dynamic)w).FreeCapacity >= 0);
                    break;
            }
        }
    }

    [Fact]
    public void EveryMemberAfterDisposeAgreesWithTheToolkitWriter()
    {
        var ours = new PooledBufferWriter<byte>(StripedArrayPool<byte>.Create());
        var oracle = new ArrayPoolBufferWriter<byte>(ArrayPool<byte>.Create());
        Check("write", ours, oracle, w => { w.GetSpan(10)[..10].Fill(1); w.Advance(10); return 0; });
        ours.Dispose();
        oracle.Dispose();
        Check("get span", ours, oracle, w => w.GetSpan().Length);
        Check("get memory", ours, oracle, w => w.GetMemory().Length);
        Check("advance", ours, oracle, w => { w.Advance(1); return 0; });
        Assert.Throws<ObjectDisposedException>(() => oracle.WrittenSpan.Length);
        Assert.Throws<ObjectDisposedException>(() => ours.WrittenSpan.Length);
        Assert.Throws<ObjectDisposedException>(() => ours.WrittenMemory);
        Assert.Throws<ObjectDisposedException>(() => ours.Capacity);
        Assert.Throws<ObjectDisposedException>(() => ours.FreeCapacity);
        Assert.Throws<ObjectDisposedException>(() => ours.Clear());
        Assert.Throws<ObjectDisposedException>(() => ours.ResetWrittenCount());
        Assert.Throws<ObjectDisposedException>(() => ours.DangerousGetArray());
        Assert.Equal(oracle.WrittenCount, ours.WrittenCount);
    }

    [Fact]
    public void GrowingReturnsTheOldArrayAndDisposeReturnsTheLastOneOnce()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Guarded = true, TrimmingEnabled = false });
        var writer = new PooledBufferWriter<byte>(pool, 16);
        for (int i = 0; i < 1000; i++)
        {
            writer.GetSpan(7)[..7].Fill((byte)i);
            writer.Advance(7);
        }

        Assert.Equal(7000, writer.WrittenCount);
        Assert.Equal(1, pool.GetStatistics().Outstanding);
        writer.Dispose();
        writer.Dispose();
        Assert.Equal(0, pool.GetStatistics().Outstanding);
        Assert.Empty(pool.GetLeaks());
    }

    [Fact]
    public void RacingDisposesReturnTheArrayOnce()
    {
        var pool = StripedArrayPool<byte>.Create(new StripedArrayPoolOptions { Guarded = true, TrimmingEnabled = false });
        for (int round = 0; round < 200; round++)
        {
            var writer = new PooledBufferWriter<byte>(pool);
            using var start = new Barrier(2);
            TestThreads.Run(2, _ =>
            {
                start.SignalAndWait();
                writer.Dispose();
            });
        }

        Assert.Equal(0, pool.GetStatistics().Outstanding);
    }

    [Fact]
    public void ResetWrittenCountKeepsTheContentsAndClearZeroesThem()
    {
        using var writer = new PooledBufferWriter<byte>(StripedArrayPool<byte>.Create());
        writer.GetSpan(4)[..4].Fill(9);
        writer.Advance(4);
        ArraySegment<byte> segment = writer.DangerousGetArray();
        writer.ResetWrittenCount();
        Assert.Equal(0, writer.WrittenCount);
        Assert.Equal(9, segment.Array![3]);
        writer.GetSpan(4);
        writer.Advance(4);
        writer.Clear();
        Assert.Equal(0, writer.WrittenCount);
        Assert.Equal(0, segment.Array![3]);
    }

    [Fact]
    public void TheDefaultPoolIsTheSharedStripedPoolAndCharWritersPrintTheirText()
    {
        using var writer = new PooledBufferWriter<char>();
        "pooled".AsSpan().CopyTo(writer.GetSpan(6));
        writer.Advance(6);
        Assert.Equal("pooled", writer.ToString());
        Assert.Equal(PooledBufferWriter<char>.DefaultInitialCapacity, writer.Capacity);
        Assert.Equal("NativePool.PooledBufferWriter<System.Int32>[0]", new PooledBufferWriter<int>(0).ToString());
    }

    [Fact]
    public void BadConstructorArgumentsThrow()
    {
        Assert.Throws<ArgumentNullException>(() => new PooledBufferWriter<byte>(null!));
        Assert.Throws<ArgumentOutOfRangeException>(() => new PooledBufferWriter<byte>(-1));
    }
}
