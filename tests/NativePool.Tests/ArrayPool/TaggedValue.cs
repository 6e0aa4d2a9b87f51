namespace NativePool.Tests.ArrayPool;

/// <summary>A struct that holds a reference: arrays of it are not pinned and must be cleared when a pool keeps them.</summary>
public readonly record struct TaggedValue(string Name, int Number);
