using System;
using System.Numerics;

namespace NativePool;

/// <summary>How one <see cref="StripedPool{T}"/> is shaped and trimmed. Validated by the facades that build it.</summary>
internal sealed class StripedPoolSettings
{
    private readonly RetentionBudget? _budget;
    private readonly bool _budgetSet;

    /// <summary>The default stripe count: the processor count rounded up to a power of two, at most 64.</summary>
    public static int DefaultStripeCount { get; } =
        (int)Math.Min(64, BitOperations.RoundUpToPowerOf2((uint)Math.Max(1, Environment.ProcessorCount)));

    /// <summary>What the pool hands out, for events and metrics: <c>array</c>, <c>memory</c>, <c>object</c>, <c>native</c> or <c>stream</c>.</summary>
    public string Kind { get; init; } = "object";

    /// <summary>The pool's name in events and metrics.</summary>
    public string Name { get; init; } = "";

    /// <summary>Size classes (1 for an object pool).</summary>
    public required int ClassCount { get; init; }

    /// <summary>Items each stripe of class c holds.</summary>
    public required int[] CapacityPerStripe { get; init; }

    /// <summary>Bytes one item of class c holds (statistics only); null means 0.</summary>
    public long[]? ItemBytes { get; init; }

    /// <summary>A power of two from 1 to 64.</summary>
    public int StripeCount { get; init; } = DefaultStripeCount;

    /// <summary>Items each thread's magazine of class c holds beyond its slot (0: no magazine); null means none.</summary>
    public int[]? MagazineCapacity { get; init; }

    /// <summary>The exact number of items a class's stripes hold together (-1: stripes × <see cref="CapacityPerStripe"/>), enforced by the stripes' capacities with no shared counter.</summary>
    /// <remarks>Thread slots come on top; a pool with a limit (the object pools: stripes plus one slot per thread) has no magazines.</remarks>
    public int RetentionLimit { get; init; } = -1;

    /// <summary>Whether a rent or return that finds stripes busy retries for as long as they stay busy (object pools, whose items are expensive; see <see cref="StripeSet{T}"/>).</summary>
    public bool WaitsForBusyStripes { get; init; }

    /// <summary>Whether a thread's slots stay closed until its second rent, so a thread that rents and returns once and ends leaves its item on the stripes (size-class pools);
    /// object pools, whose bound counts the slots, open them at once.</summary>
    public bool ColdThreadStart { get; init; }

    /// <summary>How many threads may park items in their thread slots; -1 for every thread.</summary>
    public int ThreadSlotTokens { get; init; } = -1;

    /// <summary>Whether the Gen2 callback and the idle timer trim the pool.</summary>
    public bool TrimmingEnabled { get; init; } = true;

    /// <summary>The idle timer's period.</summary>
    public TimeSpan TrimInterval { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>How long items stay untouched before trimming takes them.</summary>
    public TimeSpan TrimAge { get; init; } = TimeSpan.FromSeconds(60);

    /// <summary>The trim clock; tests inject their own.</summary>
    public TimeProvider Clock { get; init; } = TimeProvider.System;

    /// <summary>The memory-pressure source (tests inject their own).</summary>
    public Func<MemoryPressure> Pressure { get; init; } = GCMemoryPressure.Read;

    /// <summary>The byte budget the stripes count against: the process's (<see cref="RetentionBudget.Process"/>, null when none) unless a test injects its own.</summary>
    /// <remarks>Read when the pool is built, so a malformed process limit fails the pool's construction, and settings naming their own budget never read it.</remarks>
    public RetentionBudget? Budget
    {
        get => _budgetSet ? _budget : RetentionBudget.Process;
        init
        {
            _budget = value;
            _budgetSet = true;
        }
    }

    /// <summary>The magazine of a class of <paramref name="itemBytes"/>-byte items: up to <see cref="MaximumMagazineItems"/> items and <see cref="MagazineBytes"/> bytes;
    /// none for items of half that budget or more (the slot is enough, and a thread must not park megabytes).</summary>
    public static int MagazineCapacityFor(long itemBytes)
    {
        long byBytes = MagazineBytes / Math.Max(1, itemBytes);
        return byBytes < 2 ? 0 : (int)Math.Min(MaximumMagazineItems, byBytes);
    }

    /// <summary>The most items a thread's magazine of one class holds.</summary>
    public const int MaximumMagazineItems = 16;

    /// <summary>The most bytes a thread's magazine of one class holds.</summary>
    public const long MagazineBytes = 64 * 1024;
}
