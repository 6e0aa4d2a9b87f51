using System.IO.Pipelines;
using System.Threading.Tasks;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// An application-level copy loop: 64 KiB written to a <see cref="Pipe"/> in 4 KiB writes and read back to the end, on
/// one thread (the pipe's continuations run inline), with <c>PipeOptions.Pool</c> = a <c>StripedMemoryPool&lt;byte&gt;</c>
/// made for pipes as the documentation advises (<c>ReuseOwners = true</c>: a pipe disposes each owner exactly once, so
/// no per-rent handle is needed) against the pipe's default pool (<c>MemoryPool&lt;byte&gt;.Shared</c>, which a pipe
/// bypasses for <c>ArrayPool&lt;byte&gt;.Shared</c> arrays without owner objects). One operation is one 64 KiB message
/// through a fresh pipe. Goal: never slower (≤ 1.00), and ours allocates no more.
/// </summary>
public static class PipeCopyScenario
{
    public const int MessageBytes = 64 * 1024;

    public const int WriteBytes = 4096;

    private static readonly StripedMemoryPool<byte> s_pipePool = StripedMemoryPool<byte>.Create(new StripedMemoryPoolOptions { ReuseOwners = true });

    public static InterleavedScenario Create() =>
        new InterleavedScenario<Copy, Copy>(
            "app: Pipe 64 KiB copy, StripedMemoryPool vs default pool",
            1.00,
            AllocationGoal.OursNoMoreThanPeer,
            () => new Copy(s_pipePool),
            () => new Copy(MemoryPool<byte>.Shared));

    private readonly struct Copy(MemoryPool<byte> pool) : IOperation
    {
        private readonly PipeOptions _options = new(
            pool,
            readerScheduler: PipeScheduler.Inline,
            writerScheduler: PipeScheduler.Inline,
            pauseWriterThreshold: 0,
            minimumSegmentSize: WriteBytes,
            useSynchronizationContext: false);

        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                CopyOnce(new Pipe(_options));
            }
        }

        private static void CopyOnce(Pipe pipe)
        {
            PipeWriter writer = pipe.Writer;
            for (int written = 0; written < MessageBytes; written += WriteBytes)
            {
                writer.GetSpan(WriteBytes)[..WriteBytes].Fill((byte)written);
                writer.Advance(WriteBytes);
                ValueTask<FlushResult> flush = writer.FlushAsync();
                if (!flush.IsCompletedSuccessfully)
                {
                    flush.AsTask().GetAwaiter().GetResult();
                }
            }

            writer.Complete();
            PipeReader reader = pipe.Reader;
            long read = 0;
            while (true)
            {
                ValueTask<ReadResult> pending = reader.ReadAsync();
                ReadResult result = pending.IsCompletedSuccessfully ? pending.Result : pending.AsTask().GetAwaiter().GetResult();
                read += result.Buffer.Length;
                reader.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                {
                    break;
                }
            }

            reader.Complete();
            if (read != MessageBytes)
            {
                throw new InvalidOperationException($"The pipe carried {read} bytes, not {MessageBytes}.");
            }
        }
    }
}
