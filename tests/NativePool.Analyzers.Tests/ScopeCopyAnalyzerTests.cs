using System.Threading.Tasks;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.AnalyzerVerifier<NativePool.Analyzers.ScopeCopyAnalyzer>;

namespace NativePool.Analyzers.Tests;

/// <summary>
/// NP0012: every copy of an <c>ArrayScope&lt;T&gt;</c> or <c>ObjectScope&lt;T&gt;</c> is an error (two copies would
/// return one item twice, and the default build's scopes do not check), and nothing else about a scope is.
/// </summary>
public sealed class ScopeCopyAnalyzerTests
{
    private const string Header = """
        using System;
        using System.Text;
        using Microsoft.Extensions.ObjectPool;
        using NativePool;

        """;

    [Fact]
    public Task AssigningAScopeToAnotherVariableIsACopy() => Verify.VerifyAsync(Header + """
        public class C
        {
            public void M(StripedArrayPool<byte> pool)
            {
                using var scope = pool.RentScoped(16);
                ArrayScope<byte> copy = {|NP0012:scope|};
                var other = {|NP0012:scope|};
                copy = {|NP0012:other|};
            }
        }
        """);

    [Fact]
    public Task PassingAScopeByValueIsACopy() => Verify.VerifyAsync(Header + """
        public class C
        {
            public void M(StripedArrayPool<byte> pool)
            {
                using var scope = pool.RentScoped(16);
                Fill(16, {|NP0012:scope|});
            }

            private static void Fill(int length, ArrayScope<byte> scope) => scope.Span.Fill(1);
        }
        """);

    [Fact]
    public Task ReturningAUsingScopeIsACopyThatOutlivesItsDispose() => Verify.VerifyAsync(Header + """
        public class C
        {
            public ArrayScope<byte> M(StripedArrayPool<byte> pool)
            {
                using var scope = pool.RentScoped(16);
                return {|NP0012:scope|};
            }

            public ObjectScope<StringBuilder> N(StripedObjectPool<StringBuilder> pool)
            {
                using (var scope = pool.RentScoped())
                {
                    return {|NP0012:scope|};
                }
            }
        }
        """);

    [Fact]
    public Task AUsingStatementOverAnExistingScopeIsACopy() => Verify.VerifyAsync(Header + """
        public class C
        {
            public void M(StripedObjectPool<StringBuilder> pool)
            {
                ObjectScope<StringBuilder> scope = pool.RentScoped();
                using ({|NP0012:scope|})
                {
                    scope.Value.Append('x');
                }

                scope.Dispose();
            }
        }
        """);

    [Fact]
    public Task UsingAScopeThroughItsMembersByRefInAndAsADiscardIsNoCopy() => Verify.VerifyAsync(Header + """
        public class C
        {
            public int M(StripedArrayPool<byte> pool, StripedObjectPool<StringBuilder> objects)
            {
                using var scope = pool.RentScoped(16);
                scope.Span.Fill(1);
                int length = scope.Length + scope.Array.Length;
                Fill(in scope);
                _ = scope;

                ArrayScope<byte> owned = pool.RentScoped(16);
                Touch(ref owned);
                ref ArrayScope<byte> alias = ref owned;
                _ = alias.IsActive;
                owned.Dispose();

                using var text = objects.RentScoped();
                text.Value.Append(length);
                return text.Value.Length;
            }

            private static void Fill(in ArrayScope<byte> scope) => scope.Span.Fill(2);

            private static void Touch(ref ArrayScope<byte> scope) => scope.Span[0] = 3;
        }
        """);

    [Fact]
    public Task AFactoryThatHandsItsOnlyScopeToTheCallerIsNoCopy() => Verify.VerifyAsync(Header + """
        public class C
        {
            public ArrayScope<byte> Make(StripedArrayPool<byte> pool)
            {
                ArrayScope<byte> scope = pool.RentScoped(16);
                scope.Span.Clear();
                return scope;
            }

            public ArrayScope<byte> Direct(StripedArrayPool<byte> pool) => pool.RentScoped(16);

            public void Use(StripedArrayPool<byte> pool)
            {
                using ArrayScope<byte> scope = Make(pool);
                scope.Span[0] = 1;
            }
        }
        """);

    [Fact]
    public Task ScopesOfTheLeaseKindAreNotReported() => Verify.VerifyAsync(Header + """
        public class C
        {
            public void M(StripedArrayPool<byte> pool)
            {
                using var lease = pool.RentLease(16);
                ArrayLease<byte> copy = lease;
                copy.Span[0] = 1;
            }
        }
        """);
}
