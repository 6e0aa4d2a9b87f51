using System;
using System.Buffers;
using System.Collections.Generic;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>A drop-in <see cref="ArrayPool{T}"/> on the NativePool engine: a per-thread slot per size class in front of per-core, cache-line padded, pinned stripes. Use <see cref="Shared"/> where you used <see cref="ArrayPool{T}.Shared"/>.</summary>
/// <remarks>
/// <para>
/// Contract: the BCL's. <c>Rent(0)</c> returns <see cref="Array.Empty{T}"/>; <c>Rent(n)</c> returns an array of at least
/// <c>n</c> elements (the next power of two from 16 up) whose contents are undefined; requests longer than
/// <see cref="MaximumArrayLength"/> get an array of exactly <c>n</c> elements that is dropped when returned.
/// <c>Return(null)</c> throws <see cref="ArgumentNullException"/>; an array whose length no size class has, or whose type
/// is not exactly <typeparamref name="T"/>[] (array covariance), throws <see cref="ArgumentException"/>; returning an
/// array that is already in the pool throws <see cref="InvalidOperationException"/> when the pool can see it cheaply (it
/// is the thread's or the stripe's most recent), and wherever it is in the pool when the pool is guarded
/// (<see cref="StripedArrayPoolOptions.Guarded"/>). No pool detects a stale return, made after someone else rented the
/// same array again (it looks like that renter's return); <see cref="RentLease"/> and <see cref="RentScoped(int, bool)"/> leases
/// never return twice. Never blocks, never returns null; rent and return may happen on different threads.
/// </para>
/// <para>
/// Arrays of unmanaged elements (byte, char, int, any struct without references) live on the pinned object heap: they
/// never move, so pinning them is free. Arrays of reference-holding elements are ordinary, and are cleared when returned
/// with <c>clearArray: true</c>, or always when <see cref="StripedArrayPoolOptions.ClearReferencesOnReturn"/> is on.
/// </para>
/// <para>
/// Concurrency: the engine's (a thread's own slot, then the current core's stripe, claimed with one compare-and-swap,
/// then the nearest others); only the slot is inlined. Idle arrays are released after gen-2 GCs, on a timer, and at once
/// under high memory pressure.
/// </para>
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
public sealed class StripedArrayPool<T> : ArrayPool<T>, IObservationSubscriber
{
    private static readonly StripedArrayPool<T> s_shared = CreateSharedForProcess();

    private readonly int _maximumArrayLength;
    private readonly int _classCount;
    private readonly bool _clearOnReturn;
    private readonly ArrayGuard<T>? _guard;
    private readonly PoolMisusePolicy _doubleReturnPolicy;
    private readonly Action<PoolMisuse>? _onMisuse;

    /// <summary>Why this pool is the stand-in <see cref="Shared"/> of a process whose settings are malformed, or null.</summary>
    private readonly string? _rejection;

    /// <summary>The engine and the inlined paths' limits, closed while anybody observes pools (the return's also while the pool clears on return).</summary>
    private SizeClassCore<T[]> _core;

    private StripedArrayPool(StripedArrayPoolOptions options, bool zeroNewArrays, bool isShared)
    {
        if (options is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(options));
        }

        options.Validate();

        _classCount = SizeClasses.GetIndex(options.MaximumArrayLength) + 1;
        _maximumArrayLength = SizeClasses.GetLength(_classCount - 1);
        _clearOnReturn = options.ClearOnReturn || (options.ClearReferencesOnReturn && RuntimeHelpers.IsReferenceOrContainsReferences<T>());

