using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>The object-pool contract against Our pool with 8 retained: 2 stripes × 3 + 2 thread slots on a 2-core machine.</summary>
public sealed class StripedObjectPoolContractTests : ObjectPoolContractTests
{
    protected override int MaximumRetained => 8;

    protected override ObjectPoolProvider CreateProvider(int maximumRetained) => new StripedObjectPoolProvider { MaximumRetained = maximumRetained };
}
