using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.CodeFixVerifier<NativePool.Analyzers.RentScopedAnalyzer, NativePool.Analyzers.RentScopedCodeFixProvider>;

namespace NativePool.Analyzers.Tests;

public sealed class RentScopedCodeFixTests
{
    [Fact]
    public Task ATryFinallyAtTheEndOfItsBlockBecomesAUsingDeclaration() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, int n)
            {
                {|NP0007:byte[] buffer = pool.Rent(n);|}
                try
                {
                    buffer.AsSpan(0, n).Fill(1);
                    return buffer[0] + buffer.Length;
                }
                finally
                {
                    pool.Return(buffer);
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
                using var scope = pool.RentScoped(n);
                scope.Span.Fill(1);
                return scope.Array[0] + scope.Array.Length;
            }
        }
        """);

    [Fact]
    public Task ARentFromArrayPoolSharedBecomesAScopeOfStripedArrayPoolSharedWithItsUsing() => Verify.VerifyAsync(
        """
        using System;
        using System.Buffers;

        public class C
        {
            public int M(int n)
            {
                {|NP0007:byte[] buffer = ArrayPool<byte>.Shared.Rent(n);|}
                try
                {
                    buffer.AsSpan(0, n).Fill(1);
                    return buffer[0];
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
        using NativePool;

        public class C
        {
            public int M(int n)
            {
                using var scope = StripedArrayPool<byte>.Shared.RentScoped(n, clearOnReturn: true);
                scope.Span.Fill(1);
                return scope.Array[0];
            }
        }
        """);

    [Fact]
    public Task FixAllRewritesEveryRentOfTheDocument() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int First(StripedArrayPool<byte> pool, int n)
            {
                {|NP0007:byte[] buffer = pool.Rent(n);|}
                try
                {
                    return buffer.Length;
                }
                finally
                {
                    pool.Return(buffer);
                }
            }

            public int Second(StripedArrayPool<int> pool)
            {
                int total = 0;
                {|NP0007:int[] values = pool.Rent(8);|}
                try
                {
                    values[0] = 2;
                    total += values[0];
                }
                finally
                {
                    pool.Return(values);
                }

                return total;
            }
        }
        """,
        """
        using System;
        using NativePool;

        public class C
        {
            public int First(StripedArrayPool<byte> pool, int n)
            {
                using var scope = pool.RentScoped(n);
                return scope.Array.Length;
            }

            public int Second(StripedArrayPool<int> pool)
            {
                int total = 0;
                using (var scope = pool.RentScoped(8))
                {
                    scope.Array[0] = 2;
                    total += scope.Array[0];
                }

                return total;
            }
        }
        """);

    [Fact]
    public Task ATryFinallyFollowedByStatementsBecomesAUsingStatementThatClears() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            private readonly StripedArrayPool<char> _pool = StripedArrayPool<char>.Shared;

            public string M(int scope)
            {
                string text;
                {|NP0007:char[] chars = _pool.Rent(16);|}
                try
                {
                    chars[0] = 'a';
                    text = new string(chars, 0, 1);
                }
                finally
                {
                    _pool.Return(chars, clearArray: true);
                }

                return text + scope;
            }
        }
        """,
        """
        using System;
        using NativePool;

        public class C
        {
            private readonly StripedArrayPool<char> _pool = StripedArrayPool<char>.Shared;

            public string M(int scope)
            {
                string text;
                using (var scope2 = _pool.RentScoped(16, clearOnReturn: true))
                {
                    scope2.Array[0] = 'a';
                    text = new string(scope2.Array, 0, 1);
                }

                return text + scope;
            }
        }
        """);

    [Fact]
    public Task ATryWhoseLocalsWouldClashWithTheBlocksKeepsItsOwnBlock() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, int n)
            {
                for (int i = 0; i < n; i++)
                {
                    Console.WriteLine(i);
                }

                {|NP0007:byte[] buffer = pool.Rent(n);|}
                try
                {
                    int i = buffer.Length;
                    return i;
                }
                finally
                {
                    pool.Return(buffer);
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
                for (int i = 0; i < n; i++)
                {
                    Console.WriteLine(i);
                }

                using (var scope = pool.RentScoped(n))
                {
                    int i = scope.Array.Length;
                    return i;
                }
            }
        }
        """);

    [Fact]
    public Task APoolWithoutRentScopedOrAnArrayUsedAfterTheFinallyIsLeftAlone() => Verify.VerifyUntouchedAsync(
        """
        using System.Buffers;
        using NativePool;

        public class C
        {
            public int M(ArrayPool<byte> pool, StripedArrayPool<byte> striped)
            {
                byte[] first = pool.Rent(16);
                try
                {
                    first[0] = 1;
                }
                finally
                {
                    pool.Return(first);
                }

                byte[] second = striped.Rent(16);
                try
                {
                    second[0] = 1;
                }
                finally
                {
                    striped.Return(second);
                }

                return second.Length;
            }
        }
        """);
}
