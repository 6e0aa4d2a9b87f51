using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.CodeFixVerifier<NativePool.Analyzers.RentScopedAnalyzer, NativePool.Analyzers.RentScopedCodeFixProvider>;

namespace NativePool.Analyzers.Tests;

public sealed class RentWithoutFinallyCodeFixTests
{
    [Fact]
    public Task RentUseReturnWithoutFinallyBecomesAScope() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, int n)
            {
                {|NP0014:byte[] buffer = pool.Rent(n);|}
                buffer.AsSpan(0, n).Fill(2);
                int sum = buffer[0] + buffer[n - 1];

                pool.Return(buffer);
                return sum;
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
                scope.Span.Fill(2);
                int sum = scope.Array[0] + scope.Array[n - 1];

                return sum;
            }
        }
        """,
        title: "Use RentScoped (the array now also goes back to the pool when the code before its return throws)");

    [Fact]
    public Task ARentFromArrayPoolSharedWithoutFinallyBecomesAScopeOfStripedArrayPoolSharedThatClears() => Verify.VerifyAsync(
        """
        using System.Buffers;
        using System.IO;

        public class C
        {
            public void M(Stream stream, int n)
            {
                {|NP0014:var chunk = ArrayPool<byte>.Shared.Rent(n);|}
                int read = stream.Read(chunk, 0, n);
                stream.Write(chunk, 0, read);
                ArrayPool<byte>.Shared.Return(chunk, clearArray: true);
            }
        }
        """,
        """
        using System.Buffers;
        using System.IO;
        using NativePool;

        public class C
        {
            public void M(Stream stream, int n)
            {
                using var scope = StripedArrayPool<byte>.Shared.RentScoped(n, clearOnReturn: true);
                int read = stream.Read(scope.Array, 0, n);
                stream.Write(scope.Array, 0, read);
            }
        }
        """);

    [Fact]
    public Task StatementsAfterTheReturnKeepItsPlaceWithAUsingStatement() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<int> pool, int n)
            {
                int total = 0;
                {|NP0014:int[] values = pool.Rent(n);|}
                values[0] = n;
                total += values[0];
                pool.Return(values);
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
                using (var scope = pool.RentScoped(n))
                {
                    scope.Array[0] = n;
                    total += scope.Array[0];
                }

                Console.WriteLine(total);
                return total;
            }
        }
        """);

    [Fact]
    public Task ALocalDeclaredBeforeTheReturnAndReadAfterItKeepsAUsingDeclaration() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public string M(StripedArrayPool<char> pool, int n)
            {
                {|NP0014:char[] chars = pool.Rent(n);|}
                chars.AsSpan(0, n).Fill('x');
                string text = new string(chars, 0, n);
                pool.Return(chars);
                Console.WriteLine(text);
                return text;
            }
        }
        """,
        """
        using System;
        using NativePool;

        public class C
        {
            public string M(StripedArrayPool<char> pool, int n)
            {
                using var scope = pool.RentScoped(n);
                scope.Span.Fill('x');
                string text = new string(scope.Array, 0, n);
                Console.WriteLine(text);
                return text;
            }
        }
        """);

    [Fact]
    public Task FixAllRewritesNestedRentsOfOneBlock() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            public int M(StripedArrayPool<byte> pool, int n)
            {
                {|NP0014:byte[] outer = pool.Rent(n);|}
                {|NP0014:byte[] inner = pool.Rent(n);|}
                outer.AsSpan(0, n).CopyTo(inner);
                int first = inner[0];
                pool.Return(inner);
                pool.Return(outer);
                return first;
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
                using var scope2 = pool.RentScoped(n);
                scope.Span.CopyTo(scope2.Array);
                int first = scope2.Array[0];
                return first;
            }
        }
        """);

    [Theory]
    [InlineData("_kept = buffer;")]
    [InlineData("box.Data = buffer;")]
    [InlineData("arrays[0] = buffer;")]
    [InlineData("Fill(ref buffer);")]
    [InlineData("Take(out buffer);")]
    [InlineData("Func<int> read = () => buffer.Length; s_read = read;")]
    [InlineData("byte[] alias = buffer; _kept = alias;")]
    [InlineData("Memory<byte> memory = buffer.AsMemory(); s_memory = memory;")]
    [InlineData("list.Add(buffer);")]
    [InlineData("Keep(buffer);")]
    [InlineData("var segment = new ArraySegment<byte>(buffer); s_segment = segment;")]
    [InlineData("if (n > 4) { return; }")]
    [InlineData("if (n > 4) { pool.Return(buffer); }")]
    [InlineData("buffer = new byte[4];")]
    public Task AnArrayThatEscapesOrLeavesEarlyIsLeftAlone(string statement) => Verify.VerifyUntouchedAsync($$"""
        using System;
        using System.Collections.Generic;
        using NativePool;

        public class Box
        {
            public byte[]? Data;
        }

        public class C
        {
            private static Func<int>? s_read;
            private static Memory<byte> s_memory;
            private static ArraySegment<byte> s_segment;
            private byte[]? _kept;

            public void M(StripedArrayPool<byte> pool, Box box, byte[][] arrays, List<byte[]> list, int n)
            {
                byte[] buffer = pool.Rent(n);
                buffer[0] = 1;
                {{statement}}
                pool.Return(buffer);
            }

            private static void Fill(ref byte[] array) => array[0] = 2;

            private static void Take(out byte[] array) => array = new byte[1];

            private static void Keep(object value) => GC.KeepAlive(value);
        }
        """);

    [Theory]
    [InlineData("pool.Return(buffer);\n        Console.WriteLine(buffer.Length);")]
    [InlineData("byte[] alias = buffer;\n        pool.Return(buffer);\n        Console.WriteLine(alias[0]);")]
    [InlineData("if (n > 2)\n        {\n            pool.Return(buffer);\n        }")]
    [InlineData("pool.Return(buffer);\n        pool.Return(buffer);")]
    public Task AReturnThatIsConditionalOrNotTheLastUseIsLeftAlone(string ending) => Verify.VerifyUntouchedAsync($$"""
        using System;
        using NativePool;

        public class C
        {
            public void M(StripedArrayPool<byte> pool, int n)
            {
                byte[] buffer = pool.Rent(n);
                buffer[0] = 1;
                {{ending}}
            }
        }
        """);

    [Fact]
    public Task APoolWithoutScopesAnAsyncMethodAndAnEmptyRangeAreLeftAlone() => Verify.VerifyUntouchedAsync(
        """
        using System.Buffers;
        using System.Threading.Tasks;
        using NativePool;

        public class C
        {
            public void M(ArrayPool<byte> pool, StripedArrayPool<byte> striped)
            {
                byte[] first = pool.Rent(16);
                first[0] = 1;
                pool.Return(first);

                byte[] second = striped.Rent(16);
                striped.Return(second);
            }

            public async Task<int> N(StripedArrayPool<byte> striped)
            {
                byte[] buffer = striped.Rent(16);
                buffer[0] = 1;
                striped.Return(buffer);
                await Task.Yield();
                return 1;
            }
        }
        """);
}
