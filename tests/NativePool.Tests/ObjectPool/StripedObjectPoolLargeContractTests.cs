using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>The object-pool contract against Our pool with 256 retained: 2 stripes × 127 + 2 thread slots on a 2-core machine.</summary>
public sealed class StripedObjectPoolLargeContractTests : ObjectPoolContractTests
{
    protected override int MaximumRetained => 256;

    protected override ObjectPoolProvider CreateProvider(int maximumRetained) => new StripedObjectPoolProvider { MaximumRetained = maximumRetained };
}
