using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

/// <summary>The object-pool contract against Our pool with 1 retained: one stripe of one, no thread slot.</summary>
public sealed class StripedObjectPoolSingleRetainedContractTests : ObjectPoolContractTests
{
    protected override int MaximumRetained => 1;

    protected override ObjectPoolProvider CreateProvider(int maximumRetained) => new StripedObjectPoolProvider { MaximumRetained = maximumRetained };
}
