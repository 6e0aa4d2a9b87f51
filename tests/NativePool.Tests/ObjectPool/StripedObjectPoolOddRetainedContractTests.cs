using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>The object-pool contract against Our pool with 5 retained: 2 stripes × 2 + 1 thread slot on a 2-core machine.</summary>
public sealed class StripedObjectPoolOddRetainedContractTests : ObjectPoolContractTests
{
    protected override int MaximumRetained => 5;

    protected override ObjectPoolProvider CreateProvider(int maximumRetained) => new StripedObjectPoolProvider { MaximumRetained = maximumRetained };
}
