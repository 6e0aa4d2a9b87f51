using System;
using System.Runtime.InteropServices;

namespace NativePool.Samples.NativeZlib;

/// <summary>The few zlib entry points the sample uses (the system's libz.so.1).</summary>
internal static unsafe partial class ZLib
{
    public const int Ok = 0;
    public const int StreamEnd = 1;
    public const int Finish = 4;
    public const int BestSpeed = 1;

    private const string Library = "libz.so.1";

    /// <summary>Whether the library loads on this machine.</summary>
    public static bool IsAvailable => NativeLibrary.TryLoad(Library, out _);

    [LibraryImport(Library, EntryPoint = "zlibVersion")]
    public static partial sbyte* Version();

    [LibraryImport(Library, EntryPoint = "crc32")]
    public static partial CULong Crc32(CULong crc, byte* buffer, uint length);

    [LibraryImport(Library, EntryPoint = "deflateInit_")]
    public static partial int DeflateInit(ZStream* stream, int level, sbyte* version, int streamSize);

    [LibraryImport(Library, EntryPoint = "deflate")]
    public static partial int Deflate(ZStream* stream, int flush);

    [LibraryImport(Library, EntryPoint = "deflateEnd")]
    public static partial int DeflateEnd(ZStream* stream);

    [LibraryImport(Library, EntryPoint = "inflateInit_")]
    public static partial int InflateInit(ZStream* stream, sbyte* version, int streamSize);

    [LibraryImport(Library, EntryPoint = "inflate")]
    public static partial int Inflate(ZStream* stream, int flush);

    [LibraryImport(Library, EntryPoint = "inflateEnd")]
    public static partial int InflateEnd(ZStream* stream);

    /// <summary>Compresses <paramref name="source"/> into <paramref name="destination"/> in one call; returns the compressed length.</summary>
    /// <param name="stream">A zeroed z_stream that stays at this address until the call returns.</param>
    /// <param name="source">The bytes to compress.</param>
    /// <param name="destination">Room for the compressed bytes.</param>
    public static int Compress(ZStream* stream, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        Check(DeflateInit(stream, BestSpeed, Version(), sizeof(ZStream)), Ok, "deflateInit_");
        fixed (byte* input = source)
        fixed (byte* output = destination)
        {
            stream->NextIn = input;
            stream->AvailIn = (uint)source.Length;
            stream->NextOut = output;
            stream->AvailOut = (uint)destination.Length;
            Check(Deflate(stream, Finish), StreamEnd, "deflate");
            int written = (int)stream->TotalOut.Value;
            Check(DeflateEnd(stream), Ok, "deflateEnd");
            return written;
        }
    }

    /// <summary>Decompresses <paramref name="source"/> into <paramref name="destination"/>; returns the decompressed length.</summary>
    /// <param name="stream">A zeroed z_stream that stays at this address until the call returns.</param>
    /// <param name="source">The compressed bytes.</param>
    /// <param name="destination">Room for the decompressed bytes.</param>
    public static int Decompress(ZStream* stream, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        Check(InflateInit(stream, Version(), sizeof(ZStream)), Ok, "inflateInit_");
        fixed (byte* input = source)
        fixed (byte* output = destination)
        {
            stream->NextIn = input;
            stream->AvailIn = (uint)source.Length;
            stream->NextOut = output;
            stream->AvailOut = (uint)destination.Length;
            Check(Inflate(stream, Finish), StreamEnd, "inflate");
            int written = (int)stream->TotalOut.Value;
            Check(InflateEnd(stream), Ok, "inflateEnd");
            return written;
        }
    }

    private static void Check(int result, int expected, string call)
    {
        if (result != expected)
        {
            throw new InvalidOperationException($"zlib {call} returned {result}.");
        }
    }
}
