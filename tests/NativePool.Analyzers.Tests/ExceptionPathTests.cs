using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.AnalyzerVerifier<NativePool.Analyzers.PoolUsageAnalyzer>;

namespace NativePool.Analyzers.Tests;

/// <summary>
/// Findings that need an exception to happen have their own ids (NP0008-NP0011) at information severity, with the
/// exception named in the message; the same findings on a path without exception keep NP0001-NP0004 as warnings.
/// </summary>
public sealed class ExceptionPathTests
{
    [Fact]
    public Task AThrowInADebugHelperBeforeTheReturnIsAnExceptionPathLeakThatNamesTheThrow() => Verify.VerifyAsync(
        """
        using System;
        using System.Buffers;
        using System.IO;

        public static class Dumper
        {
            public static string Dump(ArrayPool<byte> pool, Stream stream, int length)
            {
                byte[] buffer = {|#0:pool.Rent(length)|};
                int read = stream.Read(buffer, 0, length);
                if (read < length)
                {
                    throw new EndOfStreamException();
                }

                string text = Convert.ToBase64String(buffer, 0, read);
                pool.Return(buffer);
                return text;
            }
        }
        """,
        [
            new DiagnosticResult(DiagnosticIds.NotReturnedOnException, DiagnosticSeverity.Info)
                .WithLocation(0)
                .WithMessage("If the 'throw' at line 13 is reached, 'buffer' is never returned to the pool"),
        ]);

    [Fact]
    public Task AFinallyThatReturnsAgainWhenTheRentAfterAReturnThrowsIsAnExceptionPathDoubleReturnThatNamesTheRent() => Verify.VerifyAsync(
        """
        using System.Buffers;
        using System.IO;

        public static class Reader
        {
            public static int ReadAll(ArrayPool<byte> pool, Stream stream)
            {
                byte[] buffer = pool.Rent(256);
                try
                {
                    while (stream.Read(buffer, 0, buffer.Length) == buffer.Length)
                    {
                        int larger = buffer.Length * 2;
                        pool.Return(buffer);
                        buffer = pool.Rent(larger);
                    }

                    return buffer[0];
                }
                finally
                {
                    {|#0:pool.Return(buffer)|};
                }
            }
        }
        """,
        [
            new DiagnosticResult(DiagnosticIds.DoubleReturnOnException, DiagnosticSeverity.Info)
                .WithLocation(0)
                .WithMessage("If 'Rent(...)' at line 15 throws, 'buffer' is returned to the pool a second time in the 'finally'"),
        ]);

