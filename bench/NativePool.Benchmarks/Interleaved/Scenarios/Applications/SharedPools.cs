namespace NativePool.Benchmarks.Interleaved.Scenarios.Applications;

/// <summary>
/// Which shared pool an application row's loop reaches, as a type: each row's operation is a generic struct over
/// <see cref="Striped"/> or <see cref="Bcl"/>, so the JIT compiles one loop per pool from one body (no loop method
/// serves two pools, and the two sides cannot drift apart). Where the pool reaches the loop through a field or a
/// library's options instead, the type argument only gives each side its own loop.
/// </summary>
internal interface ISharedPool
{
    /// <summary>The pool the loop rents from and returns to.</summary>
    public static abstract ArrayPool<byte> Pool { get; }

    /// <summary>The same side's memory pool, for the rows that rent <see cref="IMemoryOwner{T}"/>s; only ours and the peer have one.</summary>
    public static virtual MemoryPool<byte> MemoryPool => throw new NotSupportedException("This side has no memory pool.");
}

/// <summary>Ours: <c>StripedArrayPool&lt;byte&gt;.Shared</c> (and <c>StripedMemoryPool&lt;byte&gt;.Shared</c>).</summary>
internal readonly struct Striped : ISharedPool
{
    public static ArrayPool<byte> Pool => StripedArrayPool<byte>.Shared;

    public static MemoryPool<byte> MemoryPool => StripedMemoryPool<byte>.Shared;
}

/// <summary>The peer: <c>ArrayPool&lt;byte&gt;.Shared</c> (and <c>MemoryPool&lt;byte&gt;.Shared</c>).</summary>
internal readonly struct Bcl : ISharedPool
{
    public static ArrayPool<byte> Pool => ArrayPool<byte>.Shared;

    public static MemoryPool<byte> MemoryPool => MemoryPool<byte>.Shared;
}

/// <summary>
/// The floor of an application row: <see cref="HeldArrayPool"/>, our arrays handed out at no pool cost, so a row run
/// through it against <see cref="Bcl"/> shows the best ratio any pool code could reach with our arrays.
/// </summary>
internal readonly struct Held : ISharedPool
{
    private static readonly HeldArrayPool s_pool = new();

    public static ArrayPool<byte> Pool => s_pool;
}

/// <summary>
/// The peer again, in a loop of its own: a row run through it against <see cref="Bcl"/> compares
/// <c>ArrayPool&lt;byte&gt;.Shared</c> with itself, so its band is the spread the runner alone gives that row.
/// </summary>
internal readonly struct BclAgain : ISharedPool
{
    public static ArrayPool<byte> Pool => ArrayPool<byte>.Shared;
}