        // The process switch is read before the engine exists: a malformed one fails the construction with nothing built.
        bool guarded = options.Guarded || GuardedMode.IsOnProcessWide;
        StripedPoolSettings settings = options.ToSettings(
            _classCount,
            static c => (long)SizeClasses.GetLength(c) * Unsafe.SizeOf<T>(),
            kind: options.WithoutThreadTier ? "stream" : "array",
            name: options.Name ?? $"StripedArrayPool<{typeof(T).Name}>{(isShared ? ".Shared" : "")}",
            threadSlotTokens: options.WithoutThreadTier ? 0 : -1);
        _core = new SizeClassCore<T[]>(
            new StripedPool<T[]>(
                settings,
                zeroNewArrays
                    ? static sizeClass => PinnedArray<T>.AllocateZeroed(SizeClasses.GetLength(sizeClass))
                    : static sizeClass => PinnedArray<T>.Allocate(SizeClasses.GetLength(sizeClass))),
            isShared,
            rentLimit: 0,
            returnClasses: 0);
        _doubleReturnPolicy = options.DoubleReturnPolicy;
        _onMisuse = options.OnMisuse;
        if (guarded || options.TrackLeaks)
        {
            _guard = new ArrayGuard<T>(_core.Engine, detectMisuse: guarded, keepStacks: true, options.MisusePolicy, options.OnMisuse);
            PoolObservation.AddGuardedPool();
        }

