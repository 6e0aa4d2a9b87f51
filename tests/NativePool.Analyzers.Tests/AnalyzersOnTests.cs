using System.Threading.Tasks;
using NativePool.Analyzers.Tests.Infrastructure;
using Xunit;
using Verify = NativePool.Analyzers.Tests.Infrastructure.AnalyzerVerifier<NativePool.Analyzers.PoolUsageAnalyzer>;

namespace NativePool.Analyzers.Tests;

/// <summary>
/// The analyzers speak only in a project that turned them on (a direct reference of a NativePool package does): a
/// project that got the analyzer assembly through another project or package reports nothing, whatever its code does.
/// </summary>
public sealed class AnalyzersOnTests
{
    private static readonly string s_leak = Sources.InMethod("""
                byte[] buffer = pool.Rent(n);
                if (condition)
                {
                    return;
                }

                Use(buffer);
                pool.Return(buffer);
        """);

    [Fact]
    public Task AProjectThatTurnedTheAnalyzersOnGetsTheLeakReported() =>
        Verify.VerifyAsync(s_leak.Replace("byte[] buffer = pool.Rent(n);", "byte[] buffer = {|NP0003:pool.Rent(n)|};", System.StringComparison.Ordinal));

    [Fact]
    public Task AProjectThatOnlyInheritedTheAnalyzersGetsNothingReported() =>
        Verify.VerifyAsync(s_leak, [], analyzersOn: false);
}
