using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.CodeFixVerifier<NativePool.Analyzers.RentScopedAnalyzer, NativePool.Analyzers.RentScopedCodeFixProvider>;

namespace NativePool.Analyzers.Tests;

/// <summary>NP0016: a rent held across an await becomes a lease; no scope is offered there, where one would not compile.</summary>
public sealed class RentLeaseCodeFixTests
{
    private const string Title = "Use RentLease (where the return had no finally, the array now also goes back to the pool when the code before it throws)";

    [Fact]
    public Task ARentReturnedInAFinallyAcrossAnAwaitBecomesALeaseAndKeepsOtherSlicesOnItsArray() => Verify.VerifyAsync(
        """
        using System;
        using System.Buffers;
        using System.IO;
        using System.Threading.Tasks;

        public class C
        {
            public async Task<int> M(Stream source, Stream destination, int n)
            {
                {|NP0016:byte[] buffer = ArrayPool<byte>.Shared.Rent(n);|}
                try
                {
                    int read = await source.ReadAsync(buffer.AsMemory(0, n));
                    await destination.WriteAsync(buffer.AsMemory(0, read)).ConfigureAwait(false);
                    return read + buffer[0];
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer, clearArray: true);
                }
            }
        }
        """,
        """
        using System;
        using System.Buffers;
        using System.IO;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            public async Task<int> M(Stream source, Stream destination, int n)
            {
                using var lease = StripedArrayPool<byte>.Shared.RentLease(n, clearOnReturn: true);
                int read = await source.ReadAsync(lease.Memory);
                await destination.WriteAsync(lease.Array.AsMemory(0, read)).ConfigureAwait(false);
                return read + lease.Array[0];
            }
        }
        """,
        title: Title);

    [Fact]
    public Task TheDocumentedStreamCopyBecomesWhatTheDocsShow() => Verify.VerifyAsync(
        """
        using System;
        using System.Buffers;
        using System.IO;
        using System.Threading.Tasks;

        public static class C
        {
            public static async Task<long> CopyAsync(Stream source, Stream destination)
            {
                {|NP0016:byte[] buffer = ArrayPool<byte>.Shared.Rent(4096);|}
                try
                {
                    long total = 0;
                    int read;
                    while ((read = await source.ReadAsync(buffer.AsMemory(0, 4096))) != 0)
                    {
                        await destination.WriteAsync(buffer.AsMemory(0, read));
                        total += read;
                    }

                    return total;
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }
        }
        """,
        """
        using System;
        using System.Buffers;
        using System.IO;
        using System.Threading.Tasks;
        using NativePool;

        public static class C
        {
            public static async Task<long> CopyAsync(Stream source, Stream destination)
            {
                using var lease = StripedArrayPool<byte>.Shared.RentLease(4096);
                long total = 0;
                int read;
                while ((read = await source.ReadAsync(lease.Memory)) != 0)
                {
                    await destination.WriteAsync(lease.Array.AsMemory(0, read));
                    total += read;
                }

                return total;
            }
        }
        """);

    [Fact]
    public Task ARentReturnedWithoutFinallyAcrossAnAwaitBecomesALease() => Verify.VerifyAsync(
        """
        using System;
        using System.IO;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            public async Task<long> M(StripedArrayPool<byte> pool, Stream stream)
            {
                long total = 0;
                {|NP0016:byte[] chunk = pool.Rent(4096);|}
                int read;
                while ((read = await stream.ReadAsync(chunk, 0, chunk.Length)) > 0)
                {
                    total += read;
                }

                pool.Return(chunk);
                Console.WriteLine(total);
                return total;
            }
        }
        """,
        """
        using System;
        using System.IO;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            public async Task<long> M(StripedArrayPool<byte> pool, Stream stream)
            {
                long total = 0;
                using (var lease = pool.RentLease(4096))
                {
                    int read;
                    while ((read = await stream.ReadAsync(lease.Array, 0, lease.Array.Length)) > 0)
                    {
                        total += read;
                    }
                }

                Console.WriteLine(total);
                return total;
            }
        }
        """,
        title: Title);

