namespace NativePool.Benchmarks.Peers;

/// <summary>Names a <see cref="StripedPoolAdapter{TBuild}"/> whose pool was built from a factory and no cleanup, as the Tedd-style pool is: a return runs nothing of the caller's.</summary>
public readonly struct BuiltFromFactory;
