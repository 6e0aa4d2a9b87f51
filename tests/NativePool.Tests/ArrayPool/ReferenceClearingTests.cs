using System.Runtime.CompilerServices;

namespace NativePool.Tests.ArrayPool;

/// <summary>
/// Arrays of reference-holding elements never keep objects alive while they sit in a <see cref="StripedArrayPool{T}"/>
/// (whatever <c>clearArray</c> says) when <see cref="StripedArrayPoolOptions.ClearReferencesOnReturn"/> is turned on;
/// by default, like <see cref="ArrayPool{T}.Shared"/>, the reference, the pool keeps them alive until the array is
/// rented and overwritten.
/// </summary>
public class ReferenceClearingTests
{
    public static TheoryData<string> Pools => new() { "striped shared", "striped instance", "striped, references cleared", "BCL shared" };

    [Theory]
    [MemberData(nameof(Pools))]
    public void ObjectsInAKeptObjectArrayAreReleasedOnlyIfThePoolClearsReferences(string pool)
    {
        AssertReleased(PoolOf<object>(pool), expectReleased: pool.EndsWith("cleared", StringComparison.Ordinal), store: static o => o);
    }

    [Theory]
    [MemberData(nameof(Pools))]
    public void ObjectsInAKeptStructArrayAreReleasedOnlyIfThePoolClearsReferences(string pool)
    {
        AssertReleased(PoolOf<TaggedValue>(pool), expectReleased: pool.EndsWith("cleared", StringComparison.Ordinal), store: static o => new TaggedValue((string)o, 1));
    }

    private static ArrayPool<T> PoolOf<T>(string name) => name switch
    {
        "striped shared" => StripedArrayPool<T>.Shared,
        "striped instance" => StripedArrayPool<T>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false }),
        "striped, references cleared" => StripedArrayPool<T>.Create(new StripedArrayPoolOptions { TrimmingEnabled = false, ClearReferencesOnReturn = true }),
        _ => ArrayPool<T>.Shared,
    };

    private static void AssertReleased<T>(ArrayPool<T> pool, bool expectReleased, Func<object, T> store)
    {
        // This thread's rent right after its return gets the kept array back, so the pool still holds it during the GC.
        (T[] array, WeakReference referent) = RentFillAndReturn(pool, store);
        Finalization.CollectAndFinalize();
        Finalization.CollectAndFinalize();

        Assert.Equal(expectReleased, !referent.IsAlive);
        T[] again = pool.Rent(array.Length);
        Assert.Same(array, again);
        again.AsSpan().Clear();
        pool.Return(again);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static (T[] Array, WeakReference Referent) RentFillAndReturn<T>(ArrayPool<T> pool, Func<object, T> store)
    {
        T[] array = pool.Rent(32);
        string referent = new('x', 10);
        array.AsSpan().Fill(store(referent));
        pool.Return(array, clearArray: false);
        #pragma warning disable NP0002 // The caller checks what the return left in the array.
        return (array, new WeakReference(referent));
        #pragma warning restore NP0002
    }
}
