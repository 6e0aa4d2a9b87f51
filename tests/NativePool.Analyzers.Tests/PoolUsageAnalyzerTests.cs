using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.AnalyzerVerifier<NativePool.Analyzers.PoolUsageAnalyzer>;

namespace NativePool.Analyzers.Tests;

public sealed class PoolUsageAnalyzerTests
{
    [Fact]
    public Task ReturningInTheTryAndAgainInTheFinallyIsADoubleReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                try
                {
                    Use(buffer);
                    pool.Return(buffer);
                }
                finally
                {
                    {|NP0001:pool.Return(buffer)|};
                }
        """));

    [Fact]
    public Task ReturningTwiceToTheSharedPoolIsADoubleReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = ArrayPool<byte>.Shared.Rent(16);
                ArrayPool<byte>.Shared.Return(buffer);
                {|NP0001:ArrayPool<byte>.Shared.Return(buffer)|};
        """));

    [Fact]
    public Task ReturningInsideALoopWithoutRentingAgainIsADoubleReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                do
                {
                    {|NP0001:pool.Return(buffer)|};
                }
                while (condition);
        """));

    [Fact]
    public Task WritingTheArrayAfterItsReturnIsAUseAfterReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                pool.Return(buffer);
                {|NP0002:buffer|}[0] = 1;
        """));

    [Fact]
    public Task UsingASpanOverTheArrayAfterItsReturnIsAUseAfterReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                Span<byte> span = buffer.AsSpan(0, n);
                pool.Return(buffer);
                Use({|NP0002:span|});
        """));

    [Fact]
    public Task ReadingMemoryOverTheArrayAfterItsReturnIsAUseAfterReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                Memory<byte> memory = buffer;
                pool.Return(buffer);
                Use({|NP0002:memory|}.Span);
        """));

    [Fact]
    public Task ReadingAMemoryOwnersMemoryAfterItsDisposeIsAUseAfterReturn() => Verify.VerifyAsync(Sources.InMethod("""
                IMemoryOwner<byte> owner = MemoryPool<byte>.Shared.Rent(n);
                Use(owner.Memory.Span);
                owner.Dispose();
                Use({|NP0002:owner|}.Memory.Span);
        """));

    [Fact]
    public Task AnEarlyReturnThatSkipsTheReturnIsALeak() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = {|NP0003:pool.Rent(n)|};
                if (condition)
                {
                    return;
                }

                Use(buffer);
                pool.Return(buffer);
        """));

    [Fact]
    public Task AThrowBetweenRentAndReturnWithNoFinallyIsAnExceptionPathLeak() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = {|NP0010:pool.Rent(n)|};
                if (n > 100)
                {
                    throw new InvalidOperationException();
                }

                pool.Return(buffer);
        """));

    [Fact]
    public Task ARentWhoseArrayIsDiscardedIsALeak() => Verify.VerifyAsync(Sources.InMethod("""
                {|NP0003:pool.Rent(n)|};
        """));

    [Fact]
    public Task AnObjectThatIsNotReturnedOnSomePathIsALeak() => Verify.VerifyAsync(Sources.InMethod("""
                StringBuilder builder = {|NP0003:builders.Get()|};
                if (condition)
                {
                    return;
                }

                builders.Return(builder);
        """));

    [Fact]
    public Task ALeaseThatIsNotDisposedIsReported() => Verify.VerifyAsync(Sources.InMethod("""
                ArrayLease<byte> lease = {|NP0004:striped.RentLease(n)|};
                Use(lease.Span);
        """));

    [Fact]
    public Task AScopeThatIsNotDisposedOnAnEarlyReturnIsReported() => Verify.VerifyAsync(Sources.InMethod("""
                ArrayScope<byte> scope = {|NP0004:striped.RentScoped(n)|};
                if (condition)
                {
                    return;
                }

                Use(scope.Span);
                scope.Dispose();
        """));

    [Fact]
    public Task AMemoryOwnerThatIsNotDisposedIsReported() => Verify.VerifyAsync(Sources.InMethod("""
                IMemoryOwner<byte> owner = {|NP0004:MemoryPool<byte>.Shared.Rent(n)|};
                Use(owner.Memory.Span);
        """));

    [Fact]
    public Task ADiscardedLeaseIsReported() => Verify.VerifyAsync(Sources.InMethod("""
                {|NP0004:striped.RentLease(n)|};
        """));

    [Fact]
    public Task ReturningASharedPoolsArrayToAnotherSharedPoolIsReported() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = ArrayPool<byte>.Shared.Rent(16);
                {|NP0005:StripedArrayPool<byte>.Shared.Return(buffer)|};
        """));

    [Fact]
    public Task ReturningToAnotherNewPoolIsReported() => Verify.VerifyAsync(Sources.InMethod("""
                ArrayPool<byte> first = ArrayPool<byte>.Create();
                ArrayPool<byte> second = ArrayPool<byte>.Create();
                byte[] buffer = first.Rent(16);
                {|NP0005:second.Return(buffer)|};
        """));

    [Fact]
    public Task ReturningOnceInAFinallyIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
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
    public Task PassingOwnershipOutIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                Consume(buffer);
        """));

    [Fact]
    public Task StoringTheArrayInAFieldIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                _kept = buffer;
        """));

    [Fact]
    public Task ReturningTheArrayFromTheMethodIsClean() => Verify.VerifyAsync(Sources.InMethod("", """
            public byte[] Take(ArrayPool<byte> pool)
            {
                byte[] buffer = pool.Rent(16);
                Use(buffer);
                return buffer;
            }
        """));

    [Fact]
    public Task ReturningConditionallyWithAFlagIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                bool returned = false;
                try
                {
                    Use(buffer);
                    if (condition)
                    {
                        pool.Return(buffer);
                        returned = true;
                    }

                    Work();
                }
                finally
                {
                    if (!returned)
                    {
                        pool.Return(buffer);
                    }
                }
        """));

    [Fact]
    public Task AFlagPassedAsAnOutArgumentIsNoLongerKnown() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = {|NP0003:pool.Rent(n)|};
                bool returned = false;
                if (condition)
                {
                    pool.Return(buffer);
                    returned = true;
                }

                Decide(out returned);
                if (!returned)
                {
                    {|NP0001:pool.Return(buffer)|};
                }
        """, """
            private static void Decide(out bool value) => value = Environment.TickCount > 0;
        """));

    [Fact]
    public Task ARepeatedComparisonIsNotAssumedAfterACompoundAssignmentToItsOperand() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? buffer = null;
                if (n > 256)
                {
                    buffer = {|NP0003:pool.Rent(n)|};
                }

                n += 1;
                if (n > 256)
                {
                    pool.Return(buffer!);
                }
        """));

    [Fact]
    public Task RentingAndReturningInTheSameIterationIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                for (int i = 0; i < n; i++)
                {
                    byte[] buffer = pool.Rent(n);
                    Use(buffer);
                    pool.Return(buffer);
                }
        """));

    [Fact]
    public Task ReturningANullCheckedArrayInAFinallyIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? buffer = null;
                try
                {
                    buffer = pool.Rent(n);
                    Use(buffer);
                }
                finally
                {
                    if (buffer is not null)
                    {
                        pool.Return(buffer);
                    }
                }
        """));

    [Fact]
    public Task ReturningAndClearingTheLocalBeforeAFinallyReturnIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? buffer = pool.Rent(n);
                try
                {
                    Use(buffer);
                    pool.Return(buffer);
                    buffer = null;
                    Work();
                }
                finally
                {
                    if (buffer != null)
                    {
                        pool.Return(buffer);
                    }
                }
        """));

    [Fact]
    public Task ScopesAndLeasesInUsingsAreClean() => Verify.VerifyAsync(Sources.InMethod("""
                using ArrayScope<byte> scope = striped.RentScoped(n);
                Use(scope.Span);
                using (ArrayLease<byte> lease = striped.RentLease(n))
                {
                    Use(lease.Span);
                }

                using IMemoryOwner<byte> owner = MemoryPool<byte>.Shared.Rent(n);
                Use(owner.Memory.Span);
        """));

    [Fact]
    public Task AnArrayALambdaReturnsIsNotFollowed() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                Action giveBack = () => pool.Return(buffer);
                giveBack();
        """));

    [Fact]
    public Task AnObjectReturnedInAFinallyIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                StringBuilder builder = builders.Get();
                try
                {
                    builder.Append(n);
                    Work();
                }
                finally
                {
                    builders.Return(builder);
                }
        """));

    [Fact]
    public Task ReturningToAPoolThatIsNotKnownStaticallyIsNotReportedAsAnotherPool() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = ArrayPool<byte>.Shared.Rent(16);
                pool.Return(buffer);
        """));

    [Fact]
    public Task UsingDeclarationsInALoopInALambdaAreClean() => Verify.VerifyAsync(Sources.InMethod("""
                Action<int> run = count =>
                {
                    for (int i = 0; i < count; i++)
                    {
                        using (ArrayLease<byte> lease = striped.RentLease(n))
                        {
                            Use(lease.Span);
                        }

                        using IMemoryOwner<byte> owner = MemoryPool<byte>.Shared.Rent(n);
                        Use(owner.Memory.Span);
                    }
                };
                run(n);
        """));

    [Fact]
    public Task ACallThatMayThrowBetweenRentAndReturnIsNotALeakByDefault() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                Work();
                pool.Return(buffer);
        """));

    [Fact]
    public Task ACallThatMayThrowBetweenRentAndReturnIsAnExceptionPathLeakWhenExceptionPathsAreAskedFor() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = {|NP0010:pool.Rent(n)|};
                Work();
                pool.Return(buffer);
                byte[] guarded = pool.Rent(n);
                try
                {
                    Work();
                }
                finally
                {
                    pool.Return(guarded);
                }
        """),
        editorConfig: "nativepool.report_leaks_on_exceptions = true");

    [Fact]
    public Task ARentAndAReturnUnderTheSameComparisonAreClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? rented = null;
                if (n > 256)
                {
                    rented = pool.Rent(n);
                }

                Work();
                if (n > 256)
                {
                    pool.Return(rented!);
                }
        """));

    [Fact]
    public Task AComparisonWhoseOperandChangedIsNotTakenAgain() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? rented = null;
                int size = n;
                if (size > 256)
                {
                    rented = {|NP0003:pool.Rent(size)|};
                }

                size++;
                if (size > 256)
                {
                    pool.Return(rented!);
                }
        """));

    [Fact]
    public Task AStackOrRentedBufferReturnedUnderANullTestIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[]? rented = null;
                Span<byte> buffer = n <= 256 ? stackalloc byte[256] : (rented = pool.Rent(n));
                try
                {
                    Use(buffer);
                }
                finally
                {
                    if (rented != null)
                    {
                        pool.Return(rented);
                    }
                }
        """));

    [Fact]
    public Task AGrowingBufferSwappedForALargerOneIsClean() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(16);
                try
                {
                    while (condition)
                    {
                        byte[] larger = pool.Rent(buffer.Length * 2);
                        buffer.CopyTo(larger, 0);
                        pool.Return(buffer);
                        buffer = larger;
                        Work();
                    }
                }
                finally
                {
                    pool.Return(buffer);
                }
        """));

    [Fact]
    public Task ComparingReferencesAfterTheReturnIsNotAUse() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                pool.Return(buffer);
                byte[] again = pool.Rent(n);
                bool same = ReferenceEquals(buffer, again) || buffer == again;
                int hash = System.Runtime.CompilerServices.RuntimeHelpers.GetHashCode(buffer);
                int length = buffer.Length;
                pool.Return(again);
        """));

    [Fact]
    public Task AnArrayRentedAgainByAnUnfollowedRentMayBeReturnedAgain() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                pool.Return(buffer);
                if (ReferenceEquals(buffer, pool.Rent(n)))
                {
                    pool.Return(buffer);
                }
        """));

    [Fact]
    public Task ARentThatIsTheBodyOfAnExpressionLambdaIsNotADiscardedRent() => Verify.VerifyAsync(Sources.InMethod("""
                Action rentTooMuch = () => pool.Rent(-1);
                Action leaseTooMuch = () => striped.RentLease(-1);
                rentTooMuch();
                leaseTooMuch();
        """));

    [Fact]
    public Task ALambdaInsideATryIsAnalyzedWithinItsOwnGraph() => Verify.VerifyAsync(Sources.InMethod("""
                try
                {
                    Action<IMemoryOwner<byte>> dispose = owner => owner.Dispose();
                    using IMemoryOwner<byte> owner = MemoryPool<byte>.Shared.Rent(n);
                    Use(owner.Memory.Span);
                    dispose(MemoryPool<byte>.Shared.Rent(n));
                }
                finally
                {
                    Work();
                }
        """));

    [Fact]
    public Task ALambdaThatOnlyReadsAnArrayNoLongerHidesItsDoubleReturn() => Verify.VerifyAsync(Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                Func<byte> first = () => buffer[0];
                Use(buffer);
                pool.Return(buffer);
                {|NP0001:pool.Return(buffer)|};
        """));

    [Fact]
    public Task AnAwaitedTaskOverAnArrayDoesNotHideThatTheArrayIsNeverReturned() => Verify.VerifyAsync(Sources.InMethod("", """
            private static async System.Threading.Tasks.Task Send(ArrayPool<byte> pool, System.IO.Stream stream, int n)
            {
                byte[] buffer = {|NP0003:pool.Rent(n)|};
                System.Threading.Tasks.Task write = stream.WriteAsync(buffer, 0, n);
                await write;
            }
        """));

    [Fact]
    public Task ReadingTheObjectOfALeaseAfterItsDisposeIsAUseAfterReturn() => Verify.VerifyAsync(Sources.InMethod("", """
            private static void Append(StripedObjectPool<StringBuilder> pool)
            {
                ObjectLease<StringBuilder> lease = pool.RentLease();
                StringBuilder builder = lease.Value;
                lease.Dispose();
                {|NP0002:builder|}.Append('x');
                {|NP0002:lease|}.Value.Append('y');
            }
        """));

    [Fact]
    public Task AwaitingATaskAfterItsArrayWasReturnedIsAUseAfterReturn() => Verify.VerifyAsync(Sources.InMethod("", """
            private static async System.Threading.Tasks.Task Send(ArrayPool<byte> pool, System.IO.Stream stream, int n)
            {
                byte[] buffer = pool.Rent(n);
                System.Threading.Tasks.Task write = stream.WriteAsync(buffer, 0, n);
                pool.Return(buffer);
                await {|NP0002:write|};
            }
        """));

    [Fact]
    public Task ThePoolsAreRecognizedByTypeVerbAndShapeWhateverTheirVerbsAreNamed() => Verify.VerifyAsync("""
        using System;

        namespace NativePool
        {
            public sealed class NativeBlockPool
            {
                public BlockLease RentLease(int length) => default;

                public BlockScope RentScoped(int length) => default;
            }

            public struct BlockLease : IDisposable
            {
                public void Dispose()
                {
                }
            }

            public ref struct BlockScope
            {
                public void Dispose()
                {
                }
            }
        }

        public static class C
        {
            public static void M(NativePool.NativeBlockPool pool)
            {
                NativePool.BlockLease lease = {|NP0004:pool.RentLease(16)|};
                NativePool.BlockScope scope = {|NP0004:pool.RentScoped(16)|};
                using NativePool.BlockLease disposed = pool.RentLease(16);
            }
        }
        """, withNativePool: false);

    [Fact]
    public Task CodeWithoutAnyPoolIsClean() => Verify.VerifyAsync("""
        public class C
        {
            public int M(int n) => n + 1;
        }
        """, withNativePool: false);
}
