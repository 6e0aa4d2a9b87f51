namespace NativePool.Benchmarks.Infrastructure;

/// <summary>One line of the benchmark order.</summary>
public sealed record OrderLine(int Sku, string Name, int Quantity, decimal Price, string Location);
