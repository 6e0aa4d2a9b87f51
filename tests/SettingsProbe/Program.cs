using System;
using System.Buffers;
using NativePool;

namespace SettingsProbe;

/// <summary>
/// Uses each pool twice, the way an app would, and prints one line per use: <c>name: ok</c>, or
/// <c>name: ExceptionType: message</c>. Exit code 0 whatever the pools did: the test reads the lines.
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        if (args is ["--guarded-switch"])
        {
            // Set in code before the first pool, as the docs say the AppContext switch may be.
            AppContext.SetSwitch("NativePool.Guarded", true);
            Console.WriteLine($"create-array-tracking: {StripedArrayPool<byte>.Create().IsTracking}");
            return 0;
        }

        for (int use = 1; use <= 2; use++)
        {
            Probe($"create-array-{use}", () =>
            {
                StripedArrayPool<byte> pool = StripedArrayPool<byte>.Create();
                pool.Return(pool.Rent(4096));
            });
            Probe($"shared-array-{use}", () => StripedArrayPool<byte>.Shared.Return(StripedArrayPool<byte>.Shared.Rent(4096)));
            Probe($"shared-memory-{use}", () => StripedMemoryPool<byte>.Shared.Rent(4096).Dispose());
            Probe($"shared-native-block-{use}", () => NativeBlockPool.Shared.Rent(4096).Dispose());
            Probe($"shared-native-struct-{use}", () => NativeStructPool<long>.Shared.Rent().Dispose());
            Probe($"shared-streams-{use}", () => PooledStreamManager.Shared.GetStream().Dispose());
            Probe($"shared-streams-write-{use}", () => WriteAndDispose(PooledStreamManager.Shared.GetStream()));
            Probe($"create-streams-write-{use}", () => WriteAndDispose(PooledStreamManager.Create().GetStream()));
            Probe($"writer-over-create-{use}", () =>
            {
                using var writer = new PooledBufferWriter<byte>(StripedArrayPool<byte>.Create(), 16);
                writer.Write(new byte[100]);
            });
            Probe($"writer-over-shared-{use}", () =>
            {
                using var writer = new PooledBufferWriter<byte>();
                writer.Write(new byte[100]);
            });
            Probe($"metrics-{use}", () => _ = NativePoolMetrics.DefaultMeter.Name);
            Probe($"shared-array-statistics-{use}", () => _ = StripedArrayPool<byte>.Shared.GetStatistics());
        }

        return 0;
    }

    private static void WriteAndDispose(System.IO.Stream stream)
    {
        stream.Write(new byte[200_000]);
        stream.WriteByte(1);
        stream.Dispose();
    }

    private static void Probe(string name, Action use)
    {
        try
        {
            use();
            Console.WriteLine($"{name}: ok");
        }
#pragma warning disable CA1031 // The probe reports whatever the use threw; the test judges it.
        catch (Exception e)
#pragma warning restore CA1031
        {
            Console.WriteLine($"{name}: {e.GetType().Name}: {e.Message.ReplaceLineEndings(" ")}");
        }
    }
}
