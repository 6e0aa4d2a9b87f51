namespace NativePool;

/// <summary>What a pool does when it detects misuse.</summary>
public enum PoolMisusePolicy
{
    /// <summary>Throw an <see cref="System.InvalidOperationException"/> from the call that revealed the misuse.</summary>
    Throw = 0,

    /// <summary>Pass a <see cref="PoolMisuse"/> to the pool's misuse callback (if any) and carry on safely.</summary>
    Report = 1,

    /// <summary>Carry on safely without telling anyone (the misused item is not kept twice).</summary>
    Ignore = 2,
}
