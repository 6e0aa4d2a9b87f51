using System;
using System.Buffers;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>
/// An <see cref="IBufferWriter{T}"/> over one array rented from an <see cref="ArrayPool{T}"/> (by default
/// <see cref="StripedArrayPool{T}.Shared"/>): what was written is <see cref="WrittenSpan"/>; growing rents the next size
/// class, copies what was written and returns the old array; <see cref="Dispose"/> returns the array.
/// </summary>
/// <remarks>
/// The contract of CommunityToolkit's <c>ArrayPoolBufferWriter&lt;T&gt;</c>: after <see cref="Dispose"/> every member but
/// <see cref="WrittenCount"/> throws <see cref="ObjectDisposedException"/>. One writer at a time; only
/// <see cref="Dispose"/> may race. The spans handed out must not be used after the next growth or <see cref="Dispose"/>.
/// A writer over <see cref="StripedArrayPool{T}.Shared"/> throws <see cref="InvalidOperationException"/> on its rents while
/// the shared pool's process settings are malformed; a writer given a pool does not read them.
/// </remarks>
/// <typeparam name="T">The element type.</typeparam>
public sealed class PooledBufferWriter<T> : IBufferWriter<T>, IDisposable
{
    /// <summary>The capacity of a writer created without one.</summary>
    public const int DefaultInitialCapacity = 256;

    private readonly ArrayPool<T> _pool;
    private T[]? _array;
    private int _index;

    /// <summary>Creates a writer over <see cref="StripedArrayPool{T}.Shared"/> with <see cref="DefaultInitialCapacity"/> elements.</summary>
    public PooledBufferWriter()
        : this(StripedArrayPool<T>.Shared, DefaultInitialCapacity)
    {
    }

    /// <summary>Creates a writer over <see cref="StripedArrayPool{T}.Shared"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="initialCapacity"/> is negative.</exception>
    public PooledBufferWriter(int initialCapacity)
        : this(StripedArrayPool<T>.Shared, initialCapacity)
    {
    }

    /// <summary>Creates a writer over <paramref name="pool"/> with <see cref="DefaultInitialCapacity"/> elements.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    public PooledBufferWriter(ArrayPool<T> pool)
        : this(pool, DefaultInitialCapacity)
    {
    }

    /// <summary>Creates a writer over <paramref name="pool"/>.</summary>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="initialCapacity"/> is negative.</exception>
    public PooledBufferWriter(ArrayPool<T> pool, int initialCapacity)
    {
        if (pool is null)
        {
            ThrowHelper.ThrowArgumentNull(nameof(pool));
        }

        if (initialCapacity < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(initialCapacity), "The initial capacity must not be negative.");
        }

        _pool = pool;
        _array = pool.Rent(initialCapacity);
    }

    /// <summary>The elements written so far (readable after <see cref="Dispose"/>, as the count it last had).</summary>
    public int WrittenCount => _index;

    /// <summary>The elements written so far.</summary>
    public ReadOnlySpan<T> WrittenSpan
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => new(Array, 0, _index);
    }

    /// <summary>The elements written so far, as memory (valid until the next growth or <see cref="Dispose"/>).</summary>
    public ReadOnlyMemory<T> WrittenMemory => new(Array, 0, _index);

    /// <summary>The length of the rented array.</summary>
    public int Capacity => Array.Length;

    /// <summary>The elements that can be written before the writer grows.</summary>
    public int FreeCapacity => Array.Length - _index;

    private T[] Array
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get
        {
            T[]? array = _array;
            if (array is null)
            {
                ThrowHelper.ThrowObjectDisposed(nameof(PooledBufferWriter<T>));
            }

            return array;
        }
    }

    /// <summary>Clears the elements written and starts again at 0, keeping the array.</summary>
    public void Clear()
    {
        Array.AsSpan(0, _index).Clear();
        _index = 0;
    }

    /// <summary>Starts again at 0 without clearing, keeping the array (the elements written stay in it until overwritten).</summary>
    public void ResetWrittenCount()
    {
        _ = Array;
        _index = 0;
    }

    /// <summary>Commits <paramref name="count"/> elements written into the span or memory last handed out.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    /// <exception cref="ArgumentException"><paramref name="count"/> is more than <see cref="FreeCapacity"/>.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Advance(int count)
    {
        T[] array = Array;
        if (count < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(count), "The count must not be negative.");
        }

        if (_index > array.Length - count)
        {
            ThrowHelper.ThrowArgument(nameof(count), "The writer cannot advance past the end of its buffer.");
        }

        _index += count;
    }

    /// <summary>Memory of at least <paramref name="sizeHint"/> elements (1 for 0) after what was written.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    public Memory<T> GetMemory(int sizeHint = 0) => EnsureFree(sizeHint).AsMemory(_index);

    /// <summary>A span of at least <paramref name="sizeHint"/> elements (1 for 0) after what was written.</summary>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="sizeHint"/> is negative.</exception>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public Span<T> GetSpan(int sizeHint = 0) => EnsureFree(sizeHint).AsSpan(_index);

    /// <summary>The written elements as an array segment, for array-only APIs (valid until the next growth or <see cref="Dispose"/>).</summary>
    public ArraySegment<T> DangerousGetArray() => new(Array, 0, _index);

    /// <summary>Returns the array to the pool, once; later calls do nothing.</summary>
    public void Dispose()
    {
        // Interlocked: two threads may dispose at once; only the one that takes the array returns it.
        T[]? array = Interlocked.Exchange(ref _array, null);
        if (array is not null)
        {
            _pool.Return(array);
        }
    }

    /// <summary>The written characters for a writer of <see cref="char"/>; otherwise the type and count.</summary>
    public override string ToString() =>
        typeof(T) == typeof(char) && _array is char[] chars
            ? new string(chars, 0, _index)
            : $"NativePool.PooledBufferWriter<{typeof(T)}>[{_index}]";

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private T[] EnsureFree(int sizeHint)
    {
        T[] array = Array;

        // A negative hint compares as a huge one and throws in Grow.
        if ((uint)(sizeHint == 0 ? 1 : sizeHint) > (uint)(array.Length - _index))
        {
            array = Grow(sizeHint);
        }

        return array;
    }

    /// <summary>Rents room for <paramref name="sizeHint"/> more elements (1 for 0), copies what was written, returns the old array.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private T[] Grow(int sizeHint)
    {
        if (sizeHint < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRange(nameof(sizeHint), "The size hint must not be negative.");
        }

        T[] old = _array!;
        long wanted = (long)_index + Math.Max(sizeHint, 1);
        long doubled = Math.Max(wanted, Math.Min((long)old.Length * 2, System.Array.MaxLength));
        if (wanted > System.Array.MaxLength)
        {
            ThrowHelper.ThrowInvalidOperation("The writer cannot grow past Array.MaxLength elements.");
        }

        T[] array = _pool.Rent((int)doubled);
        old.AsSpan(0, _index).CopyTo(array);
        _array = array;
        _pool.Return(old, clearArray: RuntimeHelpers.IsReferenceOrContainsReferences<T>());
        return array;
    }
}
