using System.Runtime.CompilerServices;

namespace NativePool;

/// <content>Diagnostics: the pool's name and kind, and the events its slow paths raise (each behind one enabled check).</content>
internal sealed partial class StripedPool<T> : IObservablePool
{
    private readonly string _name;
    private readonly string _kind;

    /// <summary>The pool's name in events and metrics (<see cref="StripedPoolSettings.Name"/>).</summary>
    public string Name => _name;

    /// <summary>What the pool hands out (<see cref="StripedPoolSettings.Kind"/>).</summary>
    public string Kind => _kind;

    /// <inheritdoc/>
    public void CountMisuse() => _owner.CountMisuse();

    /// <summary>Raises <see cref="NativePoolEventSource.BufferAllocated"/> for an item created on a miss.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void LogAllocated(T item, int sizeClass)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferAllocated(
                NativePoolEventSource.ItemId(item), NativePoolEventSource.Size(_itemBytes[sizeClass]), _id, sizeClass, BufferAllocatedReason.PoolEmpty, _name);
        }
    }

    /// <summary>Raises <see cref="NativePoolEventSource.BufferDropped"/> for an item the pool could not keep.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void LogDropped(T item, int sizeClass)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferDropped(
                NativePoolEventSource.ItemId(item), NativePoolEventSource.Size(_itemBytes[sizeClass]), _id, sizeClass, BufferDroppedReason.Full, _name);
        }
    }

    /// <summary>Raises <see cref="NativePoolEventSource.BufferTrimmed"/> for a pass that released <paramref name="count"/> items.</summary>
    private void LogTrimmed(int count)
    {
        if (count != 0 && NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferTrimmed(_id, count, _name);
        }
    }

    /// <summary>Raises <see cref="NativePoolEventSource.BufferTrimPoll"/> as a trim pass starts.</summary>
    private void LogTrimPoll(MemoryPressure pressure)
    {
        if (NativePoolEventSource.Log.IsEnabled())
        {
            NativePoolEventSource.Log.BufferTrimPoll(_id, (int)pressure, _name);
        }
    }
}
