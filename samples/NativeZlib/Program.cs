using System;
using NativePool;
using NativePool.Samples.NativeZlib;

// Compresses 1 MiB held in a native block with a z_stream held in a native struct lease, decompresses it into a third
// block, and checks the round trip with zlib's crc32 over the native memory.
if (!ZLib.IsAvailable)
{
    Console.WriteLine("libz.so.1 is not installed.");
    return 2;
}

const int Size = 1 << 20;
using var blocks = NativeBlockPool.Create();
using var streams = NativeStructPool<ZStream>.Create();

bool ok = RoundTrip(blocks, streams);

// Every lease is disposed by now: the blocks are back in the pool (Pooled), none is out (Outstanding 0).
Console.WriteLine($"Blocks: {blocks.GetStatistics()}");
Console.WriteLine($"Streams: {streams.GetStatistics()}");
return ok ? 0 : 1;

static bool RoundTrip(NativeBlockPool blocks, NativeStructPool<ZStream> streams)
{
    using NativeBlockLease original = blocks.Rent(Size);
    var random = new Random(7);
    for (int i = 0; i < Size; i++)
    {
        original.Span[i] = (byte)(random.Next(16) + 'a');
    }

    using NativeBlockLease compressed = blocks.Rent(Size + 1024);
    using NativeBlockLease restored = blocks.Rent(Size);
    int compressedLength;
    int restoredLength;
    unsafe
    {
        using (NativeStructLease<ZStream> deflater = streams.Rent())
        {
            compressedLength = ZLib.Compress(deflater.Pointer, original.Span, compressed.Span);
        }

        using (NativeStructLease<ZStream> inflater = streams.Rent())
        {
            restoredLength = ZLib.Decompress(inflater.Pointer, compressed.Span[..compressedLength], restored.Span);
        }

        ulong before = ZLib.Crc32(default, (byte*)original.Pointer, Size).Value;
        ulong after = ZLib.Crc32(default, (byte*)restored.Pointer, (uint)restoredLength).Value;
        Console.WriteLine($"{Size} B -> {compressedLength} B -> {restoredLength} B; crc32 {before:x8} / {after:x8}: {(before == after ? "round trip OK" : "MISMATCH")}");
        return before == after && restoredLength == Size;
    }
}
