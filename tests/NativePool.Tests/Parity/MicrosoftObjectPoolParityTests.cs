using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.Parity;

/// <summary>The object-pool parity suite against Microsoft's pools, through <see cref="DefaultObjectPoolProvider"/>: the control.</summary>
public sealed class MicrosoftObjectPoolParityTests : ObjectPoolParityTests
{
    protected override ObjectPoolProvider CreateProvider(int maximumRetained) =>
        new DefaultObjectPoolProvider { MaximumRetained = maximumRetained };

    protected override void AssertPlainPool<T>(ObjectPool<T> pool) => Assert.IsType<DefaultObjectPool<T>>(pool);

    protected override void AssertDisposingPool<T>(ObjectPool<T> pool)
    {
        Assert.Equal("DisposableObjectPool`1", pool.GetType().Name);
        Assert.IsAssignableFrom<IDisposable>(pool);
    }
}
