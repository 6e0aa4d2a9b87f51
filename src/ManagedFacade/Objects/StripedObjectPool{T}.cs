using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Threading;
using Microsoft.Extensions.ObjectPool;

namespace NativePool;

/// <summary>
/// A drop-in <see cref="ObjectPool{T}"/> on the NativePool engine: a per-thread slot in front of per-core stripes, so a
/// <see cref="Get"/> and <see cref="Return"/> that alternate on one thread touch no shared cache line and run no
/// interlocked instruction, and objects move between the slot and the stripes two per claim.
/// </summary>
/// <remarks>
/// <para>
/// Contract: Microsoft's. <see cref="Get"/> never blocks and never returns null: on a miss it creates an object through
/// the policy. <see cref="Return"/> runs the policy on every object and drops the object when the policy says
/// <see langword="false"/> (the default policy resets <see cref="IResettable"/> objects and drops those that fail to
/// reset). One thread alone leaves at most <see cref="MaximumRetained"/> objects in the pool, as with Microsoft's pool;
/// every other thread that uses it may keep one more in its own slot (see the bound, below). A
/// <see cref="Get"/> right after a <see cref="Return"/> on one thread gives back the same object unless another thread
/// took it in between: it comes from the thread's slot, or, when the return found the slot taken and pushed both
/// objects onto the thread's stripe, from that stripe's top (while anybody observes pools, always from the slot).
/// Microsoft's pool hands back the same object only when its one fast field was empty. A <see cref="Get"/> from the
/// slot lends the object and leaves the slot referring to it (its <see cref="Return"/> then writes no reference): an
/// object that is never returned stays reachable from that slot until the thread's next <see cref="Get"/> or
/// <see cref="Return"/> on the pool, or its end; it is the caller's, never pooled, trimmed or disposed by the pool.
/// </para>
/// <para>
/// What Microsoft's pool leaves open is closed: <c>Return(null)</c> throws <see cref="ArgumentNullException"/>, and
/// returning an object that is still in the pool throws <see cref="InvalidOperationException"/> when the pool can see it
/// cheaply: the object is in the calling thread's slot, or on top of the stripe the return goes to or the thread's last
/// return went to (the common case of a double return: the same object returned twice in a row). The policy has already run on the object when that is
/// detected; the pool itself is unchanged. A double return the pool cannot see cheaply is not detected, unless the
/// pool is guarded (<see cref="StripedObjectPoolOptions.Guarded"/>): a guarded pool tracks every object it hands out and
/// refuses, before the policy runs, a double return while the object is still in the pool and any foreign return. No
/// pool detects a stale return, made after another <see cref="Get"/> handed the same object out again (it looks like
/// that caller's return); a <see cref="RentLease"/> lease never returns twice.
/// </para>
/// <para>
/// The bound. The shared stripes hold at most <see cref="MaximumRetained"/> − 1 objects (their capacities add up to
/// exactly that, so no shared counter is touched), and each thread has one slot on top of it and nothing more (no
/// magazine): everything else it returns
/// goes to the stripes, where every thread reaches it. So one thread alone leaves exactly <see cref="MaximumRetained"/>
/// objects, as Microsoft's pool does, and <c>N</c> threads at most <see cref="MaximumRetained"/> − 1 + <c>N</c>. Why a
/// slot holds no unit: a thread's cache is out of every other thread's reach while its thread is not running, and a
/// unit held for a slot whose object is out (in use) would count that object as retained; with more threads than
/// cores, threads that are not running then held the whole bound while running threads found the stripes empty, built
/// objects and dropped them against the spent bound (two objects in three gets at the default bound of four, against one
/// in ten for Microsoft's pool). With one slot each outside the bound, threads that together never hold more than the
/// bound make the pool build at most that peak plus one object per thread.
/// </para>
/// <para>
/// Disposing pools (<see cref="DisposesItems"/>, chosen by <see cref="StripedObjectPoolProvider"/> for
/// <see cref="IDisposable"/> types): objects the pool drops (overflow, policy rejection) are disposed; <see cref="Dispose"/>
/// disposes every retained object, including those parked in other threads' slots; <see cref="Get"/> after
/// <see cref="Dispose"/> throws <see cref="ObjectDisposedException"/>; <see cref="Return"/> after <see cref="Dispose"/>
/// disposes its argument; a <see cref="Return"/> racing <see cref="Dispose"/> never leaves an undisposed object behind,
/// and a <see cref="Get"/> racing it never hands out a disposed one. Disposing pools are never trimmed: the trimmer
/// runs on timer and finalizer threads, where an exception from an object's <c>Dispose</c> would end the process.
/// Non-disposing pools give idle objects back to the GC after gen-2
/// collections and after a minute untouched, like the array pool.
/// </para>
/// </remarks>
/// <typeparam name="T">The type of the pooled objects.</typeparam>
public sealed partial class StripedObjectPool<T> : ObjectPool<T>, IDisposable, IObservationSubscriber where T : class
{
    /// <summary>The largest <see cref="MaximumRetained"/> a pool accepts (its stripes are preallocated).</summary>
    public const int MaximumRetainedLimit = 1 << 24;

