using System;
using System.Buffers;
using System.IO.Pipelines;
using System.Runtime.InteropServices;
using System.Threading.Tasks;

namespace NativePool.Samples.PipelinesChecksum;

/// <summary>
/// Carries a deterministic pseudo-random byte stream from a writer task to a reader task through a <see cref="Pipe"/>
/// whose segments come from the given pool; the reader regenerates the stream and compares every byte, and both sides
/// fold what they saw into a checksum.
/// </summary>
internal static class ChecksumPipe
{
    /// <summary>What one run saw.</summary>
    /// <param name="Bytes">Bytes the reader received.</param>
    /// <param name="WriterChecksum">The writer's checksum of what it wrote.</param>
    /// <param name="ReaderChecksum">The reader's checksum of what it received.</param>
    /// <param name="FirstMismatch">The stream offset of the first byte that differed from the expected stream, or -1.</param>
    internal readonly record struct Result(long Bytes, ulong WriterChecksum, ulong ReaderChecksum, long FirstMismatch);

    /// <summary>Sends <paramref name="totalBytes"/> (a multiple of 8) through a pipe on <paramref name="pool"/>.</summary>
    public static async Task<Result> RunAsync(MemoryPool<byte> pool, long totalBytes, int segmentSize = 64 * 1024)
    {
        var pipe = new Pipe(new PipeOptions(pool: pool, minimumSegmentSize: segmentSize, pauseWriterThreshold: 16L * segmentSize, resumeWriterThreshold: 8L * segmentSize));
        Task<ulong> writer = Task.Run(() => WriteAsync(pipe.Writer, totalBytes, segmentSize));
        Task<(long Bytes, ulong Checksum, long FirstMismatch)> reader = Task.Run(() => ReadAsync(pipe.Reader));
        ulong writerChecksum = await writer.ConfigureAwait(false);
        (long bytes, ulong readerChecksum, long firstMismatch) = await reader.ConfigureAwait(false);
        return new Result(bytes, writerChecksum, readerChecksum, firstMismatch);
    }

    private static async Task<ulong> WriteAsync(PipeWriter writer, long totalBytes, int segmentSize)
    {
        var generator = new Stream64(seed: 0x9E3779B97F4A7C15);
        ulong checksum = Checksum.Seed;
        for (long written = 0; written < totalBytes;)
        {
            int chunk = (int)Math.Min(segmentSize, totalBytes - written) & ~7;
            Span<byte> span = writer.GetSpan(chunk)[..chunk];
            Span<ulong> words = MemoryMarshal.Cast<byte, ulong>(span);
            generator.Fill(words);
            checksum = Checksum.Fold(checksum, words);
            writer.Advance(chunk);
            written += chunk;
            FlushResult flush = await writer.FlushAsync().ConfigureAwait(false);
            if (flush.IsCompleted)
            {
                break;
            }
        }

        await writer.CompleteAsync().ConfigureAwait(false);
        return checksum;
    }

    private static async Task<(long Bytes, ulong Checksum, long FirstMismatch)> ReadAsync(PipeReader reader)
    {
        var generator = new Stream64(seed: 0x9E3779B97F4A7C15);
        ulong checksum = Checksum.Seed;
        long received = 0;
        long firstMismatch = -1;
        ulong[] expected = new ulong[8192];
        ulong[] got = new ulong[8192];
        while (true)
        {
            ReadResult result = await reader.ReadAsync().ConfigureAwait(false);
            ReadOnlySequence<byte> buffer = result.Buffer;

            // Consume whole 8-byte words only; a word split across segments waits for the next read.
            long usable = buffer.Length & ~7L;
            ReadOnlySequence<byte> words = buffer.Slice(0, usable);
            while (words.Length > 0)
            {
                int count = (int)Math.Min(words.Length / 8, expected.Length);
                Span<ulong> want = expected.AsSpan(0, count);
                Span<ulong> have = got.AsSpan(0, count);
                words.Slice(0, count * 8L).CopyTo(MemoryMarshal.AsBytes(have));
                generator.Fill(want);
                if (firstMismatch < 0 && !have.SequenceEqual(want))
                {
                    firstMismatch = received + MemoryMarshal.AsBytes(have).CommonPrefixLength(MemoryMarshal.AsBytes(want));
                }

                checksum = Checksum.Fold(checksum, have);
                received += count * 8L;
                words = words.Slice(count * 8L);
            }

            // The buffer must not be touched after AdvanceTo: its segments may already be back in the pool.
            bool partialWordLeft = buffer.Length != usable;
            reader.AdvanceTo(buffer.GetPosition(usable), buffer.End);
            if (result.IsCompleted)
            {
                if (partialWordLeft)
                {
                    firstMismatch = firstMismatch < 0 ? received : firstMismatch;
                }

                break;
            }
        }

        await reader.CompleteAsync().ConfigureAwait(false);
        return (received, checksum, firstMismatch);
    }

    /// <summary>xorshift64*: a fast, deterministic stream of 64-bit words.</summary>
    private struct Stream64(ulong seed)
    {
        private ulong _state = seed;

        public void Fill(Span<ulong> words)
        {
            ulong x = _state;
            for (int i = 0; i < words.Length; i++)
            {
                x ^= x >> 12;
                x ^= x << 25;
                x ^= x >> 27;
                words[i] = x * 0x2545F4914F6CDD1DUL;
            }

            _state = x;
        }
    }

    /// <summary>A 64-bit multiply-rotate checksum over words (order-sensitive).</summary>
    private static class Checksum
    {
        public const ulong Seed = 0xCBF29CE484222325;

        public static ulong Fold(ulong checksum, ReadOnlySpan<ulong> words)
        {
            foreach (ulong word in words)
            {
                checksum = ulong.RotateLeft((checksum ^ word) * 0x100000001B3UL, 29);
            }

            return checksum;
        }
    }
}
