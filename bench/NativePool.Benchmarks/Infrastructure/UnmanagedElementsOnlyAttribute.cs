namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// Marks a benchmark of a generic suite that only exists for unmanaged element types (our pinned MemoryPool is
/// <c>where T : unmanaged</c>); <see cref="BenchConfig"/> drops its cases for reference-holding element types.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class UnmanagedElementsOnlyAttribute : Attribute
{
}