    private const string ObjectName = "StripedObjectPool";

    /// <summary>The most frames a rent stack leaves out: the guard's, <see cref="OnGetObserved"/>, <see cref="GetInFull"/>, the two <c>GetMiss</c> and <see cref="Get"/>.</summary>
    private const int GuardFrames = 6;

    private readonly StripedPool<T> _engine;

    /// <summary>The engine's owner, which the inlined paths check the thread's memo against.</summary>
    private readonly PoolOwner _owner;
    private readonly IPooledObjectPolicy<T> _policy;
    private readonly PooledObjectPolicy<T>? _fastPolicy;
    private readonly bool _isDefaultPolicy;

    /// <summary>The default policy on a sealed non-<see cref="IResettable"/> type, or a factory with no cleanup: returns are kept as they are, with no type check or policy call.</summary>
    private readonly bool _keepsAsIs;
    private readonly bool _disposesItems;
    private readonly int _maximumRetained;
    private readonly int _stripeCapacity;
    private readonly ItemGuard<T>? _guard;

    /// <summary>Whether <see cref="Get"/> and <see cref="Return"/> may take their short path: false while anybody observes and once disposed (events, guards, disposed checks).</summary>
    private bool _fastOpen;

    /// <summary>Creates a pool that keeps at most <c>Environment.ProcessorCount * 2</c> objects.</summary>
    /// <param name="policy">Creates objects and decides whether a returned one is kept.</param>
    /// <exception cref="ArgumentNullException"><paramref name="policy"/> is null.</exception>
    public StripedObjectPool(IPooledObjectPolicy<T> policy)
        : this(policy, new StripedObjectPoolOptions())
    {
    }

    /// <summary>Creates a pool that keeps at most <paramref name="maximumRetained"/> objects.</summary>
    /// <param name="policy">Creates objects and decides whether a returned one is kept.</param>
    /// <param name="maximumRetained">The bound on retained objects (see <see cref="MaximumRetained"/>), 1 to <see cref="MaximumRetainedLimit"/>.</param>
    /// <exception cref="ArgumentNullException"><paramref name="policy"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maximumRetained"/> is out of range.</exception>
    public StripedObjectPool(IPooledObjectPolicy<T> policy, int maximumRetained)
        : this(policy, WithBound(maximumRetained))
    {
    }

    /// <summary>Creates a pool shaped by <paramref name="options"/>.</summary>
    /// <param name="policy">Creates objects and decides whether a returned one is kept.</param>
    /// <param name="options">The bound, disposal, trimming, name and guarding.</param>
    /// <exception cref="ArgumentNullException"><paramref name="policy"/> or <paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; ParamName is the option's name.</exception>
    public StripedObjectPool(IPooledObjectPolicy<T> policy, StripedObjectPoolOptions options)
    {
        if (policy is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(policy));
        }

