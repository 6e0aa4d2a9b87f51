namespace NativePool.Tests;

/// <summary>
/// Tests that measure the whole process (heap size, live pool ids) run in this collection: alone, after the parallel
/// ones, so other tests' allocations do not show up in their numbers.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class RunsAlone
{
    /// <summary>The collection's name.</summary>
    public const string Name = "Serial";
}
