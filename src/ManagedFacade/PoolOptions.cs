using System;

namespace NativePool;

/// <summary>
/// The options every NativePool pool shares: its name, trimming and the trim clock. <see cref="StripedPoolOptions"/>
/// adds the size-class shape of the array, memory and native pools; <see cref="StripedObjectPoolOptions"/> adds the
/// object pool's bound and disposal.
/// </summary>
/// <remarks>
/// <para>
/// Setters never throw. A pool calls <see cref="Validate"/> once, when it is created, and keeps its own copy of the
/// values: changing the options afterwards has no effect on it. A bad value makes the pool's constructor or
/// <c>Create</c> throw an <see cref="ArgumentOutOfRangeException"/> whose <see cref="ArgumentException.ParamName"/> is
/// the option's name.
/// </para>
/// <para>
/// An options object is not synchronized: configure it on one thread, or publish it to the creating thread before the
/// pool is created. <see cref="Clone"/> gives a copy to configure further without touching the original.
/// </para>
/// </remarks>
public abstract class PoolOptions
{
    /// <summary>Only the pools' own options derive from this class.</summary>
    private protected PoolOptions()
    {
    }

    /// <summary>Whether idle items are released after gen-2 GCs, on a timer and under memory pressure. Default true.</summary>
    public bool TrimmingEnabled { get; set; } = true;

    /// <summary>The idle timer's period; 1 ms to 1 day. Default 30 seconds.</summary>
    public TimeSpan TrimInterval { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How long items stay untouched before trimming releases them (half of a stripe per period); 0 to 1 day. A quarter
    /// of it applies under medium memory pressure; under high pressure everything is released. Default 60 seconds.
    /// </summary>
    public TimeSpan TrimAge { get; set; } = TimeSpan.FromSeconds(60);

    /// <summary>
    /// The trim clock: the idle timer runs on it and item ages are read from it. Null (the default) means
    /// <see cref="TimeProvider.System"/>; tests inject their own (a manual clock makes trimming deterministic).
    /// </summary>
    public TimeProvider? TimeProvider { get; set; }

    /// <summary>The pool's name in events and metrics (the <c>pool.name</c> tag). Null (the default) means the pool's type name.</summary>
    public string? Name { get; set; }

    /// <summary>The memory-pressure source; tests inject their own. Null means the GC's.</summary>
    internal Func<MemoryPressure>? PressureSource { get; set; }

    /// <summary>Checks every option: the shared ones, then the pool's own. Pools call it when they are created.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range; ParamName is the option's name.</exception>
    public void Validate()
    {
        ValidateOwnOptions();

        if (TrimInterval < TimeSpan.FromMilliseconds(1) || TrimInterval > TimeSpan.FromDays(1))
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(TrimInterval), "TrimInterval must be from 1 ms to 1 day.");
        }

        if (TrimAge < TimeSpan.Zero || TrimAge > TimeSpan.FromDays(1))
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(TrimAge), "TrimAge must be from 0 to 1 day.");
        }
    }

    /// <summary>Copies every option, the clock and the callbacks included (those by reference).</summary>
    /// <returns>A new options object of the same type with the same values; cast it to that type.</returns>
    public PoolOptions Clone() => (PoolOptions)MemberwiseClone();

    /// <summary>Checks the options the derived pool adds.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A value is out of range; ParamName is the option's name.</exception>
    private protected abstract void ValidateOwnOptions();
}