        if (options is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(options));
        }

        options.Validate();
        int maximumRetained = options.MaximumRetained;
        bool disposeItems = options.DisposeItems;

        _policy = policy;
        _fastPolicy = policy as PooledObjectPolicy<T>;
        // Microsoft's default policy itself, not a subclass, which may override Return.
        _isDefaultPolicy = policy.GetType() is { IsGenericType: true } policyType && policyType.GetGenericTypeDefinition() == typeof(DefaultPooledObjectPolicy<>);
        _keepsAsIs = (_isDefaultPolicy && typeof(T).IsSealed && !typeof(IResettable).IsAssignableFrom(typeof(T)))
            || policy is DelegatePooledObjectPolicy<T> { HasCleanup: false };
        _disposesItems = disposeItems;
        _maximumRetained = maximumRetained;

        // The stripes hold M − 1 objects between them, exactly; each thread's slot holds one more (see the bound).
        (int stripes, int stripeCapacity) = SplitRetention(Math.Max(1, maximumRetained - 1), StripedPoolSettings.DefaultStripeCount);
        _stripeCapacity = stripeCapacity;
        var settings = new StripedPoolSettings
        {
            Kind = "object",
            Name = options.Name ?? $"StripedObjectPool<{typeof(T).Name}>",
            ClassCount = 1,
            CapacityPerStripe = [stripeCapacity],
            MagazineCapacity = [0],
            RetentionLimit = maximumRetained - 1,
            WaitsForBusyStripes = true,
            StripeCount = stripes,
            TrimmingEnabled = options.TrimmingEnabled && !disposeItems,
            TrimInterval = options.TrimInterval,
            TrimAge = options.TrimAge,
            Clock = options.TimeProvider ?? TimeProvider.System,
            Pressure = options.PressureSource ?? GCMemoryPressure.Read,
        };
        // The process switch is read before the engine exists: a malformed one fails the construction with nothing built.
        bool guarded = options.Guarded || GuardedMode.IsOnProcessWide;
        _engine = new StripedPool<T>(settings, CreateForEngine, disposeItems ? DisposeItem : null);
        _owner = _engine.Owner;
        if (guarded || options.TrackLeaks)
        {
            _guard = new ItemGuard<T>(
                _engine,
                itemBytes: null,
                keepStacks: true,
                GuardFrames,
                options.MisusePolicy,
                options.OnMisuse);
            PoolObservation.AddGuardedPool();
        }

        PoolRegistry.Register(_engine);
        PoolObservation.Subscribe(this);
    }

    /// <summary>Creates a pool from a factory and a cleanup, shaped by <paramref name="options"/>.</summary>
    /// <param name="factory">Creates an object on a miss; must not return null.</param>
    /// <param name="cleanup">
    /// Resets a returned object before the pool keeps it, or null. If it throws, <see cref="Return"/> drops the object and
    /// lets the exception through.
    /// </param>
    /// <param name="options">The bound, disposal, trimming, name and guarding.</param>
    /// <exception cref="ArgumentNullException"><paramref name="factory"/> or <paramref name="options"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; ParamName is the option's name.</exception>
    public StripedObjectPool(Func<T> factory, Action<T>? cleanup, StripedObjectPoolOptions options)
        : this(DelegatePooledObjectPolicy<T>.Create(factory, cleanup), options)
    {
    }

    /// <summary>
    /// The pool's name in events and metrics (the <c>nativepool.pool.name</c> tag): <see cref="PoolOptions.Name"/>, by
    /// default <c>StripedObjectPool&lt;T&gt;</c> with the object type's name.
    /// </summary>
    public string Name => _engine.Name;

    /// <summary>The bound on retained objects: what one thread alone leaves in the pool at most; each other thread may keep one more in its slot.</summary>
    public int MaximumRetained => _maximumRetained;

    /// <summary>Whether the pool disposes the <see cref="IDisposable"/> objects it drops and, when disposed, those it holds.</summary>
    public bool DisposesItems => _disposesItems;

    /// <summary>The number of stripes: a power of two, at most one per core, and few enough that each, with the slot of a thread that uses it, holds at least 8 objects where the bound allows it.</summary>
    public int StripeCount => _engine.StripeCount;

    /// <summary>Objects the largest stripe holds (the stripes together hold <see cref="MaximumRetained"/> − 1).</summary>
    public int StripeCapacity => _stripeCapacity;

    /// <summary>Whether this pool tracks its objects (guarded mode, or leak tracking).</summary>
    public bool IsTracking => _guard is not null;

    /// <summary>The engine (tests).</summary>
    internal StripedPool<T> Engine => _engine;

    /// <summary>Gets an object from the pool, or a new one from the policy when the pool has none.</summary>
    /// <returns>An object, never null.</returns>
    /// <exception cref="ObjectDisposedException">The pool has been disposed.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public override T Get()
    {
        ThreadCache<T>? cache = CurrentCache();
        return cache is not null && _fastOpen ? GetFast(cache, pairs: true) : GetMiss();
    }

    /// <summary>This pool's cache on the calling thread if the inlined paths may use it, else null (they then miss): the thread's memo of the last two object pools it used (<see cref="ThreadCacheTable.Recent"/>).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal ThreadCache<T>? CurrentCache() => ThreadCache<T>.Recent(_owner);

    /// <summary>Every get the memo does not serve (see <see cref="GetMiss(out ThreadCache{T}?)"/>); apart, so the inlined get keeps no local for the cache.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T GetMiss() => GetMiss(out _);

    /// <summary>Every get the memo does not serve: the thread's cache found in the engine's table (or made) and published, or, while observed or disposed, the get in full (<paramref name="cache"/> null).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T GetMiss(out ThreadCache<T>? cache)
    {
        if (!_fastOpen)
        {
            cache = null;
            return GetInFull();
        }

        T item = GetThroughTable(pairs: true, out ThreadCache<T> own);
        cache = own;
        return item;
    }

    /// <summary>The get of a miss: the thread's cache from the engine's table (made if it has none), then published in the thread's memo.</summary>
    private T GetThroughTable(bool pairs, out ThreadCache<T> cache)
    {
        cache = _engine.GetOrCreateCache();
        T item = GetFast(cache, pairs);
        ThreadCacheTable.Remember(cache);
        return item;
    }

    /// <summary>The engine's get and the re-check of the shutdown mark, with the thread's cache already found; <paramref name="pairs"/> while nobody observes pools.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private T GetFast(ThreadCache<T> cache, bool pairs)
    {
        T item = _engine.RentObject(cache, pairs);

        // A Dispose that began while we took the item may have taken it from our slot too (see Dispose).
        if (_engine.IsShutDown)
        {
            GetRacedDispose(item);
        }

        return item;
    }

    /// <summary>The get while anybody observes pools or after <see cref="Dispose"/>: the disposed check, events, guards.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T GetInFull()
    {
        // Dispose publishes the mark from another thread; a stale read here is settled by GetFast's re-check.
        if (_engine.IsShutDown)
        {
            ThrowHelper.ThrowObjectDisposed(ObjectName);
        }

        T item = GetThroughTable(pairs: false, out _);
        if (PoolObservation.IsActive)
        {
            OnGetObserved(item);
        }

        return item;
    }

    /// <summary>Returns an object to the pool: the policy runs on it, then the pool keeps it or drops it.</summary>
    /// <param name="obj">An object from <see cref="Get"/>.</param>
    /// <exception cref="ArgumentNullException"><paramref name="obj"/> is null.</exception>
    /// <exception cref="InvalidOperationException">
    /// <paramref name="obj"/> is already in the pool (returned twice), or, in a guarded pool whose
    /// <see cref="StripedObjectPoolOptions.MisusePolicy"/> is <see cref="PoolMisusePolicy.Throw"/>, is still in the pool
    /// (or was dropped) since its last return, or never came from this pool.
    /// </exception>
    /// <exception cref="Exception">
    /// Whatever the policy threw (a cleanup delegate, <see cref="IPooledObjectPolicy{T}.Return"/>, or
    /// <see cref="IResettable.TryReset"/> under the default policy), unchanged. The object is then dropped, as if the
    /// policy had returned <see langword="false"/>: it is not kept, counts as dropped in <see cref="GetStatistics"/>, and a
    /// disposing pool disposes it (an <see cref="AggregateException"/> holds both exceptions if that dispose throws too).
    /// </exception>
    /// <remarks>
    /// A guarded pool checks the return before anything else: an object it refuses (double or foreign return) is
    /// reported per its policy and neither goes through the policy nor is kept.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public override void Return(T obj)
    {
        ThreadCache<T>? cache = CurrentCache();
        if (obj is not null && cache is not null && _fastOpen)
        {
            PolicyThenKeep(obj, cache);
            return;
        }

        ReturnMiss(obj);
    }

    /// <summary>Every return the memo does not serve: as <see cref="GetMiss(out ThreadCache{T}?)"/>, or the return in full for a null or while observed or disposed.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnMiss(T? obj)
    {
        if (obj is null || !_fastOpen)
        {
            ReturnInFull(obj);
            return;
        }

        KeepThroughTable(obj, prefilled: false);
    }

    /// <summary>The end of a return's miss: the thread's cache from the engine's table (made if it has none), then published in the thread's memo.</summary>
    private void KeepThroughTable(T obj, bool prefilled)
    {
        ThreadCache<T> cache = _engine.GetOrCreateCache();
        PolicyThenKeep(obj, cache, prefilled);
        ThreadCacheTable.Remember(cache);
    }

    /// <summary>The return of a scope's object on its renting thread, with the cache the rent found: no thread-static access; as <see cref="Return"/> without one or while observed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal void ReturnFromScope(T obj, ThreadCache<T>? cache)
    {
        if (cache is not null && _fastOpen)
        {
            PolicyThenKeep(obj, cache);
            return;
        }

        Return(obj);
    }

    /// <summary>The end of every return: the policy (not for <paramref name="prefilled"/> objects, straight from <see cref="Get"/>), then the engine, then the re-check of the shutdown mark.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void PolicyThenKeep(T obj, ThreadCache<T> cache, bool prefilled = false)
    {
        if (!prefilled && !AcceptReturn(obj))
        {
            Reject(obj);
            return;
        }

        // Unobserved, a return that finds the slot taken moves two objects per claim; observed, the returned object
        // stays in the slot, so a misuse report can say exactly which thread gets it next. A prefill's last (warmest)
        // object takes the slot too.
        if (_engine.ReturnObject(obj, cache, pairs: !prefilled && _fastOpen) == ReturnResult.Duplicate && !prefilled)
        {
            OnDuplicateReturn();
        }

        // A Dispose that began while we stored the object may have drained before our store (see Dispose).
        if (_engine.IsShutDown)
        {
            _engine.ReturnRacedShutdown();
        }
    }

    /// <summary>The engine saw the object already in the pool (and kept it once): counted (<see cref="PoolStatistics.Misuses"/>), the shutdown re-check, then <see cref="InvalidOperationException"/>.</summary>
    [DoesNotReturn]
    [StackTraceHidden]
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void OnDuplicateReturn()
    {
        _engine.CountMisuse();

        // Refusing the object may have had the slot's object out of the slot while a Dispose that began meanwhile
        // drained it (see Dispose): the re-check every return makes, before the throw (a drain whose disposals throw
        // reports those instead, the misuse already counted).
        if (_engine.IsShutDown)
        {
            _engine.ReturnRacedShutdown();
        }

        ThrowHelper.ThrowDoubleReturn("obj");
    }

    /// <summary>The return of a null, or while anybody observes pools, or after <see cref="Dispose"/>; and every return of <see cref="Prefill"/> (<paramref name="prefilled"/>).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ReturnInFull(T? obj, bool prefilled = false)
    {
        if (obj is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(obj));
        }

        // One static flag, as in Get. A prefilled object comes straight from Get, so a guard never refuses it; it still
        // has to hear that the object came back.
        if (PoolObservation.IsActive)
        {
            if (!OnReturnObserved(obj))
            {
                return;
            }
        }

        // Dispose publishes the mark from another thread; a stale read here is settled by PolicyThenKeep's re-check.
        if (_engine.IsShutDown)
        {
            ReturnAfterDispose(obj);
            return;
        }

        KeepThroughTable(obj, prefilled);
    }

    /// <summary>Reads the pool's counters (summed over threads and stripes; exact when the pool is quiet).</summary>
    /// <returns>A snapshot.</returns>
    public PoolStatistics GetStatistics() => PoolStatistics.From(_engine.ReadCounts());

    /// <summary>Closes the short paths while anybody observes pools, and for good once the pool is disposed.</summary>
    /// <param name="observed">Whether a listener is attached or a guarded pool exists.</param>
    void IObservationSubscriber.OnObservationChanged(bool observed) =>
        // Volatile: publishes the state to Get and Return on other threads; a stale value costs one operation's events,
        // and after Dispose the re-checks of the shutdown mark settle it.
        Volatile.Write(ref _fastOpen, !observed && !_engine.IsShutDown);

    /// <summary>Where the objects got and not yet returned were got (leak tracking or guarded mode; otherwise empty).</summary>
    /// <returns>One stack per outstanding object; each is also raised as a <c>Leak</c> event of the <c>NativePool</c> event source.</returns>
    public IReadOnlyList<StackTrace> GetLeaks() => _guard is null ? [] : _guard.GetLeaks();

    /// <summary>The fewest objects a stripe and the slot of a thread that uses it hold together when the bound allows it (see <see cref="SplitRetention"/>).</summary>
    private const int MinimumStripeShare = 8;

    /// <summary>Shapes stripes holding <paramref name="maximumRetained"/> together: the most (a power of two, at most <paramref name="maxStripes"/>) that still hold <see cref="MinimumStripeShare"/> each with a slot.</summary>
    /// <remarks>A stripe of two or four is empty or full at almost every operation, and those edges take the general walk; one stripe shared by every thread makes claims
    /// meet. So a bound under 16 gets one stripe, 16 gets two of 8 and 7 (the engine splits the total exactly).</remarks>
    internal static (int Stripes, int StripeCapacity) SplitRetention(int maximumRetained, int maxStripes)
    {
        int shares = (int)(((long)maximumRetained + 1) / MinimumStripeShare);
        int stripes = 1 << BitOperations.Log2((uint)Math.Min(maxStripes, Math.Max(1, shares)));
        int stripeCapacity = (int)(((long)maximumRetained + stripes - 1) / stripes);
        return (stripes, stripeCapacity);
    }

    /// <summary>The options of the constructor that takes a bound: the bound checked under its parameter's name, every other option its default.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="maximumRetained"/> is out of range.</exception>
    private static StripedObjectPoolOptions WithBound(int maximumRetained)
    {
        StripedObjectPoolOptions.ValidateMaximumRetained(maximumRetained, nameof(maximumRetained));
        return new StripedObjectPoolOptions { MaximumRetained = maximumRetained };
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool AcceptReturn(T obj)
    {
        if (_keepsAsIs || (_isDefaultPolicy && obj is not IResettable))
        {
            // DefaultPooledObjectPolicy<T>, inlined: an object that cannot be reset is kept as it is (known from the type
            // alone when it is sealed: the interface check is a helper call in code shared by reference types); and a
            // factory pool's policy with no cleanup, which keeps every object.
            return true;
        }

        return ReturnThroughPolicy(obj);
    }

    /// <summary>Runs the policy on <paramref name="obj"/>; when it throws, the object is dropped as a rejected one is and the exception goes on to the caller of <see cref="Return"/>,
    /// so an object whose cleanup failed is neither kept nor left counted as outstanding.</summary>
    /// <exception cref="AggregateException">A disposing pool's dispose of the object threw too: both exceptions, the policy's first.</exception>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool ReturnThroughPolicy(T obj)
    {
        try
        {
            if (_isDefaultPolicy)
            {
                return ((IResettable)obj).TryReset();
            }

            return _fastPolicy is not null ? _fastPolicy.Return(obj) : _policy.Return(obj);
        }
        catch (Exception policyException)
        {
            try
            {
                Reject(obj);
            }
#pragma warning disable CA1031 // Rethrown with the policy's exception: neither may hide the other.
            catch (Exception disposeException)
#pragma warning restore CA1031
            {
                ThrowHelper.ThrowAggregate("The pool's policy threw on a returned object, and so did the object's Dispose.", [policyException, disposeException]);
            }

            throw;
        }
    }

    private T CreateForEngine(int sizeClass)
    {
        T? item = _fastPolicy is not null ? _fastPolicy.Create() : _policy.Create();
        if (item is null)
        {
            ThrowHelper.ThrowInvalidOperation($"The pool's policy ({_policy.GetType()}) created null; Get never returns null.");
        }

        return item;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void Reject(T obj)
    {
        _engine.RecordUnpooledReturn();
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferDropped(NativePoolEventSource.ItemId(obj), 0, _engine.Id, 0, BufferDroppedReason.Rejected, _engine.Name);
        }

        if (_disposesItems)
        {
            DisposeItem(obj);
        }
    }

    /// <summary>A get someone watches or guards: the event, then the guard's bookkeeping.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void OnGetObserved(T item)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferRented(NativePoolEventSource.ItemId(item), 0, _engine.Id, 0, _engine.Name);
        }

        _guard?.OnRent(item, out _);
    }

    /// <summary>A return someone watches or guards; false when the guard refused the object (double or foreign return).</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private bool OnReturnObserved(T obj)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferReturned(NativePoolEventSource.ItemId(obj), 0, _engine.Id, _engine.Name);
        }

        return _guard is null || _guard.OnReturn(obj, cleared: false);
    }

    /// <summary>What a disposing pool does with every object it lets go, and the engine's discard callback (overflow, trims of dead threads, the shutdown drains).</summary>
    private static void DisposeItem(T item)
    {
        if (item is IDisposable disposable)
        {
            disposable.Dispose();
        }
    }
}
