namespace NativePool;

/// <summary>How a pool registered with <c>AddStripedPooled</c> is shaped: named options, one instance per pooled service, named by the service type's full name (<c>typeof(TService).FullName</c>).</summary>
/// <remarks>Setters never throw. The options are read and validated once, when the pool is first resolved (or when the host starts, with <c>ValidateOnStart</c>): a value out of range then throws <see cref="Microsoft.Extensions.Options.OptionsValidationException"/>.</remarks>
public sealed class PooledServiceOptions
{
    /// <summary>The bound on retained instances (as <see cref="StripedObjectPoolOptions.MaximumRetained"/>), 1 to <see cref="StripedObjectPool{T}.MaximumRetainedLimit"/>. Defaults to 1024, as Microsoft's <c>AddPooled</c> does.</summary>
    public int MaximumRetained { get; set; } = 1024;

    /// <summary>The pool's options: these, and the disposal the registration decides.</summary>
    internal StripedObjectPoolOptions ToPoolOptions(bool disposeItems) => new()
    {
        MaximumRetained = MaximumRetained,
        DisposeItems = disposeItems,
    };
}
