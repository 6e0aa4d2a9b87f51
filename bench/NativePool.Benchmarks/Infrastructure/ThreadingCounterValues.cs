namespace NativePool.Benchmarks.Infrastructure;

/// <summary>Threading counters per benchmark invocation (what BenchmarkDotNet's threading diagnoser would report).</summary>
/// <param name="LockContentions">Monitor lock contentions per invocation.</param>
/// <param name="CompletedWorkItems">Thread-pool work items completed per invocation.</param>
/// <param name="Invocations">How many invocations the averages are over.</param>
public readonly record struct ThreadingCounterValues(double LockContentions, double CompletedWorkItems, long Invocations);
