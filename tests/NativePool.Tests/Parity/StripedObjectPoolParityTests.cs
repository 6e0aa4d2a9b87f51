using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.Parity;

/// <summary>The object-pool parity suite against <see cref="StripedObjectPool{T}"/>, through <see cref="StripedObjectPoolProvider"/>.</summary>
public sealed class StripedObjectPoolParityTests : ObjectPoolParityTests
{
    protected override ObjectPoolProvider CreateProvider(int maximumRetained) =>
        new StripedObjectPoolProvider { MaximumRetained = maximumRetained };

    protected override void AssertPlainPool<T>(ObjectPool<T> pool) =>
        Assert.False(Assert.IsType<StripedObjectPool<T>>(pool).DisposesItems);

    protected override void AssertDisposingPool<T>(ObjectPool<T> pool) =>
        Assert.True(Assert.IsType<StripedObjectPool<T>>(pool).DisposesItems);
}
