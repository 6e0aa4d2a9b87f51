using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.AnalyzerVerifier<NativePool.Analyzers.PoolUsageAnalyzer>;

namespace NativePool.Analyzers.Tests;

/// <summary>
/// NP0013: a pooled item, or a span, memory, array, object or task over it, that leaves the method (returned, yielded,
/// stored where the caller reaches it, captured by a delegate that leaves, handed to a task nobody awaits) while the
/// method gives the item back. Uses inside the method, copies and values computed from the memory are not reported.
/// </summary>
public sealed class EscapeTests
{
    /// <summary>Members of the class <see cref="Sources.InMethod"/> writes, with the namespaces of streams, tasks and collections too.</summary>
    private static string Members(string members)
        => "using System.Collections.Generic;\nusing System.IO;\nusing System.Threading.Tasks;\n" + Sources.InMethod("", members);

    [Fact]
    public Task ReturningTheSpanOfAUsingScopeIsReportedWithWhatLeavesAndWhatGoesBack() => Verify.VerifyAsync(
        """
        using System;
        using NativePool;

        public class C
        {
            Span<byte> Fill(int n)
            {
                using var s = StripedArrayPool<byte>.Shared.RentScoped(n);
                return {|#0:s.Span|};   // compiles with no diagnostic; the caller gets an array already back in the pool
            }
        }
        """,
        [
            new DiagnosticResult(DiagnosticIds.EscapesItsReturn, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'s.Span' is returned, but 's' goes back to the pool before the method ends"),
        ]);

    [Fact]
    public Task ReturningAScopesSpanThroughALocalIsReported() => Verify.VerifyAsync(Members("""
            private static Span<byte> Fill(StripedArrayPool<byte> pool, int n)
            {
                using ArrayScope<byte> scope = pool.RentScoped(n);
                Span<byte> span = scope.Span;
                span.Fill(1);
                return {|NP0013:span|};
            }
        """));

    [Fact]
    public Task ReturningASliceOrAReadOnlyViewOfAScopeIsReported() => Verify.VerifyAsync(Members("""
            private static ReadOnlySpan<byte> Tail(StripedArrayPool<byte> pool, int n)
            {
                using var scope = pool.RentScoped(n);
                return {|NP0013:scope.Span.Slice(1)|};
            }

            private static ReadOnlySpan<byte> All(StripedArrayPool<byte> pool, int n)
            {
                using var scope = pool.RentScoped(n);
                return {|NP0013:scope.Span|};
            }
        """));

    [Fact]
    public Task ReturningAScopesArrayIsReported() => Verify.VerifyAsync(Members("""
            private static byte[] Take(StripedArrayPool<byte> pool, int n)
            {
                using var scope = pool.RentScoped(n);
                scope.Span.Fill(1);
                return {|NP0013:scope.Array|};
            }
        """));

    [Fact]
    public Task ReturningTheSpanOfOneBranchOfAConditionalIsReported() => Verify.VerifyAsync(Members("""
            private static Span<byte> Pick(StripedArrayPool<byte> pool, bool condition, int n)
            {
                using var scope = pool.RentScoped(n);
                return {|NP0013:condition ? scope.Span : Span<byte>.Empty|};
            }
        """));

    [Fact]
    public Task ReturningTheMemoryOrASegmentOfALeaseInAUsingIsReported() => Verify.VerifyAsync(Members("""
            private static Memory<byte> Memory(StripedArrayPool<byte> pool, int n)
            {
                using ArrayLease<byte> lease = pool.RentLease(n);
                return {|NP0013:lease.Memory|};
            }

            private static ArraySegment<byte> Segment(StripedArrayPool<byte> pool, int n)
            {
                using ArrayLease<byte> lease = pool.RentLease(n);
                return {|NP0013:new ArraySegment<byte>(lease.Array, 0, lease.Length)|};
            }
        """));

    [Fact]
    public Task ReturningTheMemoryOfMemoryAndNativeLeasesAndOfAMemoryOwnerIsReported() => Verify.VerifyAsync(Members("""
            private static Memory<byte> Pinned(StripedMemoryPool<byte> pool, int n)
            {
                using MemoryLease<byte> lease = pool.RentLease(n);
                return {|NP0013:lease.Memory|};
            }

            private static Span<byte> Native(NativeBlockPool pool, int n)
            {
                using NativeBlockLease lease = pool.Rent(n);
                return {|NP0013:lease.Span|};
            }

            private static Memory<int> Structs(NativeStructPool<int> pool, int n)
            {
                using NativeStructLease<int> lease = pool.Rent(n);
                return {|NP0013:lease.Memory|};
            }

            private static Memory<byte> Owned(int n)
            {
                using IMemoryOwner<byte> owner = MemoryPool<byte>.Shared.Rent(n);
                return {|NP0013:owner.Memory|};
            }
        """));

    [Fact]
    public Task ReturningTheObjectOfAnObjectScopeOrLeaseIsReported() => Verify.VerifyAsync(Members("""
            private static StringBuilder Scoped(StripedObjectPool<StringBuilder> pool)
            {
                using var scope = pool.RentScoped();
                scope.Value.Append('x');
                return {|NP0013:scope.Value|};
            }

            private static StringBuilder Leased(StripedObjectPool<StringBuilder> pool)
            {
                using ObjectLease<StringBuilder> lease = pool.RentLease();
                return {|NP0013:lease.Value|};
            }
        """));

    [Fact]
    public Task ReturningARentedArrayOrASpanOverItThatTheFinallyReturnsIsReported() => Verify.VerifyAsync(Members("""
            private static byte[] Array(ArrayPool<byte> pool, int n)
            {
                byte[] buffer = pool.Rent(n);
                try
                {
                    buffer[0] = 1;
                    return {|NP0013:buffer|};
                }
                finally
                {
                    pool.Return(buffer);
                }
            }

            private static Span<byte> Span(ArrayPool<byte> pool, int n)
            {
                byte[] buffer = pool.Rent(n);
                try
                {
                    return {|NP0013:buffer.AsSpan(0, n)|};
                }
                finally
                {
                    pool.Return(buffer);
                }
            }

            private static StringBuilder Builder(ObjectPool<StringBuilder> pool)
            {
                StringBuilder builder = pool.Get();
                try
                {
                    builder.Append('x');
                    return {|NP0013:builder|};
                }
                finally
                {
                    pool.Return(builder);
                }
            }
        """));

    [Fact]
    public Task ReturningALeaseFromItsOwnUsingIsReported() => Verify.VerifyAsync(Members("""
            private static ArrayLease<byte> Fill(StripedArrayPool<byte> pool, int n)
            {
                using ArrayLease<byte> lease = pool.RentLease(n);
                lease.Span.Fill(1);
                return {|NP0013:lease|};
            }
        """));

    [Fact]
    public Task ReturningATupleThatHoldsALeasesMemoryIsReported() => Verify.VerifyAsync(Members("""
            private static (Memory<byte> Memory, int Length) Fill(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                return ({|NP0013:lease.Memory|}, n);
            }
        """));

    [Fact]
    public Task StoringALeasesMemoryInAFieldIsReportedWithWhereItIsStored() => Verify.VerifyAsync(
        Members("""
            private Memory<byte> _pending;

            private void Start(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                _pending = {|#0:lease.Memory|};
            }
        """),
        [
            new DiagnosticResult(DiagnosticIds.EscapesItsReturn, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'lease.Memory' is stored in '_pending', but 'lease' goes back to the pool before the method ends"),
        ]);

    [Fact]
    public Task StoringInAStaticFieldAPropertyAParametersMemberOrAnArrayElementIsReported() => Verify.VerifyAsync(Members("""
            private static byte[]? s_last;

            private Memory<byte> Pending { get; set; }

            private sealed class Holder
            {
                public Memory<byte> Memory;
            }

            private void Store(ArrayPool<byte> pool, Holder holder, Memory<byte>[] slots, int n)
            {
                byte[] buffer = pool.Rent(n);
                s_last = {|NP0013:buffer|};
                Pending = {|NP0013:buffer.AsMemory(0, n)|};
                holder.Memory = {|NP0013:buffer|};
                slots[0] = {|NP0013:buffer.AsMemory()|};
                pool.Return(buffer);
            }
        """));

    [Fact]
    public Task AssigningALeasesMemoryToAnOutOrRefParameterIsReported() => Verify.VerifyAsync(Members("""
            private static void Open(StripedArrayPool<byte> pool, int n, out Memory<byte> memory)
            {
                using var lease = pool.RentLease(n);
                memory = {|NP0013:lease.Memory|};
            }

            private static void Swap(StripedArrayPool<byte> pool, int n, ref byte[] array)
            {
                using var scope = pool.RentScoped(n);
                array = {|NP0013:scope.Array|};
            }
        """));

    [Fact]
    public Task YieldingALeasesMemoryIsReported() => Verify.VerifyAsync(Members("""
            private static IEnumerable<Memory<byte>> Chunks(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                while (stream.Read(lease.Span) > 0)
                {
                    yield return {|NP0013:lease.Memory|};
                }
            }
        """));

    [Fact]
    public Task ReturningOrStoringADelegateThatUsesALeaseIsReported() => Verify.VerifyAsync(Members("""
            private Action? _flush;

            private static Func<byte> Reader(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                Memory<byte> memory = lease.Memory;
                return {|#0:() => memory.Span[0]|};
            }

            private void Later(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                _flush = {|NP0013:() => Use(lease.Span)|};
            }

            private static Action Local(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                return {|NP0013:Clear|};

                void Clear() => lease.Span.Clear();
            }
        """),
        [
            new DiagnosticResult(DiagnosticIds.EscapesItsReturn, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("A delegate that uses 'memory' is returned, but 'lease' goes back to the pool before the method ends"),
        ]);

    [Fact]
    public Task AddingAHandlerThatUsesALeaseToAnEventIsReported() => Verify.VerifyAsync(Members("""
            public event Action? Flushed;

            private void Subscribe(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                Flushed += {|NP0013:() => Use(lease.Span)|};
            }
        """));

    [Fact]
    public Task ATaskOverALeasesMemoryThatIsNotAwaitedIsReportedWithTheCall() => Verify.VerifyAsync(
        Members("""
            private static void Send(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                _ = stream.WriteAsync({|#0:lease.Memory|});
            }

            private static void SendConfigured(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                stream.WriteAsync({|NP0013:lease.Memory|}).ConfigureAwait(false);
            }
        """),
        [
            new DiagnosticResult(DiagnosticIds.EscapesItsReturn, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'lease.Memory' is passed to 'WriteAsync', whose task is not awaited, but 'lease' goes back to the pool before the method ends"),
        ]);

    [Fact]
    public Task ReturningATaskThatWritesAPooledArrayIsReported() => Verify.VerifyAsync(Members("""
            private static Task Send(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                return {|NP0013:stream.WriteAsync(lease.Memory).AsTask()|};
            }

            private static Task SendLater(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                Task pending = stream.WriteAsync(lease.Memory).AsTask();
                return {|NP0013:pending|};
            }

            private static Task Write(ArrayPool<byte> pool, Stream stream, int n)
            {
                byte[] buffer = pool.Rent(n);
                try
                {
                    return {|NP0013:stream.WriteAsync(buffer, 0, n)|};
                }
                finally
                {
                    pool.Return(buffer);
                }
            }
        """));

    [Fact]
    public Task StartingWorkOnALeaseThatIsNotAwaitedIsReported() => Verify.VerifyAsync(Members("""
            private static void Start(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                _ = Task.Run({|NP0013:() => Use(lease.Span)|});
            }

            private static void Fire(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                Flush({|NP0013:lease.Memory|});
            }

            private static async void Flush(Memory<byte> memory)
            {
                await Task.Yield();
                Use(memory.Span);
            }
        """));

    [Fact]
    public Task AViewTakenOutOfAUsingBlockAndReturnedAfterItIsAUseAfterReturn() => Verify.VerifyAsync(Members("""
            private static Memory<byte> Take(StripedArrayPool<byte> pool, int n)
            {
                Memory<byte> memory;
                using (var lease = pool.RentLease(n))
                {
                    memory = lease.Memory;
                }

                return {|NP0002:memory|};
            }
        """));

    [Fact]
    public Task UsingTheSpanInsideTheScopeAndReturningWhatIsComputedFromItIsClean() => Verify.VerifyAsync(Members("""
            private static int First(StripedArrayPool<byte> pool, int n)
            {
                using var scope = pool.RentScoped(n);
                scope.Span.Fill(1);
                Use(scope.Span);
                return scope.Span[0] + scope.Span.IndexOf((byte)1) + scope.Length;
            }

            private static string Text(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                return Encoding.UTF8.GetString(lease.Span);
            }
        """));

    [Fact]
    public Task CopyingTheDataOutIsClean() => Verify.VerifyAsync(Members("""
            private static byte[] Copy(StripedArrayPool<byte> pool, int n)
            {
                using var scope = pool.RentScoped(n);
                scope.Span.Fill(1);
                return scope.Span.ToArray();
            }

            private static void CopyTo(StripedArrayPool<byte> pool, byte[] destination, int n)
            {
                using var scope = pool.RentScoped(n);
                scope.Span.CopyTo(destination);
            }

            private static IEnumerable<byte[]> Chunks(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                int read;
                while ((read = stream.Read(lease.Span)) > 0)
                {
                    yield return lease.Span.Slice(0, read).ToArray();
                }
            }
        """));

    [Fact]
    public Task PassingTheSpanToASynchronousCallIsClean() => Verify.VerifyAsync(Members("""
            private static int Sum(ReadOnlySpan<byte> span)
            {
                int sum = 0;
                foreach (byte value in span)
                {
                    sum += value;
                }

                return sum;
            }

            private static int Checksum(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var scope = pool.RentScoped(n);
                int read = stream.Read(scope.Span);
                return Sum(scope.Span.Slice(0, read));
            }
        """));

    [Fact]
    public Task AwaitingTheTaskBeforeTheLeaseIsDisposedIsClean() => Verify.VerifyAsync(Members("""
            private static async Task Send(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                await stream.WriteAsync(lease.Memory);
                await stream.WriteAsync(lease.Memory).ConfigureAwait(false);
                ValueTask pending = stream.WriteAsync(lease.Memory);
                await pending;
            }

            private static async Task<int> Read(StripedArrayPool<byte> pool, Stream stream, int n)
            {
                using var lease = pool.RentLease(n);
                return await stream.ReadAsync(lease.Memory);
            }
        """));

    [Fact]
    public Task AFieldThatIsClearedBeforeTheMethodEndsIsClean() => Verify.VerifyAsync(Members("""
            private Memory<byte> _current;

            private void Process(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                _current = lease.Memory;
                Work();
                _current = default;
            }

            private void ProcessThenClear(ArrayPool<byte> pool, int n)
            {
                byte[] buffer = pool.Rent(n);
                _kept = buffer;
                Work();
                pool.Return(buffer);
                _kept = null;
            }
        """));

    [Fact]
    public Task HandingTheItemOrItsLeaseToTheCallerIsClean() => Verify.VerifyAsync(Members("""
            private static Memory<byte> Rented(ArrayPool<byte> pool, int n)
            {
                byte[] buffer = pool.Rent(n);
                buffer[0] = 1;
                return buffer.AsMemory(0, n);
            }

            private static ArrayLease<byte> Lease(StripedArrayPool<byte> pool, int n)
            {
                ArrayLease<byte> lease = pool.RentLease(n);
                lease.Span.Fill(1);
                return lease;
            }

            private static byte[] OnSuccess(ArrayPool<byte> pool, Stream stream, int n)
            {
                byte[] buffer = pool.Rent(n);
                bool handedOut = false;
                try
                {
                    stream.ReadExactly(buffer, 0, n);
                    handedOut = true;
                    return buffer;
                }
                finally
                {
                    if (!handedOut)
                    {
                        pool.Return(buffer);
                    }
                }
            }
        """));

    [Fact]
    public Task ADelegateThatRunsWhileTheLeaseIsHeldIsClean() => Verify.VerifyAsync(Members("""
            private static int Count(StripedArrayPool<byte> pool, int[] items, int n)
            {
                using var lease = pool.RentLease(n);
                Array.ForEach(items, item => lease.Span[item % n] = 1);
                Func<int> length = () => lease.Length;
                return length();
            }
        """));

    [Fact]
    public Task StoresTheAnalysisCannotFollowAreNotReported() => Verify.VerifyAsync(Members("""
            private sealed class Holder
            {
                public Memory<byte> Memory;
            }

            private static List<Memory<byte>> s_kept = [];

            private static void Keep(Memory<byte> memory) => s_kept.Add(memory);

            private static Holder Local(StripedArrayPool<byte> pool, int n)
            {
                using var lease = pool.RentLease(n);
                Holder holder = new();
                holder.Memory = lease.Memory;
                Keep(lease.Memory);
                s_kept.Add(lease.Memory);
                return holder;
            }
        """));
}
