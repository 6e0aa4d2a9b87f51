using System.Runtime.InteropServices;
using NativePool.Samples.NativeZlib;

namespace NativePool.IntegrationTests;

/// <summary>Native code reading and writing our native blocks: libc's memset/memcmp and zlib, checked against managed code.</summary>
public sealed unsafe partial class NativeInteropTests
{
    private const string LibC = "libc.so.6";

    [LibraryImport(LibC, EntryPoint = "memset")]
    private static partial void* MemSet(void* destination, int value, nuint count);

    [LibraryImport(LibC, EntryPoint = "memcmp")]
    private static partial int MemCompare(void* left, void* right, nuint count);

    [Fact]
    public void LibcMemsetAndMemcmpSeeWhatManagedCodeSees()
    {
        Assert.True(OperatingSystem.IsLinux(), "These interop tests call the Linux libc.");
        using var pool = NativeBlockPool.Create();
        using NativeBlockLease left = pool.Rent(10_000);
        using NativeBlockLease right = pool.Rent(10_000);

        MemSet(left.Pointer, 0x5A, (nuint)left.Length);
        Assert.True(left.Span.IndexOfAnyExcept((byte)0x5A) < 0);

        right.Span.Fill(0x5A);
        Assert.Equal(0, MemCompare(left.Pointer, right.Pointer, (nuint)left.Length));
        right.Span[9_999] = 0x5B;
        Assert.True(MemCompare(left.Pointer, right.Pointer, (nuint)left.Length) < 0);
        Assert.Equal(Math.Sign(left.Span.SequenceCompareTo(right.Span)), Math.Sign(MemCompare(left.Pointer, right.Pointer, (nuint)left.Length)));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(1000)]
    [InlineData(3 << 20)]
    public void ZlibCrc32OverALeasedBlockMatchesManagedCrc32(int length)
    {
        Assert.True(ZLib.IsAvailable, "zlib (libz.so.1) must be installed.");
        using var pool = NativeBlockPool.Create();
        using NativeBlockLease block = pool.Rent(length);
        new Random(length).NextBytes(block.Span);
        ulong native = ZLib.Crc32(default, (byte*)block.Pointer, (uint)length).Value;
        Assert.Equal(ManagedCrc32(block.Span), native);
    }

    [Fact]
    public void AZStreamInANativeStructLeaseCompressesAndRestoresNativeBlocks()
    {
        Assert.True(ZLib.IsAvailable, "zlib (libz.so.1) must be installed.");
        using var blocks = NativeBlockPool.Create();
        using var streams = NativeStructPool<ZStream>.Create();
        const int Size = 1 << 20;
        using NativeBlockLease original = blocks.Rent(Size);
        var random = new Random(11);
        for (int i = 0; i < Size; i++)
        {
            original.Span[i] = (byte)('a' + random.Next(16));
        }

        using NativeBlockLease compressed = blocks.Rent(Size + 1024);
        using NativeBlockLease restored = blocks.Rent(Size);
        int compressedLength;
        using (NativeStructLease<ZStream> stream = streams.Rent())
        {
            Assert.True(stream.Value.State == null, "Rent() zeroes the struct, as zlib requires before deflateInit_.");
            compressedLength = ZLib.Compress(stream.Pointer, original.Span, compressed.Span);
        }

        int restoredLength;
        using (NativeStructLease<ZStream> stream = streams.Rent())
        {
            restoredLength = ZLib.Decompress(stream.Pointer, compressed.Span[..compressedLength], restored.Span);
        }

        Assert.InRange(compressedLength, 1, Size * 3 / 4);
        Assert.Equal(Size, restoredLength);
        Assert.True(original.Span.SequenceEqual(restored.Span));
    }

    private static ulong ManagedCrc32(ReadOnlySpan<byte> data)
    {
        // The reflected CRC-32 (polynomial 0xEDB88320) that zlib computes, bit by bit.
        uint crc = 0xFFFFFFFF;
        foreach (byte b in data)
        {
            crc ^= b;
            for (int k = 0; k < 8; k++)
            {
                crc = (crc >> 1) ^ (0xEDB88320 & (uint)-(int)(crc & 1));
            }
        }

        return ~crc;
    }
}
