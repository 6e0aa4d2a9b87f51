using System.Threading;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Interleaved.Scenarios;

/// <summary>
/// Producer/consumer: the measuring thread rents <c>byte[4096]</c> arrays, writes one byte and hands each through a
/// bounded single-producer single-consumer ring (<see cref="SpscRing{T}"/>, allocation-free) to a consumer thread,
/// which returns them to the same pool. One operation is one array's trip; a batch ends when the consumer has
/// returned all of its arrays. <c>StripedArrayPool&lt;byte&gt;.Shared</c> against <c>ArrayPool&lt;byte&gt;.Shared</c>;
/// goal ≤ 0.70 and ours allocating no more per operation than the peer, every thread counted.
/// </summary>
/// <remarks>Each side has its own long-lived consumer thread, which blocks between batches so it leaves the core to the other side.</remarks>
public static class ProducerConsumerScenario
{
    public const int Length = 4096;
    public const int RingCapacity = 64;

    public static InterleavedScenario Create() =>
        new InterleavedScenario<HandOff<StripedBytes>, HandOff<SharedBytes>>(
            "producer/consumer byte[4096] vs ArrayPool.Shared",
            0.70,
            AllocationGoal.OursNoMoreThanPeer,
            () => new HandOff<StripedBytes>(new Pipe<StripedBytes>()),
            () => new HandOff<SharedBytes>(new Pipe<SharedBytes>()));

    private readonly struct HandOff<TPool>(Pipe<TPool> pipe) : IOperation, IDisposable
        where TPool : struct, IBytePool
    {
        public void Run(int count) => pipe.Produce(count);

        public void Dispose() => pipe.Dispose();
    }

    /// <summary>The ring and the consumer thread of one side.</summary>
    private sealed class Pipe<TPool> : IDisposable
        where TPool : struct, IBytePool
    {
        private readonly SpscRing<byte[]> _ring = new(RingCapacity);
        private readonly SemaphoreSlim _start = new(0);
        private readonly Thread _consumer;
        private int _batch;
        private int _returned;
        private bool _stopping;

        public Pipe()
        {
            _consumer = new Thread(Consume) { IsBackground = true, Name = "interleaved consumer" };
            _consumer.Start();
        }

        public void Produce(int count)
        {
            _batch = count;
            _returned = -1;
            _start.Release(); // a full fence: the consumer reads _batch and _returned after its Wait returns
            TPool pool = default;
            for (int i = 0; i < count; i++)
            {
                byte[] array = pool.Rent(Length);
                array[0] = 1;
                var full = default(SpinWait);
                while (!_ring.TryEnqueue(array))
                {
                    full.SpinOnce(sleep1Threshold: -1);
                }
            }

            var spinner = default(SpinWait);

            // Volatile: the consumer publishes the batch size once it has returned every array; wait for that.
            while (Volatile.Read(ref _returned) != count)
            {
                spinner.SpinOnce(sleep1Threshold: -1);
            }
        }

        public void Dispose()
        {
            _stopping = true;
            _start.Release();
            _consumer.Join();
            _start.Dispose();
        }

        private void Consume()
        {
            TPool pool = default;
            while (true)
            {
                _start.Wait();
                if (_stopping)
                {
                    return;
                }

                int batch = _batch;
                var spinner = default(SpinWait);
                for (int returned = 0; returned < batch;)
                {
                    if (_ring.TryDequeue(out byte[]? array))
                    {
                        pool.Release(array!);
                        returned++;
                        spinner = default;
                    }
                    else
                    {
                        spinner.SpinOnce(sleep1Threshold: -1);
                    }
                }

                // Volatile: tells the producer, spinning on it, that this batch's arrays are all back in the pool.
                Volatile.Write(ref _returned, batch);
            }
        }
    }
}
