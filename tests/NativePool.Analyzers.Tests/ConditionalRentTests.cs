using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.AnalyzerVerifier<NativePool.Analyzers.PoolUsageAnalyzer>;

namespace NativePool.Analyzers.Tests;

/// <summary>Rents inside a conditional expression (<c>c ? pool.Rent(n) : other</c>, <c>x ?? pool.Rent(n)</c>) are followed on the branch that rents.</summary>
public sealed class ConditionalRentTests
{
    [Fact]
    public Task AStackOrRentedBufferWhoseRentedArrayIsNeverReturnedIsALeak() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? rented = null;
                Span<byte> buffer = n <= 128 ? stackalloc byte[128] : (rented = {|NP0003:pool.Rent(n)|});
                Use(buffer);
        """));

    [Fact]
    public Task AStackOrRentedBufferReturnedTwiceIsADoubleReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? rented = null;
                Span<byte> buffer = n <= 128 ? stackalloc byte[128] : (rented = pool.Rent(n));
                Use(buffer);
                if (rented != null)
                {
                    pool.Return(rented);
                    {|NP0001:pool.Return(rented)|};
                }
        """));

    [Fact]
    public Task AStackOrRentedSpanThatKeepsNoReferenceToTheArrayIsALeak() => Verify.VerifyAsync(Sources.InMethod("""
                Span<byte> buffer = n <= 128 ? stackalloc byte[128] : {|NP0003:pool.Rent(n)|};
                Use(buffer);
        """));

    [Fact]
    public Task AConditionallyRentedArrayThatIsNotReturnedOnSomePathIsALeak() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = condition ? {|NP0003:pool.Rent(n)|} : new byte[n];
                if (n > 100)
                {
                    return;
                }

                pool.Return(buffer);
        """));

    [Fact]
    public Task AConditionallyRentedArrayReturnedInAFinallyIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = condition ? pool.Rent(n) : ArrayPool<byte>.Shared.Rent(n);
                try
                {
                    Use(buffer);
                    Work();
                }
                finally
                {
                    pool.Return(buffer);
                }
        """));

    [Fact]
    public Task AConditionallyRentedArrayReturnedTwiceIsADoubleReturn() => Verify.VerifyAsync(Sources.InMethod("""
                var buffer = condition ? pool.Rent(n) : pool.Rent(2 * n);
                pool.Return(buffer);
                {|NP0001:pool.Return(buffer)|};
        """));

    [Fact]
    public Task AConditionallyRentedArrayUsedAfterItsReturnIsAUseAfterReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = condition ? pool.Rent(n) : new byte[n];
                pool.Return(buffer);
                {|NP0002:buffer|}[0] = 1;
        """));

    [Fact]
    public Task AnArrayFromANestedConditionalIsFollowed() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = condition ? {|NP0003:pool.Rent(n)|} : n > 8 ? {|NP0003:pool.Rent(8)|} : new byte[n];
                Use(buffer);
        """));

    [Fact]
    public Task AnArrayRentedWhenAFieldIsNullIsFollowed() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = _kept ?? {|NP0003:pool.Rent(n)|};
                Use(buffer);
        """));

    [Fact]
    public Task TheBranchThatDoesNotRentIsNotALeakOrADoubleReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = condition ? pool.Rent(n) : _kept!;
                Use(buffer);
                if (condition)
                {
                    pool.Return(buffer);
                }
        """));

    [Fact]
    public Task AConditionallyRentedMemoryOwnerThatIsNotDisposedIsReportedAtItsRent() => Verify.VerifyAsync(Sources.InMethod("""
                IMemoryOwner<byte> owner = condition ? {|NP0004:MemoryPool<byte>.Shared.Rent(n)|} : {|NP0004:MemoryPool<byte>.Shared.Rent(2 * n)|};
                Use(owner.Memory.Span);
                using IMemoryOwner<byte> disposed = condition ? MemoryPool<byte>.Shared.Rent(n) : MemoryPool<byte>.Shared.Rent(2 * n);
                Use(disposed.Memory.Span);
        """));

    [Fact]
    public Task AConditionalRentPassedStraightToAMethodIsNotFollowed() => Verify.VerifyAsync(Sources.InMethod("""
                Consume(condition ? pool.Rent(n) : new byte[n]);
        """));

    [Fact]
    public Task AConditionallyRentedArrayThatLeavesEarlyOnlyWhenNullIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? buffer = condition ? pool.Rent(n) : null;
                if (buffer is null)
                {
                    return;
                }

                Use(buffer);
                pool.Return(buffer);
        """));
}