        PoolRegistry.Register(_core.Engine);
        PoolObservation.Subscribe(this);
    }

    /// <summary>The stand-in <see cref="Shared"/> of a process whose settings are malformed: every rent and return throws <see cref="InvalidOperationException"/> with <paramref name="rejection"/>.</summary>
    /// <remarks>It never subscribes to observation, so its limits stay 0 and every operation reaches the throwing misses: working pools pay nothing, and <see cref="Shared"/>
    /// stays a plain load of a <c>static readonly</c> field (a null-checking getter loses the exact type, and with it the devirtualized, inlined rent).</remarks>
    private StripedArrayPool(string rejection)
    {
        _rejection = rejection;
        _classCount = 1;
        _maximumArrayLength = SizeClasses.GetLength(0);
        _core = new SizeClassCore<T[]>(
            new StripedPool<T[]>(
                new StripedPoolSettings
                {
                    Kind = "array",
                    Name = $"StripedArrayPool<{typeof(T).Name}>.Shared",
                    ClassCount = 1,
                    CapacityPerStripe = [1],
                    TrimmingEnabled = false,
                    Budget = null,
                },
                static sizeClass => PinnedArray<T>.Allocate(SizeClasses.GetLength(sizeClass))),
            isShared: true,
            rentLimit: 0,
            returnClasses: 0);
    }

    /// <summary>The process's <see cref="Shared"/>: built with its settings, or the stand-in that throws when one of them is malformed.</summary>
    private static StripedArrayPool<T> CreateSharedForProcess()
    {
        try
        {
            return CreateShared(SharedDoubleReturnPolicy.Value);
        }
        catch (InvalidOperationException malformed)
        {
            // Not thrown from the static initializer, where it would become a TypeInitializationException of this type
            // and break independent pools too.
            return new StripedArrayPool<T>(malformed.Message);
        }
    }

    /// <summary>The process-wide pool: the same engine and fast path as <see cref="Create()"/> instances.</summary>
    /// <remarks>
    /// A double return it sees is handled by the process-wide policy, read once: the runtime setting
    /// <c>NativePool.SharedDoubleReturnPolicy</c> or else the environment variable <c>NATIVEPOOL_SHARED_DOUBLE_RETURN</c>,
    /// <c>Throw</c>, <c>Report</c> (the default: the array is kept once and the <c>DoubleReturn</c> event written, as code
    /// moved from <c>ArrayPool&lt;T&gt;.Shared</c> expects no exception) or <c>Ignore</c>. Any other value, or a malformed
    /// retained-bytes limit or guarded switch, makes every rent and return on <see cref="Shared"/> throw
    /// <see cref="InvalidOperationException"/> naming the setting and the value.
    /// </remarks>
    public static new StripedArrayPool<T> Shared => s_shared;

    /// <summary>The pool's name in events and metrics.</summary>
    public string Name => _core.Engine.Name;

    /// <summary>Whether this pool tracks its arrays (guarded mode, or leak tracking).</summary>
    public bool IsTracking => _guard is not null;

    /// <summary>The largest array length this pool keeps; longer rents are allocated exactly and dropped on return.</summary>
    public int MaximumArrayLength => _maximumArrayLength;

    /// <summary>The number of per-core stripes of each size class.</summary>
    public int StripeCount => _core.Engine.StripeCount;

    /// <summary>Whether arrays of <typeparamref name="T"/> are allocated on the pinned object heap.</summary>
    public static bool ArraysArePinned => PinnedArray<T>.IsPinned;

    /// <summary>The engine (tests and benchmarks).</summary>
    internal StripedPool<T[]> Engine => _core.Engine;

    /// <summary>What this pool does when it sees a double return (tests).</summary>
    internal PoolMisusePolicy DoubleReturnPolicy => _doubleReturnPolicy;

    /// <summary>A pool made as <see cref="Shared"/> is, with <paramref name="doubleReturnPolicy"/>: <see cref="Shared"/> itself, and tests of each policy (the process's is read once).</summary>
    internal static StripedArrayPool<T> CreateShared(PoolMisusePolicy doubleReturnPolicy) =>
        new(new StripedArrayPoolOptions { DoubleReturnPolicy = doubleReturnPolicy }, zeroNewArrays: false, isShared: true);

    /// <summary>Creates an independent pool with the default options.</summary>
    /// <returns>A new pool.</returns>
    public static new StripedArrayPool<T> Create() => new(new StripedArrayPoolOptions(), zeroNewArrays: true, isShared: false);

    /// <summary>Creates an independent pool shaped like <see cref="ArrayPool{T}.Create(int, int)"/>, so code written against the BCL overload gets a striped pool.</summary>
    /// <remarks>
    /// <see cref="StripedArrayPoolOptions.MaximumArrayLength"/> is <paramref name="maxArrayLength"/> clamped to 16 … 2^30
    /// (as the BCL clamps it); the stripes are the default count lowered to the largest power of two not above
    /// <paramref name="maxArraysPerBucket"/>, each keeping <paramref name="maxArraysPerBucket"/> divided by the stripes,
    /// rounded up (at most 65 536); the byte budget is unbounded, as the BCL has none. Each thread's slots come on top.
    /// </remarks>
    /// <param name="maxArrayLength">The largest array length to keep; more than 0.</param>
    /// <param name="maxArraysPerBucket">The arrays to keep per size class; more than 0.</param>
    /// <returns>A new pool.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maxArrayLength"/> or <paramref name="maxArraysPerBucket"/> is 0 or negative (as the BCL throws).</exception>
    public static new StripedArrayPool<T> Create(int maxArrayLength, int maxArraysPerBucket) =>
        new(OptionsFromBclShape(maxArrayLength, maxArraysPerBucket, StripedPoolSettings.DefaultStripeCount), zeroNewArrays: true, isShared: false);

    /// <summary>Creates an independent pool.</summary>
    /// <param name="options">The shape of the pool; copied and validated now.</param>
    /// <returns>A new pool.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; the exception's ParamName names it.</exception>
    public static StripedArrayPool<T> Create(StripedArrayPoolOptions options) => new(options, zeroNewArrays: true, isShared: false);

    /// <summary>The length <see cref="Rent()"/> and <see cref="RentScoped()"/> rent: 4 KiB worth of elements (4096 bytes, 1024 ints), as <see cref="System.Buffers.MemoryPool{T}.Shared"/>'s <c>Rent()</c> does.</summary>
    public static int DefaultLength => 1 + (4095 / Unsafe.SizeOf<T>());

    /// <summary>Rents an array of at least <see cref="DefaultLength"/> elements: <c>StripedArrayPool&lt;byte&gt;.Shared.Rent()</c>.</summary>
    /// <returns>An array of at least <see cref="DefaultLength"/> elements; its contents are undefined.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public T[] Rent() => Rent(DefaultLength, CurrentCache());

    /// <summary>Rents an array of at least <paramref name="minimumLength"/> elements; its contents are undefined.</summary>
    /// <param name="minimumLength">The minimum length, 0 or more.</param>
    /// <returns>An array of at least <paramref name="minimumLength"/> elements (the empty array for 0).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="minimumLength"/> is negative.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public override T[] Rent(int minimumLength) => Rent(minimumLength, CurrentCache());

    /// <summary>Returns an array rented from this pool.</summary>
    /// <param name="array">The array; its length must be one this pool hands out.</param>
    /// <param name="clearArray">Clear the array before the pool keeps it.</param>
    /// <exception cref="ArgumentNullException"><paramref name="array"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="array"/>'s length is not a size class of this pool, or its type is not exactly <typeparamref name="T"/>[] (an array of a derived element type seen as <typeparamref name="T"/>[] through array covariance).</exception>
    /// <exception cref="InvalidOperationException"><paramref name="array"/> is already in the pool (returned twice).</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public override void Return(T[] array, bool clearArray = false) => Return(array, clearArray, CurrentCache());

    /// <summary>This pool's cache on the calling thread if the inlined paths may use it, else null (they then miss): <see cref="Shared"/>'s thread static, or the thread's memo.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ThreadCache<T[]>? CurrentCache() => _core.Current(ReferenceEquals(this, s_shared));

    /// <summary>The rent with the cache already read: one compare (the rent limit folds the observation state) and the slot's take inlined, the rest in <see cref="RentMiss"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal T[] Rent(int minimumLength, ThreadCache<T[]>? cache) =>
        _core.TryTake(cache, minimumLength, SizeClasses.MinimumShift) ?? RentMiss(minimumLength, cache);

    /// <summary>The return with the cache already read: parks the array in its class's empty slot (the return limit folds observation and clearing), the rest in <see cref="ReturnMiss"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void Return(T[]? array, bool clearArray, ThreadCache<T[]>? cache)
    {
        if (cache is not null && array is not null && !clearArray)
        {
            int length = array.Length;
            int sizeClass = SizeClasses.GetIndex(length);

            // The exact-type check folds away for value types: an array of unmanaged or struct elements is exactly T[].
            if (_core.ParksClass(sizeClass) && SizeClasses.GetLength(sizeClass) == length &&
                (typeof(T).IsValueType || array.GetType() == typeof(T[])) && cache.TryPark(sizeClass, array))
            {
                return;
            }
        }

        _ = ReturnMiss(array, clearArray, cache);
    }

    /// <summary><see cref="Return(T[], bool)"/>, telling whether the pool kept <paramref name="array"/>, for a pool without a thread tier (the inlined path cannot tell).</summary>
    /// <returns>False when the pool let it go: too long, every place full, or a misuse the policy reported.</returns>
    internal bool ReturnKept(T[] array)
    {
        Debug.Assert(CurrentCache() is null, "Only a pool without a thread tier returns here.");
        return ReturnMiss(array, clearArray: false, cache: null);
    }

    /// <summary>Every rent the inlined path does not serve, with the cache it read (see <see cref="SizeClassCore{TItem}.RentMiss"/>).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T[] RentMiss(int minimumLength, ThreadCache<T[]>? cache)
    {
        ThrowIfRejected();
        T[] array = (uint)(minimumLength - 1) < (uint)_maximumArrayLength
            ? _core.RentMiss(minimumLength, SizeClasses.MinimumShift, cache, ReferenceEquals(this, s_shared))
            : RentUncommon(minimumLength);

        if (PoolObservation.IsActive)
        {
            OnRentObserved(array);
        }

        return array;
    }

    /// <summary>Every return the inlined path does not take, with the cache it read (see <see cref="SizeClassCore{TItem}.ReturnMiss"/>).</summary>
    /// <returns>Whether the pool kept the array.</returns>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool ReturnMiss(T[]? array, bool clearArray, ThreadCache<T[]>? cache)
    {
        ThrowIfRejected();

        if (array is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(array));
        }

        if (PoolObservation.IsActive && !OnReturnObserved(array, clearArray))
        {
            return false;
        }

        int length = array.Length;
        int sizeClass = SizeClasses.GetIndex(length);
        if ((uint)sizeClass < (uint)_classCount && SizeClasses.GetLength(sizeClass) == length)
        {
            // A U[] seen as T[] through array covariance (a string[] returned to an object pool) must not be kept: the
            // next renter could not store a T in it. (AsSpan made the same check, with an undocumented exception.)
            if (!typeof(T).IsValueType && array.GetType() != typeof(T[]))
            {
                ThrowHelper.ThrowArgumentArrayType(nameof(array), array.GetType(), typeof(T[]));
            }

            // A guarded pool poisons returned arrays instead, and clears them when they are next rented.
            if ((clearArray || _clearOnReturn) && (_guard is null || !_guard.PoisonsOnReturn))
            {
                // The array's exact type is checked above, so the span needs no covariance check of its own.
                MemoryMarshal.CreateSpan(ref MemoryMarshal.GetArrayDataReference(array), length).Clear();
            }

            ReturnResult result = _core.ReturnMiss(sizeClass, array, cache, ReferenceEquals(this, s_shared));
            if (result == ReturnResult.Duplicate)
            {
                OnDuplicateReturn(array);
            }

            return result == ReturnResult.Stored;
        }

        ReturnUncommon(array);
        return false;
    }

    /// <summary>Closes the inlined paths while anybody observes pools (they then miss, and the miss raises the events).</summary>
    /// <param name="observed">Whether a listener is attached or a guarded pool exists.</param>
    void IObservationSubscriber.OnObservationChanged(bool observed) =>
        _core.SetLimits(observed ? 0 : _maximumArrayLength, observed || _clearOnReturn ? 0 : _classCount);

    /// <summary>Rents an array for a synchronous scope: <c>using var scope = pool.RentScoped(n);</c>.</summary>
    /// <param name="minimumLength">The length the scope's <see cref="ArrayScope{T}.Span"/> has, 0 or more.</param>
    /// <param name="clearOnReturn">Clear the array when the scope returns it.</param>
    /// <returns>A scope whose <see cref="ArrayScope{T}.Length"/> is <paramref name="minimumLength"/>; disposing it returns the array (disposing a copy returns it again unless the pool is guarded; analyzer NP0012 rejects copies).</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="minimumLength"/> is negative.</exception>
    /// <remarks>A <see langword="ref"/> struct, so every copy stays on this thread; for <see cref="Memory{T}"/> or asynchronous use, rent with <see cref="RentLease"/>.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ArrayScope<T> RentScoped(int minimumLength, bool clearOnReturn = false)
    {
        // The scope keeps this pool's cache of the thread: it is disposed on this thread and returns through it without
        // a second thread-static access. A miss publishes the cache, so read it again then.
        ThreadCache<T[]>? cache = CurrentCache();
        T[] array = Rent(minimumLength, cache);
        return new ArrayScope<T>(array.Length == 0 ? null : this, array, minimumLength, clearOnReturn, cache ?? CurrentCache(), _guard is not null);
    }

    /// <summary>Rents an array of <see cref="DefaultLength"/> elements for a synchronous scope, as <see cref="RentScoped(int, bool)"/>: <c>using var lease = pool.RentScoped();</c>.</summary>
    /// <returns>A scope whose <see cref="ArrayScope{T}.Length"/> is <see cref="DefaultLength"/>.</returns>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ArrayScope<T> RentScoped() => RentScoped(DefaultLength);

    /// <summary>Rents an array under a lease that may outlive the current method: stored, awaited across, used as memory.</summary>
    /// <param name="minimumLength">The length the lease's <see cref="ArrayLease{T}.Span"/> has, 0 or more.</param>
    /// <param name="clearOnReturn">Clear the array when the lease returns it.</param>
    /// <returns>A lease whose <see cref="ArrayLease{T}.Length"/> is <paramref name="minimumLength"/>.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="minimumLength"/> is negative.</exception>
    /// <remarks>Copies may be disposed on different threads at once: an atomic generation check lets exactly one return the array.</remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ArrayLease<T> RentLease(int minimumLength, bool clearOnReturn = false)
    {
        T[] array = Rent(minimumLength);
        return new ArrayLease<T>(array.Length == 0 ? null : this, array, minimumLength, clearOnReturn);
    }

    /// <summary>Releases idle arrays now, as the periodic trim would (everything under high memory pressure).</summary>
    /// <returns>How many arrays were released.</returns>
    /// <exception cref="InvalidOperationException">This is <see cref="Shared"/> and a process setting it reads is malformed.</exception>
    public int Trim() => CheckedEngine.Trim();

    /// <summary>Releases every pooled array now, whatever its age.</summary>
    /// <returns>How many arrays were released.</returns>
    /// <exception cref="InvalidOperationException">This is <see cref="Shared"/> and a process setting it reads is malformed.</exception>
    public int Clear() => CheckedEngine.Trim(releaseAll: true);

    /// <summary>Where the arrays rented and not yet returned were rented (leak tracking or guarded mode; otherwise empty).</summary>
    /// <returns>One rent stack per outstanding array; each is also raised as a <c>Leak</c> event of the <c>NativePool</c> event source.</returns>
    /// <exception cref="InvalidOperationException">This is <see cref="Shared"/> and a process setting it reads is malformed.</exception>
    public IReadOnlyList<StackTrace> GetLeaks()
    {
        ThrowIfRejected();
        return _guard is null ? [] : _guard.GetLeaks();
    }

    /// <summary>Counts <paramref name="array"/>, handed out and never to be returned (its holder was collected), as dropped; it may still be referenced, so it is never pooled again.</summary>
    internal void Abandon(T[] array)
    {
        if (array.Length == 0)
        {
            return;
        }

        _guard?.Forget(array);
        _core.Engine.RecordAbandoned();
        if (NativePoolEventSource.Log.IsEnabled())
        {
            int sizeClass = array.Length <= _maximumArrayLength ? SizeClasses.GetIndex(array.Length) : -1;
            NativePoolEventSource.Log.BufferDropped(
                NativePoolEventSource.ItemId(array), ByteSize(array), _core.Engine.Id, sizeClass, BufferDroppedReason.Abandoned, _core.Engine.Name);
        }
    }

    /// <summary>Reads the pool's counters (summed over threads and stripes; exact when the pool is quiet).</summary>
    /// <returns>A snapshot.</returns>
    /// <exception cref="InvalidOperationException">This is <see cref="Shared"/> and a process setting it reads is malformed.</exception>
    public PoolStatistics GetStatistics() => PoolStatistics.From(CheckedEngine.ReadCounts());

    /// <summary>The engine, for the public members that reach it without the rent and return paths' check (see <see cref="ThrowIfRejected"/>).</summary>
    private StripedPool<T[]> CheckedEngine
    {
        get
        {
            ThrowIfRejected();
            return _core.Engine;
        }
    }

    /// <summary>In the stand-in <see cref="Shared"/> of a malformed process setting: writes the rejection event and throws its exception, on every use.</summary>
    private void ThrowIfRejected()
    {
        if (_rejection is not null)
        {
            NativePoolEventSource.Log.SettingRejected(_rejection);
            ThrowHelper.ThrowInvalidOperation(_rejection);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private T[] RentUncommon(int minimumLength)
    {
        if (minimumLength == 0)
        {
            return Array.Empty<T>();
        }

        if (minimumLength < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(minimumLength), "The length to rent must not be negative.");
        }

        // Longer than the largest class: allocated at the exact length, never pooled. Counted only once the allocation
        // succeeded, so an OutOfMemoryException (e.g. for a length over Array.MaxLength) leaves no phantom rent behind.
        T[] array = PinnedArray<T>.Allocate(minimumLength);
        _core.Engine.RecordUnpooledRent();
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferAllocated(
                NativePoolEventSource.ItemId(array), ByteSize(array), _core.Engine.Id, -1, BufferAllocatedReason.Oversize, _core.Engine.Name);
        }

        return array;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnUncommon(T[] array)
    {
        if (array.Length == 0)
        {
            // The empty array is never pooled; returning it is allowed and does nothing (as in the BCL).
            return;
        }

        if (array.Length > _maximumArrayLength)
        {
            _core.Engine.RecordUnpooledReturn();
            if (NativePoolEventSource.Log.IsEnabled())
            {
                NativePoolEventSource.Log.BufferDropped(
                    NativePoolEventSource.ItemId(array), ByteSize(array), _core.Engine.Id, -1, BufferDroppedReason.Oversize, _core.Engine.Name);
            }

            return;
        }

        ThrowHelper.ThrowArgument(
            nameof(array),
            $"An array of length {array.Length} was not rented from this pool: its lengths are powers of two from 16 to {_maximumArrayLength}.");
    }

    /// <summary>The options <see cref="Create(int, int)"/> uses (its remarks give the mapping).</summary>
    internal static StripedArrayPoolOptions OptionsFromBclShape(int maxArrayLength, int maxArraysPerBucket, int defaultStripes)
    {
        if (maxArrayLength <= 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(maxArrayLength), "maxArrayLength must be greater than 0.");
        }

        if (maxArraysPerBucket <= 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(maxArraysPerBucket), "maxArraysPerBucket must be greater than 0.");
        }

        int stripes = Math.Min(defaultStripes, 1 << BitOperations.Log2((uint)maxArraysPerBucket));
        return new StripedArrayPoolOptions
        {
            MaximumArrayLength = Math.Clamp(maxArrayLength, SizeClasses.MinimumLength, SizeClasses.MaximumLength),
            StripeCount = stripes,
            ItemsPerStripe = (int)Math.Min(65_536, ((long)maxArraysPerBucket + stripes - 1) / stripes),
            MaximumRetainedBytesPerSizeClass = long.MaxValue,
        };
    }

    private static int ByteSize(T[] array) => NativePoolEventSource.Size((long)array.Length * Unsafe.SizeOf<T>());

    /// <summary>A rent someone watches or guards: the event, then the guard's bookkeeping.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void OnRentObserved(T[] array)
    {
        if (array.Length == 0)
        {
            return;
        }

        if (NativePoolEventSource.Log.IsEnabled())
        {
            int sizeClass = array.Length <= _maximumArrayLength ? SizeClasses.GetIndex(array.Length) : -1;
            NativePoolEventSource.Log.BufferRented(NativePoolEventSource.ItemId(array), ByteSize(array), _core.Engine.Id, sizeClass, _core.Engine.Name);
        }

        _guard?.OnRent(array);
    }

    /// <summary>A return someone watches or guards; false when the guard refused the array (double or foreign return).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool OnReturnObserved(T[] array, bool clearArray)
    {
        if (array.Length == 0)
        {
            return true;
        }

        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferReturned(NativePoolEventSource.ItemId(array), ByteSize(array), _core.Engine.Id, _core.Engine.Name);
        }

        return _guard is null || _guard.OnReturn(array, clearArray || _clearOnReturn);
    }

    /// <summary>The engine saw the array already in the pool (and kept it once): Throw and Report count it (<see cref="PoolStatistics.Misuses"/>) and write the <c>DoubleReturn</c> event first; Ignore tells nobody.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void OnDuplicateReturn(T[] array)
    {
        if (_doubleReturnPolicy == PoolMisusePolicy.Ignore)
        {
            return;
        }

        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.DoubleReturn(NativePoolEventSource.ItemId(array), ByteSize(array), _core.Engine.Id, _core.Engine.Name);
        }

        if (_doubleReturnPolicy == PoolMisusePolicy.Throw)
        {
            _core.Engine.CountMisuse();
            ThrowHelper.ThrowDoubleReturn(nameof(array));
        }

        MisuseReporter.Report(_core.Engine, _doubleReturnPolicy, _onMisuse, PoolMisuseKind.DoubleReturn, rentStack: null);
    }
}