    [Fact]
    public Task AReturnInACatchAfterAReturnThatAThrowingCallFollowedIsAnExceptionPathDoubleReturn() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                try
                {
                    Use(buffer);
                    pool.Return(buffer);
                    Work();
                }
                catch (InvalidOperationException)
                {
                    {|#0:pool.Return(buffer)|};
                    throw;
                }
        """),
        [
            new DiagnosticResult(DiagnosticIds.DoubleReturnOnException, DiagnosticSeverity.Info)
                .WithLocation(0)
                .WithMessage("If 'Work(...)' at line 18 throws, 'buffer' is returned to the pool a second time in the 'catch'"),
        ]);

    [Fact]
    public Task AUseInACatchAfterAReturnThatAThrowingCallFollowedIsAnExceptionPathUseAfterReturn() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                try
                {
                    pool.Return(buffer);
                    Work();
                }
                catch (InvalidOperationException)
                {
                    {|#0:buffer|}[0] = 0;
                    throw;
                }
        """),
        [
            new DiagnosticResult(DiagnosticIds.UseAfterReturnOnException, DiagnosticSeverity.Info)
                .WithLocation(0)
                .WithMessage("If 'Work(...)' at line 17 throws, 'buffer' is used here after it was returned to the pool"),
        ]);

    [Fact]
    public Task ALeaseThatAThrowLeavesUndisposedIsAnExceptionPathFinding() => Verify.VerifyAsync(
        Sources.InMethod("""
                ArrayLease<byte> lease = {|#0:striped.RentLease(n)|};
                if (n > 100)
                {
                    throw new ArgumentOutOfRangeException(nameof(n));
                }

                Use(lease.Span);
                lease.Dispose();
        """),
        [
            new DiagnosticResult(DiagnosticIds.NotDisposedOnException, DiagnosticSeverity.Info)
                .WithLocation(0)
                .WithMessage("If the 'throw' at line 16 is reached, 'lease' is never disposed; rent it in a using declaration"),
        ]);

    [Fact]
    public Task ACallThatMayThrowBeforeTheReturnIsAnExceptionPathLeakWhenExceptionPathsAreAskedFor() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = {|#0:pool.Rent(n)|};
                Work();
                pool.Return(buffer);
        """),
        [
            new DiagnosticResult(DiagnosticIds.NotReturnedOnException, DiagnosticSeverity.Info)
                .WithLocation(0)
                .WithMessage("If 'Work(...)' at line 14 throws, 'buffer' is never returned to the pool"),
        ],
        editorConfig: "nativepool.report_leaks_on_exceptions = true");

    [Fact]
    public Task AnExceptionPathIdRaisedInTheEditorConfigIsAWarning() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = {|#0:pool.Rent(n)|};
                if (condition)
                {
                    throw new InvalidOperationException();
                }

                pool.Return(buffer);
        """),
        [
            new DiagnosticResult(DiagnosticIds.NotReturnedOnException, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("If the 'throw' at line 16 is reached, 'buffer' is never returned to the pool"),
        ],
        editorConfig: "dotnet_diagnostic.NP0010.severity = warning");

    [Fact]
    public Task AReturnInTheTryAndAgainInTheFinallyStaysACertainDoubleReturnWarning() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                try
                {
                    Work();
                    pool.Return(buffer);
                }
                finally
                {
                    {|#0:pool.Return(buffer)|};
                }
        """),
        [
            new DiagnosticResult(DiagnosticIds.DoubleReturn, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'buffer' may already have been returned to the pool on a path that reaches this return"),
        ]);

    [Fact]
    public Task ALeakOnAnEarlyReturnStaysACertainWarningWhenAThrowLeaksTheSameRent() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = {|#0:pool.Rent(n)|};
                if (n > 100)
                {
                    throw new InvalidOperationException();
                }

                if (condition)
                {
                    return;
                }

                pool.Return(buffer);
        """),
        [
            new DiagnosticResult(DiagnosticIds.NotReturned, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'buffer' is rented here but not returned to the pool on some path that leaves the method"),
        ]);

    [Fact]
    public Task AUseAfterReturnWithoutExceptionStaysACertainWarning() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                try
                {
                    pool.Return(buffer);
                    Work();
                }
                finally
                {
                    {|#0:buffer|}[0] = 0;
                }
        """),
        [
            new DiagnosticResult(DiagnosticIds.UseAfterReturn, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'buffer' is used after it was returned to the pool on a path that reaches this use"),
        ]);

    [Fact]
    public Task ALeaseLeftUndisposedWithoutExceptionStaysACertainWarning() => Verify.VerifyAsync(
        Sources.InMethod("""
                ArrayLease<byte> lease = {|#0:striped.RentLease(n)|};
                if (n > 100)
                {
                    throw new ArgumentOutOfRangeException(nameof(n));
                }

                Use(lease.Span);
        """),
        [
            new DiagnosticResult(DiagnosticIds.NotDisposed, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'lease' is rented here but not disposed on some path that leaves the method; rent it in a using declaration"),
        ]);

    [Fact]
    public Task AReturnToAnotherPoolInACatchKeepsItsId() => Verify.VerifyAsync(
        Sources.InMethod("""
                byte[] buffer = ArrayPool<byte>.Shared.Rent(16);
                try
                {
                    Work();
                }
                catch (InvalidOperationException)
                {
                    {|#0:StripedArrayPool<byte>.Shared.Return(buffer)|};
                    throw;
                }

                ArrayPool<byte>.Shared.Return(buffer);
        """),
        [
            new DiagnosticResult(DiagnosticIds.ReturnedToOtherPool, DiagnosticSeverity.Warning)
                .WithLocation(0)
                .WithMessage("'buffer' was rented from 'ArrayPool<byte>.Shared' but is returned to 'StripedArrayPool<byte>.Shared'"),
        ]);
}
