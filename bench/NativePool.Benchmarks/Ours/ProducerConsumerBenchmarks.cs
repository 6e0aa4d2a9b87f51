using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Ours;

/// <summary>
/// Producer/consumer: the benchmark thread rents 4 KiB arrays and writes them into a bounded channel (capacity 32); a
/// consumer loop on the thread pool reads them and returns them to the same pool. So every array is rented on one thread
/// and returned on another, the pattern of pipelines and socket loops. The measured operation is one array's trip;
/// an invocation ends when the consumer has returned every array of it. Baseline: <c>ArrayPool&lt;byte&gt;.Shared</c>.
/// </summary>
/// <remarks>
/// The producer spins (yielding, never sleeping) while the channel is full, so neither side allocates. The channel's
/// own lock is shared by both peers; the Lock Contentions and Completed Work Items columns (recorded by the benchmark)
/// show the synchronization each run needed.
/// </remarks>
[MemoryDiagnoser]
[EvaluateOverhead(false)] // operations of 100 ns and more: the ~1 ns call overhead is noise, and measuring it would double the run time
[BenchmarkCategory("Ours", "ProducerConsumer")]
public class ProducerConsumerBenchmarks
{
    public const int ItemsPerInvocation = 256;
    public const int Size = 4096;
    public const int ChannelCapacity = 32;

    private readonly ThreadingCounters _counters = new();
    private Channel<byte[]> _channel = null!;
    private Task _consumer = Task.CompletedTask;
    private string _target = string.Empty;
    private long _produced;
    private long _consumed;

    [GlobalSetup(Target = nameof(ArrayPoolShared))]
    public void SetupArrayPoolShared() => Begin(nameof(ArrayPoolShared), ArrayPool<byte>.Shared);

    [GlobalSetup(Target = nameof(Striped))]
    public void SetupStriped() => Begin(nameof(Striped), StripedArrayPool<byte>.Shared);

    [GlobalCleanup]
    public void Cleanup()
    {
        _channel.Writer.Complete();
        _consumer.GetAwaiter().GetResult();
        _counters.Stop(CounterStore.Key(nameof(ProducerConsumerBenchmarks), _target, []));
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = ItemsPerInvocation, Description = PeerNames.ArrayPoolShared)]
    public void ArrayPoolShared()
    {
        ChannelWriter<byte[]> writer = _channel.Writer;
        for (int i = 0; i < ItemsPerInvocation; i++)
        {
            Write(writer, ArrayPool<byte>.Shared.Rent(Size));
        }

        AwaitConsumer();
    }

    [Benchmark(OperationsPerInvoke = ItemsPerInvocation, Description = PeerNames.StripedArrayPool)]
    public void Striped()
    {
        ChannelWriter<byte[]> writer = _channel.Writer;
        for (int i = 0; i < ItemsPerInvocation; i++)
        {
            Write(writer, StripedArrayPool<byte>.Shared.Rent(Size));
        }

        AwaitConsumer();
    }

    private void Begin(string target, ArrayPool<byte> pool)
    {
        _target = target;
        _channel = Channel.CreateBounded<byte[]>(new BoundedChannelOptions(ChannelCapacity)
        {
            SingleReader = true,
            SingleWriter = true,
            FullMode = BoundedChannelFullMode.Wait,
        });
        _consumer = Task.Run(() => ConsumeAsync(_channel.Reader, pool));
        _counters.Start();
    }

    private void Write(ChannelWriter<byte[]> writer, byte[] array)
    {
        array[0] = 1;
        if (!writer.TryWrite(array))
        {
            WriteWhenRoom(writer, array);
        }

        _produced++;
    }

    private static void WriteWhenRoom(ChannelWriter<byte[]> writer, byte[] array)
    {
        var spinner = default(SpinWait);
        while (!writer.TryWrite(array))
        {
            spinner.SpinOnce(sleep1Threshold: -1);
        }
    }

    private void AwaitConsumer()
    {
        var spinner = default(SpinWait);

        // Volatile: the consumer publishes its count after each return; wait until it has returned this invocation's arrays.
        while (Volatile.Read(ref _consumed) != _produced)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
        }

        _counters.Count();
    }

    private async Task ConsumeAsync(ChannelReader<byte[]> reader, ArrayPool<byte> pool)
    {
        while (await reader.WaitToReadAsync().ConfigureAwait(false))
        {
            while (reader.TryRead(out byte[]? array))
            {
                pool.Return(array);

                // Publishes the count to the producer, which waits for it; only this loop writes it.
                Volatile.Write(ref _consumed, _consumed + 1);
            }
        }
    }
}
