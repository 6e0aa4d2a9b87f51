using System;
using System.Diagnostics;
using NativePool;
using NativePool.Samples.PipelinesChecksum;

// Usage: PipelinesChecksum [MiB]
long mebibytes = args.Length > 0 ? long.Parse(args[0], System.Globalization.CultureInfo.InvariantCulture) : 256;
var stopwatch = Stopwatch.StartNew();
ChecksumPipe.Result result = await ChecksumPipe.RunAsync(StripedMemoryPool<byte>.Shared, mebibytes << 20).ConfigureAwait(false);
stopwatch.Stop();
bool ok = result.FirstMismatch < 0 && result.WriterChecksum == result.ReaderChecksum && result.Bytes == mebibytes << 20;
Console.WriteLine($"{result.Bytes >> 20} MiB in {stopwatch.Elapsed.TotalSeconds:F2} s, checksum {result.ReaderChecksum:x16}: {(ok ? "every byte verified" : "MISMATCH")}");
Console.WriteLine($"Pool: {StripedMemoryPool<byte>.Shared.GetStatistics()}");
return ok ? 0 : 1;