    [Fact]
    public Task AnAsyncLambdaAndAnAsyncLocalFunctionGetALeaseNotAScope() => Verify.VerifyAsync(
        """
        using System;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            public Func<Task<int>> M(StripedArrayPool<byte> pool)
            {
                return async () =>
                {
                    {|NP0016:byte[] buffer = pool.Rent(16);|}
                    try
                    {
                        await Task.Yield();
                        return buffer.Length;
                    }
                    finally
                    {
                        pool.Return(buffer);
                    }
                };
            }

            public Task<int> N(StripedArrayPool<byte> pool)
            {
                return Local();

                async Task<int> Local()
                {
                    {|NP0016:byte[] buffer = pool.Rent(16);|}
                    await Task.Yield();
                    buffer[0] = 3;
                    pool.Return(buffer);
                    return 1;
                }
            }
        }
        """,
        """
        using System;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            public Func<Task<int>> M(StripedArrayPool<byte> pool)
            {
                return async () =>
                {
                    using var lease = pool.RentLease(16);
                    await Task.Yield();
                    return lease.Array.Length;
                };
            }

            public Task<int> N(StripedArrayPool<byte> pool)
            {
                return Local();

                async Task<int> Local()
                {
                    using var lease = pool.RentLease(16);
                    await Task.Yield();
                    lease.Array[0] = 3;
                    return 1;
                }
            }
        }
        """);

    [Theory]
    [InlineData("return buffer;")]
    [InlineData("_kept = buffer;")]
    [InlineData("_ = stream.WriteAsync(buffer.AsMemory(0, 8));")]
    [InlineData("Task pending = stream.WriteAsync(buffer, 0, 8); await pending;")]
    [InlineData("Func<int> read = () => buffer[0]; read();")]
    [InlineData("Keep(out buffer);")]
    [InlineData("Hold(buffer.AsMemory());")]
    public Task AnArrayThatEscapesOrATaskNotAwaitedWhereItIsMadeIsLeftAlone(string statement) => Verify.VerifyUntouchedAsync($$"""
        using System;
        using System.IO;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            private byte[]? _kept;
            private Memory<byte> _memory;

            public async Task<byte[]?> M(StripedArrayPool<byte> pool, Stream stream)
            {
                byte[] buffer = pool.Rent(16);
                try
                {
                    await stream.ReadAsync(buffer, 0, 16);
                    {{statement}}
                }
                finally
                {
                    pool.Return(buffer);
                }

                return null;
            }

            public async Task<byte[]?> N(StripedArrayPool<byte> pool, Stream stream)
            {
                byte[] buffer = pool.Rent(16);
                await stream.ReadAsync(buffer, 0, 16);
                {{statement}}
                pool.Return(buffer);
                return null;
            }

            private static void Keep(out byte[] array) => array = [];

            private void Hold(Memory<byte> memory) => _memory = memory;
        }
        """);

    [Fact]
    public Task NoAwaitBetweenTheRentAndTheReturnAnAsyncIteratorAndAPoolWithoutLeasesAreLeftAlone() => Verify.VerifyUntouchedAsync(
        """
        using System.Buffers;
        using System.Collections.Generic;
        using System.IO;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            public async Task<int> M(StripedArrayPool<byte> pool, ArrayPool<byte> other, Stream stream)
            {
                byte[] early = pool.Rent(16);
                early[0] = 1;
                pool.Return(early);
                await Task.Yield();

                byte[] unscoped = other.Rent(16);
                try
                {
                    return await stream.ReadAsync(unscoped, 0, 16);
                }
                finally
                {
                    other.Return(unscoped);
                }
            }

            public async IAsyncEnumerable<int> N(StripedArrayPool<byte> pool, Stream stream)
            {
                byte[] buffer = pool.Rent(16);
                try
                {
                    yield return await stream.ReadAsync(buffer, 0, 16);
                }
                finally
                {
                    pool.Return(buffer);
                }
            }
        }
        """);
}
