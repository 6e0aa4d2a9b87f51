using BenchmarkDotNet.Running;

namespace NativePool.Benchmarks;

/// <summary>Runs the benchmarks BenchmarkSwitcher selects; exit code 1 when any benchmark failed.</summary>
public static class Program
{
    public static int Main(string[] args)
    {
        var summaries = BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args, BenchConfig.Create(args));
        foreach (var summary in summaries)
        {
            if (summary.HasCriticalValidationErrors || summary.Reports.Any(r => !r.Success))
            {
                return 1;
            }
        }

        return 0;
    }
}
