using System;
using System.Buffers;
using System.Text;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.ObjectPool;
using NativePool;

namespace TrimSmoke;

/// <summary>Runs every pool once through its public API and prints one line when all of them behaved.</summary>
internal static class Program
{
    private static int Main()
    {
        int checks = 0;

        // Array pool: Shared, an instance, a scoped lease, statistics.
        byte[] array = StripedArrayPool<byte>.Shared.Rent(4096);
        StripedArrayPool<byte>.Shared.Return(array);
        checks += Check(StripedArrayPool<byte>.Shared.Rent(4096) == array, "the shared array pool hands back the returned array");
        StripedArrayPool<char> chars = StripedArrayPool<char>.Create(new StripedArrayPoolOptions { MaximumArrayLength = 1024 });
        using (ArrayLease<char> lease = chars.RentLease(100))
        {
            checks += Check(lease.Span.Length == 100, "a scoped lease spans the asked length");
        }

        checks += Check(chars.GetStatistics().IsConserved, "the array pool's statistics add up");
        ArrayPool<int> asBase = StripedArrayPool<int>.Shared;
        int[] ints = asBase.Rent(10);
        asBase.Return(ints);

        // Memory pool.
        using (IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(1000))
        {
            checks += Check(owner.Memory.Length >= 1000, "the memory pool's owner is long enough");
        }

        // Object pool, directly and through dependency injection.
        var builders = new StripedObjectPool<StringBuilder>(new StringBuilderPooledObjectPolicy(), maximumRetained: 8);
        StringBuilder builder = builders.Get();
        builders.Return(builder);
        checks += Check(builders.Get() == builder, "the object pool hands back the returned object");
        // The registrations from configuration bind through the binder's generated code, which trimming must keep.
        IConfiguration configuration = new ConfigurationBuilder()
            .AddInMemoryCollection([new("ArrayPools:io:MaximumArrayLength", "4096"), new("Streams:BlockSize", "8192"), new("Pools:Parser:MaximumRetained", "16")])
            .Build();
        var services = new ServiceCollection();
        services.AddStripedObjectPools();
        services.AddStripedPooled<Parser>(configuration.GetSection("Pools:Parser"));
        services.AddStripedArrayPool<byte>("io", configuration.GetSection("ArrayPools:io"));
        services.AddPooledStreamManager(configuration.GetSection("Streams"));
        using (ServiceProvider provider = services.BuildServiceProvider())
        {
            ObjectPool<StringBuilder> fromProvider = provider.GetRequiredService<ObjectPoolProvider>().CreateStringBuilderPool();
            checks += Check(fromProvider.Get() is not null, "the provider's pool creates objects");
            checks += Check(provider.GetRequiredService<ObjectPool<Parser>>().Get() is not null, "a pooled service is created");
            checks += Check(provider.GetRequiredService<StripedObjectPool<Parser>>().MaximumRetained == 16, "a pooled service's bound comes from configuration");
            checks += Check(provider.GetRequiredKeyedService<StripedArrayPool<byte>>("io").MaximumArrayLength == 4096, "a keyed array pool's options come from configuration");
            checks += Check(provider.GetRequiredService<PooledStreamManager>().BlockSize == 8192, "the stream manager's options come from configuration");
        }

        // Native blocks and structs.
        using (NativeBlockPool blocks = NativeBlockPool.Create())
        {
            using NativeBlockLease block = blocks.Rent(1 << 16);
            block.Span.Fill(7);
            checks += Check(block.Span[^1] == 7, "a native block is writable");
        }

        using (NativeStructPool<Point> points = NativeStructPool<Point>.Create())
        {
            using NativeStructLease<Point> point = points.Rent();
            point.Value.X = 3;
            point.Value.Y = 4;
            checks += Check(point.Span[0].X * point.Span[0].Y == 12, "a native struct lease holds a writable struct");
        }

        Console.WriteLine($"TrimSmoke: {checks} checks passed");
        return 0;
    }

    private static int Check(bool condition, string what) =>
        condition ? 1 : throw new InvalidOperationException($"Failed: {what}.");

    private sealed class Parser
    {
    }

    private struct Point
    {
        public int X;
        public int Y;
    }
}
