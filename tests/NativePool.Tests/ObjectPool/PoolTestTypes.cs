using System.Collections.Concurrent;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Tests.ObjectPool;

// Test helpers for the object-pool tests: internal, so several small ones share this file.

/// <summary>A plain pooled object with a process-unique id.</summary>
internal sealed class Thing
{
    private static int s_nextId;

    /// <summary>The object's id, unique in the process.</summary>
    // Interlocked: test threads create things concurrently; each gets its own id.
    public int Id { get; } = Interlocked.Increment(ref s_nextId);
}

/// <summary>An object the default policy resets (or fails to reset, when told to).</summary>
internal sealed class ResettableThing : IResettable
{
    public bool Dirty { get; set; }

    public bool CanReset { get; set; } = true;

    public int Resets { get; private set; }

    public bool TryReset()
    {
        Resets++;
        if (!CanReset)
        {
            return false;
        }

        Dirty = false;
        return true;
    }
}

/// <summary>A disposable object that counts its disposals and reports any disposal while a thread holds it.</summary>
internal sealed class DisposableThing : IDisposable
{
    private int _disposeCount;

    /// <summary>The id of the thread holding the object, 0 when none (stress tests set it).</summary>
    public int Holder;

    /// <summary>The unique token the current holder stamped (stress tests).</summary>
    public long Token;

    /// <summary>Set when the object was disposed while a thread held it.</summary>
    public bool DisposedWhileHeld { get; private set; }

    /// <summary>How many times the object was disposed.</summary>
    // Volatile: pools and racing threads dispose; the test thread reads the count afterwards.
    public int DisposeCount => Volatile.Read(ref _disposeCount);

    public bool IsDisposed => DisposeCount != 0;

    /// <summary>Runs at the start of every disposal, on the disposing thread (tests that step a pool's discard).</summary>
    public Action? OnDispose { get; set; }

    public void Dispose()
    {
        OnDispose?.Invoke();

        // Volatile: the holding thread sets and clears Holder while another thread's disposal may read it.
        if (Volatile.Read(ref Holder) != 0)
        {
            DisposedWhileHeld = true;
        }

        // Interlocked: a racing disposal counts here too, so a second disposal always shows.
        Interlocked.Increment(ref _disposeCount);
    }
}

/// <summary>A policy (the abstract-class kind) that counts what it does and can be told to reject returns.</summary>
internal sealed class CountingPolicy<T> : PooledObjectPolicy<T> where T : class, new()
{
    private int _created;
    private int _returned;

    public ConcurrentQueue<T> CreatedObjects { get; } = new();

    public Func<T, bool>? Accept { get; set; }

    /// <summary>How many objects the policy created.</summary>
    // Volatile: test threads create concurrently; the test thread reads the count afterwards.
    public int Created => Volatile.Read(ref _created);

    /// <summary>How many returns the policy saw.</summary>
    // Volatile: test threads return concurrently; the test thread reads the count afterwards.
    public int Returned => Volatile.Read(ref _returned);

    public override T Create()
    {
        // Interlocked: several threads may create at once.
        Interlocked.Increment(ref _created);
        var item = new T();
        CreatedObjects.Enqueue(item);
        return item;
    }

    public override bool Return(T obj)
    {
        // Interlocked: several threads may return at once.
        Interlocked.Increment(ref _returned);
        return Accept?.Invoke(obj) ?? true;
    }
}

/// <summary>A policy that only implements the interface (no fast path).</summary>
internal sealed class InterfacePolicy<T> : IPooledObjectPolicy<T> where T : class, new()
{
    public int Returned { get; private set; }

    public T Create() => new();

    public bool Return(T obj)
    {
        Returned++;
        return true;
    }
}

/// <summary>A policy whose Create returns null (a broken policy).</summary>
internal sealed class NullCreatingPolicy : PooledObjectPolicy<Thing>
{
    public override Thing Create() => null!;

    public override bool Return(Thing obj) => true;
}
