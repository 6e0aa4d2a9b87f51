namespace NativePool.Benchmarks.Peers;

/// <summary>Names a <see cref="StripedPoolAdapter{TBuild}"/> whose pool was built from an <c>IPooledObjectPolicy</c>, as Microsoft's pool is: every return runs the policy.</summary>
public readonly struct BuiltFromPolicy;
