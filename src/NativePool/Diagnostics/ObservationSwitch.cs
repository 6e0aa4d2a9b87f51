using System.Runtime.CompilerServices;

namespace NativePool;

/// <summary>
/// Whether a facade's hot path checks <see cref="PoolObservation.IsActive"/>: a type argument the JIT specialises on,
/// so the check costs nothing where it is switched off.
/// </summary>
/// <remarks>
/// Every public rent and return uses <see cref="ObservationChecked"/>. <see cref="ObservationSkipped"/> exists so the
/// interleaved benchmark can time the very same code without the check and show what the check costs when nobody
/// observes pools.
/// </remarks>
internal interface IObservationSwitch
{
    /// <summary>Whether the hot path should read <see cref="PoolObservation.IsActive"/>.</summary>
    public static abstract bool IsChecked { get; }
}

/// <summary>The hot path reads the observation flag (every public call).</summary>
internal readonly struct ObservationChecked : IObservationSwitch
{
    /// <inheritdoc />
    public static bool IsChecked
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => true;
    }
}

/// <summary>The hot path skips the observation flag (the benchmark's control only).</summary>
internal readonly struct ObservationSkipped : IObservationSwitch
{
    /// <inheritdoc />
    public static bool IsChecked
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => false;
    }
}
