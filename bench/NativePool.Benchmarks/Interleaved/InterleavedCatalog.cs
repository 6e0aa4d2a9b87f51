using NativePool.Benchmarks.Interleaved.Scenarios;
using NativePool.Benchmarks.Interleaved.Scenarios.Applications;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>Every interleaved scenario, one goal each, in the order of the results table.</summary>
public static class InterleavedCatalog
{
    public static IReadOnlyList<InterleavedScenario> All() =>
    [
        .. RentReturnScenarios.Create(),
        .. FloorScenario.Create(),
        .. ScopedLeaseScenario.Create(),
        .. ObjectScopeScenario.Create(),
        .. MemoryLeaseScopeScenario.Create(),
        .. NativeScopeScenarios.Create(),
        .. CreatedPoolScenarios.Create(),
        .. GetReturnSingleScenario.Create(),
        .. DrainRefillScenarios.Create(),
        .. LoadedObjectScenarios.Create(),
        .. ContentionScenarios.Create(),
        BurstScenario.Create(),
        ProducerConsumerScenario.Create(),
        FreshThreadsScenario.Create(),
        .. MemoryPoolScenario.Create(),
        ListenerAttachedScenario.Create(),
        .. GrowingWriterScenarios.Create(),
        .. PooledCopyScenarios.Create(),
        .. CallPatternScenarios.Create(),
        .. AsyncHopScenario.Create(),
        FreshThreadArrayScenario.Create(),
        .. LibraryScenarios.Create(),
        PipeCopyScenario.Create(),
        JsonWriterScenario.Create(),
        .. StreamWriteScenarios.Create(),
        ReadOnlySequenceScenario.Create(),
        JsonSerializeScenario.Create(),
        .. StreamCopyScenarios.Create(),
        ParallelStreamsScenario.Create(),
        .. NativeScenarios.Create(),
    ];
}
