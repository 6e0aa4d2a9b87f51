namespace NativePool;

/// <summary>The one source of the false-sharing distance used by every padded type in NativePool.</summary>
/// <remarks>
/// 128 bytes everywhere: Arm64 server parts have 128-byte lines, and x64 parts fetch lines in adjacent pairs (the
/// spatial prefetcher), so two hot fields 64 bytes apart can still ping-pong between cores.
/// </remarks>
internal static class CacheLine
{
    /// <summary>The padding distance in bytes; a power of two.</summary>
    public const int Size = 128;

    /// <summary>How many object references fit in one <see cref="Size"/> run (64-bit processes).</summary>
    public const int References = Size / 8;
}
