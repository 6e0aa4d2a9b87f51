using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;
using System.Runtime.InteropServices;

namespace NativePool.Tests.IO;

/// <summary>
/// Eight threads create, write, read, hand over and dispose streams of one manager for
/// <c>NATIVEPOOL_STRESS_SECONDS</c> seconds (3 by default; <c>./build.sh stress</c> runs longer). Every stream is filled
/// with a token of its own, re-checked before it is disposed; every block and buffer a live stream holds is registered,
/// so a block handed to two streams at once fails the registration. At the end every block is back.
/// </summary>
[Trait("Category", "Stress")]
public class PooledStreamStressTests
{
    private const int Threads = 8;
    private const int BlockSize = 1024;
    private const int MinimumStreamsPerThread = 20;

    private static long s_lastToken;

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void StreamsNeverShareABlock(bool zeroOnReturn)
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions
        {
            BlockSize = BlockSize,
            MaximumBufferSize = 64 * BlockSize,
            ZeroOnReturn = zeroOnReturn,
            ItemsPerStripe = 16,
        });
        var owners = new ConcurrentDictionary<byte[], long>(ReferenceEqualityComparer.Instance);
        var handOver = new ConcurrentQueue<(PooledStream Stream, long Token)>();
        var deadline = Stopwatch.StartNew();
        long streams = 0;

        TestThreads.Run(Threads, thread =>
        {
            var random = new Random(thread);

            // At least MinimumStreamsPerThread rounds each, however late the thread gets a core on a loaded machine.
            for (int round = 0; round < MinimumStreamsPerThread || deadline.Elapsed < StressDuration.Value; round++)
            {
                if (random.Next(3) == 0 && handOver.TryDequeue(out (PooledStream Stream, long Token) taken))
                {
                    Finish(taken.Stream, taken.Token, owners);
                    continue;
                }

                long token = Interlocked.Increment(ref s_lastToken);
                PooledStream stream = manager.GetStream();
                Fill(stream, token, random.Next(1, 80 * BlockSize / 8), random);
                if (random.Next(4) == 0)
                {
                    _ = stream.GetBuffer();
                }

                Register(stream, token, owners);
                Interlocked.Increment(ref streams);
                if (handOver.Count < 16)
                {
                    handOver.Enqueue((stream, token));
                }
                else
                {
                    Finish(stream, token, owners);
                }
            }
        });

        while (handOver.TryDequeue(out (PooledStream Stream, long Token) left))
        {
            Finish(left.Stream, left.Token, owners);
        }

        Assert.True(streams > 0);
        Assert.Empty(owners);
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    /// <summary>Writes <paramref name="words"/> copies of the token, in writes of random sizes through every write path.</summary>
    private static void Fill(PooledStream stream, long token, int words, Random random)
    {
        Span<byte> word = stackalloc byte[8];
        BinaryPrimitives.WriteInt64LittleEndian(word, token);
        for (int written = 0; written < words;)
        {
            int count = Math.Min(words - written, random.Next(1, 700));
            switch (random.Next(3))
            {
                case 0:
                    for (int i = 0; i < count; i++)
                    {
                        stream.Write(word);
                    }

                    break;
                case 1:
                    Span<byte> span = stream.GetSpan(count * 8);
                    for (int i = 0; i < count; i++)
                    {
                        word.CopyTo(span[(i * 8)..]);
                    }

                    stream.Advance(count * 8);
                    break;
                default:
                    stream.SetLength(stream.Length + (count * 8));
                    Span<long> words64 = MemoryMarshal.Cast<byte, long>(stream.GetBuffer().AsSpan(written * 8, count * 8));
                    words64.Fill(BinaryPrimitives.ReadInt64LittleEndian(word));
                    stream.Position = stream.Length;
                    break;
            }

            written += count;
        }
    }

    private static void Register(PooledStream stream, long token, ConcurrentDictionary<byte[], long> owners)
    {
        foreach (ReadOnlyMemory<byte> segment in stream.GetReadOnlySequence())
        {
            Assert.True(MemoryMarshal.TryGetArray(segment, out ArraySegment<byte> array));
            Assert.True(owners.TryAdd(array.Array!, token), "A block is held by two streams at once.");
        }
    }

    private static void Finish(PooledStream stream, long token, ConcurrentDictionary<byte[], long> owners)
    {
        stream.Position = 0;
        Span<byte> word = stackalloc byte[8];
        while (stream.Read(word) == 8)
        {
            Assert.Equal(token, BinaryPrimitives.ReadInt64LittleEndian(word));
        }

        foreach (ReadOnlyMemory<byte> segment in stream.GetReadOnlySequence())
        {
            Assert.True(MemoryMarshal.TryGetArray(segment, out ArraySegment<byte> array));
            Assert.True(owners.TryRemove(array.Array!, out long owner) && owner == token, "A block changed owner while its stream held it.");
        }

        stream.Dispose();
    }
}
