using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.CodeFixVerifier<NativePool.Analyzers.RentScopedAnalyzer, NativePool.Analyzers.RentScopedCodeFixProvider>;

namespace NativePool.Analyzers.Tests;

public sealed class StackallocOrRentCodeFixTests
{
    [Fact]
    public Task StackallocOrRentBecomesAScopeThatIsDefaultBesideTheStackalloc() => Verify.VerifyAsync(
        """
        using System;
        using System.Text;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, string text)
            {
                {|NP0015:byte[]? rented = null;|}
                Span<byte> bytes = text.Length <= 128 ? stackalloc byte[128] : (rented = pool.Rent(text.Length));
                int count = Encoding.ASCII.GetBytes(text, bytes);
                int sum = bytes[0] + count;

                if (rented != null)
                {
                    pool.Return(rented);
                }

                return sum;
            }
        }
        """,
        """
        using System;
        using System.Text;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, string text)
            {
                using var scope = text.Length <= 128 ? default : pool.RentScoped(text.Length);
                Span<byte> bytes = text.Length <= 128 ? stackalloc byte[128] : scope.Span;
                int count = Encoding.ASCII.GetBytes(text, bytes);
                int sum = bytes[0] + count;

                return sum;
            }
        }
        """,
        title: "Use a RentScoped scope, default beside the stackalloc");

    [Fact]
    public Task AStackallocOrRentFromArrayPoolSharedInATryKeepsItsSlicingAndClears() => Verify.VerifyAsync(
        """
        using System;
        using System.Buffers;

        public class C
        {
            public string M(int value, int n)
            {
                char[]? rented = null;
                {|NP0015:char[]? toReturn = null;|}
                try
                {
                    Span<char> chars = (n > 64 ? (toReturn = ArrayPool<char>.Shared.Rent(n)) : stackalloc char[64]).Slice(0, n);
                    value.TryFormat(chars, out int written);
                    return chars.Slice(0, written).ToString();
                }
                finally
                {
                    if (toReturn is not null)
                    {
                        ArrayPool<char>.Shared.Return(toReturn, clearArray: true);
                    }
                }
            }
        }
        """,
        """
        using System;
        using System.Buffers;
        using NativePool;

        public class C
        {
            public string M(int value, int n)
            {
                char[]? rented = null;
                using var scope = n > 64 ? StripedArrayPool<char>.Shared.RentScoped(n, clearOnReturn: true) : default;
                Span<char> chars = (n > 64 ? scope.Span : stackalloc char[64]).Slice(0, n);
                value.TryFormat(chars, out int written);
                return chars.Slice(0, written).ToString();
            }
        }
        """);

    [Fact]
    public Task ASpanDeclaredBeforeATryFollowedByStatementsBecomesAUsingStatement() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<int> pool, int n)
            {
                int total = 0;
                {|NP0015:int[]? rented = null;|}
                Span<int> values = n <= 16 ? stackalloc int[16] : (rented = pool.Rent(n));
                try
                {
                    values.Fill(1);
                    total = values[0];
                }
                finally
                {
                    if (rented != null) pool.Return(rented);
                }

                Console.WriteLine(total);
                return total;
            }
        }
        """,
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<int> pool, int n)
            {
                int total = 0;
                using (var scope = n <= 16 ? default : pool.RentScoped(n))
                {
                    Span<int> values = n <= 16 ? stackalloc int[16] : scope.Span;
                    values.Fill(1);
                    total = values[0];
                }

                Console.WriteLine(total);
                return total;
            }
        }
        """);

    [Fact]
    public Task StatementsBeforeTheSpanInTheTryStayBeforeTheScope() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, int n)
            {
                {|NP0015:byte[]? rented = null;|}
                try
                {
                    int length = n * 2;
                    Span<byte> bytes = length <= 256 ? stackalloc byte[256] : (rented = pool.Rent(length));
                    bytes.Fill(3);
                    return bytes[0];
                }
                finally
                {
                    if (rented != null) pool.Return(rented);
                }
            }
        }
        """,
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, int n)
            {
                int length = n * 2;
                using var scope = length <= 256 ? default : pool.RentScoped(length);
                Span<byte> bytes = length <= 256 ? stackalloc byte[256] : scope.Span;
                bytes.Fill(3);
                return bytes[0];
            }
        }
        """);

    [Fact]
    public Task ARangeSliceAroundTheChoiceStays() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<char> pool, int n)
            {
                {|NP0015:char[]? rented = null;|}
                Span<char> chars = (n <= 32 ? stackalloc char[32] : (rented = pool.Rent(n)))[..n];
                chars.Fill('a');
                int length = chars.Length;
                if (rented is not null) pool.Return(rented);
                return length;
            }
        }
        """,
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<char> pool, int n)
            {
                using var scope = n <= 32 ? default : pool.RentScoped(n);
                Span<char> chars = (n <= 32 ? stackalloc char[32] : scope.Span)[..n];
                chars.Fill('a');
                int length = chars.Length;
                return length;
            }
        }
        """);

    [Theory]
    [InlineData("Console.WriteLine(rented?.Length);")]
    [InlineData("_kept = rented;")]
    [InlineData("if (n > 4) { return; }")]
    public Task ARentedArrayUsedOtherwiseOrLeftEarlyIsLeftAlone(string statement) => Verify.VerifyUntouchedAsync($$"""
        using System;
        using NativePool;

        public class C
        {
            private byte[]? _kept;

            public void M(StripedArrayPool<byte> pool, int n)
            {
                byte[]? rented = null;
                Span<byte> bytes = n <= 64 ? stackalloc byte[64] : (rented = pool.Rent(n));
                bytes.Fill(1);
                {{statement}}
                if (rented != null)
                {
                    pool.Return(rented);
                }
            }
        }
        """);

    [Fact]
    public Task AConditionWithACallOrASpanUsedAfterTheReturnIsLeftAlone() => Verify.VerifyUntouchedAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public void M(StripedArrayPool<byte> pool, int n)
            {
                byte[]? rented = null;
                Span<byte> bytes = n <= Limit() ? stackalloc byte[64] : (rented = pool.Rent(n));
                bytes.Fill(1);
                if (rented != null)
                {
                    pool.Return(rented);
                }
            }

            public void N(StripedArrayPool<byte> pool, int n)
            {
                byte[]? rented = null;
                Span<byte> bytes = n <= 64 ? stackalloc byte[64] : (rented = pool.Rent(n));
                bytes.Fill(1);
                if (rented != null)
                {
                    pool.Return(rented);
                }

                bytes.Clear();
            }

            private static int Limit() => 64;
        }
        """);
}
