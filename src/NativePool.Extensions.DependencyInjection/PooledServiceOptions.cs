namespace NativePool;

/// <summary>How a pool registered with <c>AddStripedPooled</c> is shaped.</summary>
public sealed class PooledServiceOptions
{
    /// <summary>
    /// The bound on retained instances (as <see cref="StripedObjectPoolOptions.MaximumRetained"/>), 1 to <see cref="StripedObjectPool{T}.MaximumRetainedLimit"/>. Defaults to
    /// 1024, as Microsoft's <c>AddPool</c> does. Checked when the pool is registered, not by the setter.
    /// </summary>
    public int MaximumRetained { get; set; } = 1024;
}
