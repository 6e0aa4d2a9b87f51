using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.CodeFixVerifier<NativePool.Analyzers.SharedArrayPoolAnalyzer, NativePool.Analyzers.SharedArrayPoolCodeFixProvider>;

namespace NativePool.Analyzers.Tests;

public sealed class SharedArrayPoolCodeFixTests
{
    [Fact]
    public Task TheSharedArrayPoolBecomesTheStripedOneAndTheUsingIsAdded() => Verify.VerifyAsync(
        """
        using System;
        using System.Buffers;

        public class C
        {
            public int M()
            {
                byte[] buffer = {|NP0006:ArrayPool<byte>.Shared|}.Rent(16);
                char[] chars = {|NP0006:System.Buffers.ArrayPool<char>.Shared|}.Rent(16);
                int length = buffer.Length + chars.Length;
                {|NP0006:ArrayPool<byte>.Shared|}.Return(buffer);
                {|NP0006:ArrayPool<char>.Shared|}.Return(chars);
                return length;
            }
        }
        """,
        """
        using System;
        using System.Buffers;
        using NativePool;

        public class C
        {
            public int M()
            {
                byte[] buffer = StripedArrayPool<byte>.Shared.Rent(16);
                char[] chars = StripedArrayPool<char>.Shared.Rent(16);
                int length = buffer.Length + chars.Length;
                StripedArrayPool<byte>.Shared.Return(buffer);
                StripedArrayPool<char>.Shared.Return(chars);
                return length;
            }
        }
        """);

    [Fact]
    public Task AnExistingUsingIsNotAddedTwice() => Verify.VerifyAsync(
        """
        using System.Buffers;
        using NativePool;

        public class C
        {
            private readonly ArrayPool<byte> _pool = {|NP0006:ArrayPool<byte>.Shared|};

            public ArrayPool<byte> Pool => _pool;
        }
        """,
        """
        using System.Buffers;
        using NativePool;

        public class C
        {
            private readonly ArrayPool<byte> _pool = StripedArrayPool<byte>.Shared;

            public ArrayPool<byte> Pool => _pool;
        }
        """);

    [Fact]
    public Task AnImplicitlyTypedLocalIsLeftAlone() => Verify.VerifyUntouchedAsync(
        """
        using System.Buffers;

        public class C
        {
            public void M()
            {
                var pool = ArrayPool<byte>.Shared;
                pool = ArrayPool<byte>.Create();
                pool.Return(pool.Rent(1));
            }
        }
        """);
}
