using NativePool.Benchmarks.Infrastructure;
using NativePool.Benchmarks.Peers;

namespace NativePool.Benchmarks.Objects;

/// <summary>
/// The cheapest object pool there is, for floor rows: each thread keeps the objects it returned on a stack of its own
/// in thread statics, with no claim, no check, no bound shared between threads and no statistics, and builds an object
/// when its stack is empty. No pool that threads can share can be cheaper, so a row run through it against
/// <see cref="MicrosoftObjects"/> shows the best ratio any pool could reach in that row's shape.
/// </summary>
public readonly struct FreeObjects : IObjectPoolAdapter<PooledObject>
{
    private const int Capacity = 2048;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static PooledObject[]? t_items;

    [ThreadStatic]
    private static int t_count;
#pragma warning restore IDE1006

    public PooledObject Take()
    {
        PooledObject[]? items = t_items;
        int count = t_count;
        if (items is null || count == 0)
        {
            return new PooledObject();
        }

        t_count = count - 1;
        return items[count - 1];
    }

    public void Give(PooledObject item)
    {
        PooledObject[] items = t_items ??= new PooledObject[Capacity];
        int count = t_count;
        if (count < items.Length)
        {
            items[count] = item;
            t_count = count + 1;
        }
    }
}
