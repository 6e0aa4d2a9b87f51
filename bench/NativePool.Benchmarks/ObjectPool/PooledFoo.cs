namespace NativePool.Benchmarks.ObjectPool;

/// <summary>The pooled object of the seed-000 object-pool benchmarks (aspnetcore's <c>Foo</c>): a small plain class.</summary>
public class PooledFoo
{
    public int Value { get; set; }
}
