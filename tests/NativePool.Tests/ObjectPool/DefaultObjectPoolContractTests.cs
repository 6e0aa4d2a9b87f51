using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>The object-pool contract against Microsoft's pools (DefaultObjectPool, and DisposableObjectPool for disposable types): the reference.</summary>
public sealed class DefaultObjectPoolContractTests : ObjectPoolContractTests
{
    protected override int MaximumRetained => 8;

    protected override bool ClosesMicrosoftsGaps => false;

    protected override ObjectPoolProvider CreateProvider(int maximumRetained) => new DefaultObjectPoolProvider { MaximumRetained = maximumRetained };
}
