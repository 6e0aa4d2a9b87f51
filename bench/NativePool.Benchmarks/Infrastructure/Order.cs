namespace NativePool.Benchmarks.Infrastructure;

/// <summary>The order the JSON benchmarks serialize (about 10 KiB of JSON).</summary>
public sealed record Order(int Id, string Customer, OrderLine[] Lines);
