using System.Buffers.Binary;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.IO;

namespace NativePool.Tests.IO;

/// <summary>
/// Two threads misuse one stream at once — every member, in a seeded random order, one of them disposing it at a random
/// step — while a third thread writes, checks and disposes streams of the same manager with a token of its own. The
/// misuse may throw <see cref="ObjectDisposedException"/> or <see cref="InvalidOperationException"/>; it must never hang
/// (a watchdog bounds every round), never throw anything else, never change a byte of the bystander's streams, and
/// leave every block back in the pool at the end.
/// </summary>
[Trait("Category", "Stress")]
public class PooledStreamMisuseRaceTests
{
    private const int BlockSize = 1024;
    private const int StepsPerThread = 12;

    /// <summary>How long one round may take before the test calls it a hang.</summary>
    private static readonly TimeSpan s_watchdog = TimeSpan.FromSeconds(30);

    private static readonly string[] s_members =
    [
        "Write", "WriteLarge", "WriteByte", "Read", "ReadByte", "Seek", "Position", "SetLength", "Capacity", "GetBuffer",
        "TryGetBuffer", "ToArray", "GetReadOnlySequence", "GetSpanAdvance", "GetMemoryAdvance", "CopyTo", "CopyToAsync",
        "WriteToStream", "WriteToArray", "SafeRead", "SafeReadByte", "ReadAsync", "WriteAsync", "Length", "Capacity64", "Dispose",
    ];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void TwoThreadsMisusingOneStreamNeverHangAndNeverReachAnotherStreamsBlocks(bool zeroOnReturn)
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions
        {
            BlockSize = BlockSize,
            MaximumBufferSize = 64 * BlockSize,
            ZeroOnReturn = zeroOnReturn,
            TrimmingEnabled = false,
        });
        var failures = new ConcurrentQueue<string>();
        var barrier = new Barrier(2);
        var deadline = Stopwatch.StartNew();
        PooledStream? shared = null;
        long rounds = 0;
        long bystanderStreams = 0;
        int stop = 0;

        void Racer(int racer)
        {
            for (int round = 0; ; round++)
            {
                if (racer == 0)
                {
                    bool more = deadline.Elapsed < StressDuration.Value;
                    Volatile.Write(ref stop, more ? 0 : 1);
                    if (more)
                    {
                        PooledStream stream = manager.GetStream();
                        stream.Write(Pattern(new Random(round).Next(0, 5 * BlockSize), round));
                        Volatile.Write(ref shared, stream);
                    }
                }

                barrier.SignalAndWait();
                if (Volatile.Read(ref stop) != 0)
                {
                    return;
                }

                PooledStream current = Volatile.Read(ref shared)!;
                var random = new Random((round * 2) + racer);
                int disposeAt = racer == 1 ? random.Next(StepsPerThread) : random.Next(StepsPerThread * 4);
                for (int step = 0; step < StepsPerThread; step++)
                {
                    string member = step == disposeAt ? "Dispose" : s_members[random.Next(s_members.Length)];
                    Misuse(current, member, random, failures);
                }

                barrier.SignalAndWait();
                if (racer == 0)
                {
                    current.Dispose();
                    rounds++;
                }
            }
        }

        void Bystander()
        {
            var random = new Random(-1);
            long token = 0;
            Span<byte> word = stackalloc byte[8];
            while (Volatile.Read(ref stop) == 0)
            {
                token++;
                using PooledStream stream = manager.GetStream();
                int words = random.Next(1, 6 * BlockSize / 8);
                BinaryPrimitives.WriteInt64LittleEndian(word, token);
                for (int i = 0; i < words; i++)
                {
                    stream.Write(word);
                }

                if (random.Next(3) == 0)
                {
                    _ = stream.GetBuffer();
                }

                stream.Position = 0;
                while (stream.Read(word) == 8)
                {
                    long read = BinaryPrimitives.ReadInt64LittleEndian(word);
                    if (read != token)
                    {
                        failures.Enqueue($"The bystander's stream {token} read {read}: another stream wrote into its block.");
                        return;
                    }
                }

                bystanderStreams++;
            }
        }

        Thread[] threads =
        [
            new(() => Guard(() => Racer(0), failures)) { IsBackground = true },
            new(() => Guard(() => Racer(1), failures)) { IsBackground = true },
            new(() => Guard(Bystander, failures)) { IsBackground = true },
        ];
        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        foreach (Thread thread in threads)
        {
            Assert.True(thread.Join(StressDuration.Value + s_watchdog), "A thread misusing a stream hung (the watchdog expired).");
        }

        Assert.Empty(failures);
        Assert.True(rounds > 0 && bystanderStreams > 0, $"{rounds} rounds and {bystanderStreams} bystander streams ran.");
        PoolStatistics statistics = manager.GetStatistics();
        Assert.True(statistics.IsConserved, statistics.ToString());
        Assert.Equal(0, statistics.Outstanding);
    }

    [Fact]
    public void AMemberThatMeetsAWriterOnAnotherThreadThrowsInsteadOfRacing()
    {
        PooledStreamManager manager = PooledStreamManager.Create(new PooledStreamManagerOptions { BlockSize = BlockSize, TrimmingEnabled = false });
        using PooledStream stream = manager.GetStream();
        stream.Write(Pattern(3 * BlockSize, 1));
        stream.Position = 0;
        using var inside = new ManualResetEventSlim();
        using var release = new ManualResetEventSlim();

        // A destination that blocks inside CopyTo holds the stream's reader claim on this thread.
        var blocking = new BlockingStream(inside, release);
        Exception? fromWriter = null;
        var copier = new Thread(() => stream.CopyTo(blocking)) { IsBackground = true };
        copier.Start();
        Assert.True(inside.Wait(s_watchdog));
        try
        {
            stream.WriteByte(1);
        }
        catch (InvalidOperationException exception)
        {
            fromWriter = exception;
        }

        // A Dispose meanwhile does not wait: the copier returns the blocks when it gives its claim back.
        stream.Dispose();
        Assert.NotEqual(0, manager.GetStatistics().Outstanding);
        release.Set();
        Assert.True(copier.Join(s_watchdog));
        Assert.NotNull(fromWriter);
        Assert.Equal(0, manager.GetStatistics().Outstanding);
    }

    private static void Guard(Action body, ConcurrentQueue<string> failures)
    {
        try
        {
            body();
        }
        catch (Exception exception)
        {
            failures.Enqueue("A thread ended with " + exception);
        }
    }

    private static byte[] Pattern(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }

    /// <summary>Runs one member with arguments valid for a stream nobody else touches; records any exception misuse may not throw.</summary>
    private static void Misuse(PooledStream stream, string member, Random random, ConcurrentQueue<string> failures)
    {
        int size = random.Next(1, 3 * BlockSize);
        try
        {
            switch (member)
            {
                case "Write": stream.Write(Pattern(random.Next(1, 64), size)); break;
                case "WriteLarge": stream.Write(Pattern(size, size), 0, size); break;
                case "WriteByte": stream.WriteByte((byte)size); break;
                case "Read": _ = stream.Read(new byte[size], 0, size); break;
                case "ReadByte": _ = stream.ReadByte(); break;
                case "Seek": _ = stream.Seek(size, SeekOrigin.Begin); break;
                case "Position": stream.Position = size; break;
                case "SetLength": stream.SetLength(size); break;
                case "Capacity": stream.Capacity = 8 * BlockSize; break;
                case "GetBuffer": _ = stream.GetBuffer().Length; break;
                case "TryGetBuffer": _ = stream.TryGetBuffer(out _); break;
                case "ToArray": _ = stream.ToArray(); break;
                case "GetReadOnlySequence": _ = stream.GetReadOnlySequence().Length; break;
                case "GetSpanAdvance": stream.Advance(Math.Min(stream.GetSpan(size).Length, size)); break;
                case "GetMemoryAdvance": stream.Advance(Math.Min(stream.GetMemory(size).Length, size)); break;
                case "CopyTo": stream.CopyTo(new MemoryStream()); break;
                case "CopyToAsync": stream.CopyToAsync(new MemoryStream()).GetAwaiter().GetResult(); break;
                case "WriteToStream": stream.WriteTo(new MemoryStream()); break;
                case "WriteToArray": stream.WriteTo(new byte[16 * BlockSize], 0, Math.Min(stream.Length, 1)); break;
                case "SafeRead": long at = 0; _ = stream.SafeRead(new byte[size], 0, size, ref at); break;
                case "SafeReadByte": long one = 0; _ = stream.SafeReadByte(ref one); break;
                case "ReadAsync": _ = stream.ReadAsync(new byte[size], 0, size).GetAwaiter().GetResult(); break;
                case "WriteAsync": stream.WriteAsync(new byte[size], 0, size).GetAwaiter().GetResult(); break;
                case "Length": _ = stream.Length; break;
                case "Capacity64": _ = stream.Capacity64; break;
                case "Dispose": stream.Dispose(); break;
                default: throw new ArgumentOutOfRangeException(nameof(member), member, null);
            }
        }
        catch (ObjectDisposedException)
        {
        }
        catch (InvalidOperationException)
        {
        }
        catch (NotSupportedException) when (member == "SetLength")
        {
            // SetLength on a disposed stream reports it as not writable, as MemoryStream does.
        }
        catch (ArgumentOutOfRangeException) when (member is "Capacity" or "GetSpanAdvance" or "GetMemoryAdvance" or "WriteToArray")
        {
            // The other thread changed the length or the grant between this thread's reading and its call.
        }
        catch (Exception exception)
        {
            failures.Enqueue($"{member} threw {exception}");
        }
    }

    /// <summary>A destination whose first write signals, then blocks until released.</summary>
    private sealed class BlockingStream(ManualResetEventSlim inside, ManualResetEventSlim release) : MemoryStream
    {
        public override void Write(byte[] buffer, int offset, int count)
        {
            inside.Set();
            release.Wait();
            base.Write(buffer, offset, count);
        }
    }
}
