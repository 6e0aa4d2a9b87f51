namespace NativePool;

/// <summary>The one source of the false-sharing distance used by every padded type in NativePool.</summary>
/// <remarks>
/// The runtime's own padding is 64 bytes on x64 and 128 bytes on Arm64. NativePool uses 128 bytes everywhere: Arm64
/// server parts have 128-byte lines, and x64 parts fetch lines in adjacent pairs (the spatial prefetcher), so two hot
/// fields 64 bytes apart can still ping-pong between cores. The padded-vs-unpadded stripes benchmark (bench/) measures
/// the effect.
/// </remarks>
internal static class CacheLine
{
    /// <summary>The padding distance in bytes; a power of two.</summary>
    public const int Size = 128;

    /// <summary>How many object references fit in one <see cref="Size"/> run (64-bit processes).</summary>
    public const int References = Size / 8;
}
