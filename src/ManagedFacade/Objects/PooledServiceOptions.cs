using System;

namespace NativePool;

/// <summary>How a pool registered with <c>AddStripedPooled</c> is shaped.</summary>
public sealed class PooledServiceOptions
{
    private int _maximumRetained = 1024;

    /// <summary>The strict bound on retained instances. Defaults to 1024, as Microsoft's <c>AddPool</c> does.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is below 1 or above <see cref="StripedObjectPool{T}.MaximumRetainedLimit"/>.</exception>
    public int MaximumRetained
    {
        get => _maximumRetained;
        set
        {
            StripedObjectPoolOptions.ValidateMaximumRetained(value, nameof(value));
            _maximumRetained = value;
        }
    }
}
