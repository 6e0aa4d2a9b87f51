namespace NativePool.Analyzers.Tests.Migration;

/// <summary>
/// Real-shaped rent sites, in two files, for the migration test: parsers, formatters, hashing and stream or socket-send
/// code, written the way code that uses <c>ArrayPool&lt;T&gt;.Shared</c> (or a pool field) is written. A rent whose
/// array leaves the method is marked <c>// stays</c> on its line: no fix may touch it. <c>Harness.Run</c> calls every
/// method on inputs below and above each stackalloc limit and gives back what the escaping ones handed out.
/// </summary>
internal static class MigrationCorpus
{
    /// <summary>Parsers and hashing.</summary>
    public const string Parsers = """
        using System;
        using System.Buffers;
        using System.Buffers.Binary;
        using System.Globalization;
        using System.IO;
        using System.Security.Cryptography;
        using System.Text;
        using NativePool;

        namespace Corpus;

        public static class Parsers
        {
            internal static readonly StripedArrayPool<byte> s_bytes = StripedArrayPool<byte>.Create();
            internal static readonly StripedArrayPool<int> s_ints = StripedArrayPool<int>.Create();

            public static long SumStream(Stream stream)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(4096);
                try
                {
                    long sum = 0;
                    int read;
                    while ((read = stream.Read(buffer, 0, buffer.Length)) > 0)
                    {
                        for (int i = 0; i < read; i++)
                        {
                            sum += buffer[i];
                        }
                    }

                    return sum;
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }

            public static string Sha256Hex(string text)
            {
                byte[] bytes = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetMaxByteCount(text.Length));
                try
                {
                    int count = Encoding.UTF8.GetBytes(text, 0, text.Length, bytes, 0);
                    return Convert.ToHexString(SHA256.HashData(bytes.AsSpan(0, count)));
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(bytes, clearArray: true);
                }
            }

            public static string Histogram(string text)
            {
                int[] counts = s_ints.Rent(128);
                try
                {
                    counts.AsSpan(0, 128).Clear();
                    foreach (char c in text)
                    {
                        counts[c & 127]++;
                    }

                    int best = 0;
                    for (int i = 1; i < 128; i++)
                    {
                        best = counts[i] > counts[best] ? i : best;
                    }

                    return ((char)best).ToString() + counts[best].ToString(CultureInfo.InvariantCulture);
                }
                finally
                {
                    s_ints.Return(counts);
                }
            }

            public static int Checksum(Stream stream, int length)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(length);
                int read = stream.Read(buffer, 0, length);
                int sum = 17;
                for (int i = 0; i < read; i++)
                {
                    sum = unchecked((sum * 31) + buffer[i]);
                }

                ArrayPool<byte>.Shared.Return(buffer);
                return sum;
            }

            public static int ParseSum(string csv)
            {
                int[] values = ArrayPool<int>.Shared.Rent(csv.Length + 1);
                int count = 0;
                foreach (string part in csv.Split(','))
                {
                    values[count++] = int.Parse(part, CultureInfo.InvariantCulture);
                }

                int total = 0;
                foreach (int value in values.AsSpan(0, count))
                {
                    total += value;
                }

                ArrayPool<int>.Shared.Return(values);
                return total;
            }

            public static int XorHash(byte[] left, byte[] right)
            {
                byte[] mixed = s_bytes.Rent(left.Length);
                for (int i = 0; i < left.Length; i++)
                {
                    mixed[i] = (byte)(left[i] ^ right[i]);
                }

                int hash = Fnv(mixed, left.Length);
                s_bytes.Return(mixed);
                return hash;
            }

            public static int MergeSorted(int[] first, int[] second)
            {
                int[] merged = ArrayPool<int>.Shared.Rent(first.Length + second.Length);
                int[] scratch = ArrayPool<int>.Shared.Rent(first.Length + second.Length);
                first.CopyTo(scratch, 0);
                second.CopyTo(scratch, first.Length);
                Array.Sort(scratch, 0, first.Length + second.Length);
                Array.Copy(scratch, merged, first.Length + second.Length);
                int median = merged[(first.Length + second.Length) / 2];
                ArrayPool<int>.Shared.Return(scratch);
                ArrayPool<int>.Shared.Return(merged);
                return median;
            }

            public static int Utf8Hash(string text)
            {
                byte[]? rented = null;
                int max = Encoding.UTF8.GetMaxByteCount(text.Length);
                Span<byte> bytes = max <= 256 ? stackalloc byte[256] : (rented = ArrayPool<byte>.Shared.Rent(max));
                int count = Encoding.UTF8.GetBytes(text, bytes);
                int hash = Fnv(bytes.Slice(0, count));
                if (rented != null)
                {
                    ArrayPool<byte>.Shared.Return(rented);
                }

                return hash;
            }

            public static string KeyDigest(string key)
            {
                byte[]? pooled = null;
                Span<byte> utf8 = key.Length <= 64 ? stackalloc byte[192] : (pooled = ArrayPool<byte>.Shared.Rent(key.Length * 3));
                try
                {
                    int count = Encoding.UTF8.GetBytes(key, utf8);
                    return Convert.ToHexString(SHA256.HashData(utf8.Slice(0, count)));
                }
                finally
                {
                    if (pooled != null)
                    {
                        ArrayPool<byte>.Shared.Return(pooled, clearArray: true);
                    }
                }
            }

            public static int ParseHex(string hex)
            {
                byte[]? rented = null;
                try
                {
                    int length = hex.Length / 2;
                    Span<byte> bytes = length <= 32 ? stackalloc byte[32] : (rented = s_bytes.Rent(length));
                    for (int i = 0; i < length; i++)
                    {
                        bytes[i] = byte.Parse(hex.AsSpan(2 * i, 2), NumberStyles.HexNumber, CultureInfo.InvariantCulture);
                    }

                    return Fnv(bytes.Slice(0, length));
                }
                finally
                {
                    if (rented is not null)
                    {
                        s_bytes.Return(rented);
                    }
                }
            }

            public static int ReadFrameLength(Stream stream)
            {
                byte[]? rented = null;
                Span<byte> header = stream.Length <= 16 ? stackalloc byte[16] : (rented = ArrayPool<byte>.Shared.Rent((int)stream.Length));
                int read = stream.Read(header);
                int length = read >= 4 ? BinaryPrimitives.ReadInt32BigEndian(header) : -1;
                if (rented != null)
                {
                    ArrayPool<byte>.Shared.Return(rented);
                }

                Console.Out.Flush();
                return length + read;
            }

            public static byte[] RentFilled(int length)
            {
                byte[] array = ArrayPool<byte>.Shared.Rent(length); // stays
                array.AsSpan(0, length).Fill(7);
                return array;
            }

            public static void RentInto(int length, out byte[] array)
            {
                byte[] rented = ArrayPool<byte>.Shared.Rent(length); // stays
                rented[0] = 9;
                array = rented;
            }

            internal static int Fnv(byte[] data, int length) => Fnv(data.AsSpan(0, length));

            internal static int Fnv(ReadOnlySpan<byte> data)
            {
                uint hash = 2166136261;
                foreach (byte b in data)
                {
                    hash = unchecked((hash ^ b) * 16777619);
                }

                return (int)hash;
            }
        }
        """;

    /// <summary>Formatters, socket-send style writers, the escaping sites that must stay, and the harness.</summary>
    public const string Formatters = """
        using System;
        using System.Buffers;
        using System.Collections.Generic;
        using System.Globalization;
        using System.IO;
        using System.IO.Pipelines;
        using System.Net.Http;
        using System.Text;
        using System.Threading;
        using NativePool;

        namespace Corpus;

        public sealed class Formatters
        {
            internal static readonly StripedArrayPool<char> s_chars = StripedArrayPool<char>.Create();

            private readonly List<byte[]> _segments = [];
            private byte[]? _pending;
            private Action? _release;

            public static string HexEncode(byte[] data)
            {
                char[] buffer = ArrayPool<char>.Shared.Rent(data.Length * 2);
                try
                {
                    for (int i = 0; i < data.Length; i++)
                    {
                        buffer[2 * i] = "0123456789abcdef"[data[i] >> 4];
                        buffer[(2 * i) + 1] = "0123456789abcdef"[data[i] & 15];
                    }

                    return new string(buffer, 0, data.Length * 2);
                }
                finally
                {
                    ArrayPool<char>.Shared.Return(buffer);
                }
            }

            public static long CopyStream(Stream source, Stream destination)
            {
                byte[] chunk = ArrayPool<byte>.Shared.Rent(1024);
                try
                {
                    long total = 0;
                    int read;
                    while ((read = source.Read(chunk, 0, chunk.Length)) > 0)
                    {
                        destination.Write(chunk, 0, read);
                        total += read;
                    }

                    return total;
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(chunk, clearArray: true);
                }
            }

            public static string ToUpperAscii(string text)
            {
                char[] chars = ArrayPool<char>.Shared.Rent(text.Length);
                text.CopyTo(0, chars, 0, text.Length);
                for (int i = 0; i < text.Length; i++)
                {
                    chars[i] = char.ToUpperInvariant(chars[i]);
                }

                string result = new string(chars, 0, text.Length);
                ArrayPool<char>.Shared.Return(chars);
                return result;
            }

            public static string Base64(byte[] data)
            {
                char[] chars = ArrayPool<char>.Shared.Rent(((data.Length + 2) / 3) * 4);
                Convert.TryToBase64Chars(data, chars, out int written);
                string encoded = new string(chars, 0, written);
                ArrayPool<char>.Shared.Return(chars);
                return encoded;
            }

            public static void SendFramed(Stream socket, ReadOnlySpan<byte> payload)
            {
                byte[] frame = ArrayPool<byte>.Shared.Rent(payload.Length + 4);
                System.Buffers.Binary.BinaryPrimitives.WriteInt32BigEndian(frame, payload.Length);
                payload.CopyTo(frame.AsSpan(4));
                socket.Write(frame, 0, payload.Length + 4);
                ArrayPool<byte>.Shared.Return(frame);
            }

            public static int WriteReport(TextWriter writer, int[] numbers)
            {
                int lines = 0;
                char[] buffer = s_chars.Rent(16);
                foreach (int number in numbers)
                {
                    number.TryFormat(buffer, out int written, default, CultureInfo.InvariantCulture);
                    writer.Write(buffer, 0, written);
                    writer.WriteLine();
                    lines++;
                }

                s_chars.Return(buffer);
                writer.Flush();
                return lines;
            }

            public static string JoinNumbers(int[] values)
            {
                char[]? rented = null;
                try
                {
                    int max = (values.Length * 12) + 1;
                    Span<char> chars = max <= 256 ? stackalloc char[256] : (rented = ArrayPool<char>.Shared.Rent(max));
                    int position = 0;
                    foreach (int value in values)
                    {
                        value.TryFormat(chars.Slice(position), out int written, default, CultureInfo.InvariantCulture);
                        position += written;
                        chars[position++] = ',';
                    }

                    return chars.Slice(0, position).ToString();
                }
                finally
                {
                    if (rented is not null)
                    {
                        ArrayPool<char>.Shared.Return(rented);
                    }
                }
            }

            public static string Reverse(string text)
            {
                char[]? toReturn = null;
                Span<char> buffer = (text.Length > 64 ? (toReturn = ArrayPool<char>.Shared.Rent(text.Length)) : stackalloc char[64]).Slice(0, text.Length);
                text.AsSpan().CopyTo(buffer);
                buffer.Reverse();
                string reversed = new string(buffer);
                if (toReturn != null)
                {
                    ArrayPool<char>.Shared.Return(toReturn);
                }

                return reversed;
            }

            public static void SendLine(Stream stream, string line)
            {
                byte[]? rented = null;
                int max = line.Length + 2;
                Span<byte> buffer = max <= 512 ? stackalloc byte[512] : (rented = ArrayPool<byte>.Shared.Rent(max));
                int count = Encoding.ASCII.GetBytes(line, buffer);
                buffer[count++] = (byte)'\r';
                buffer[count++] = (byte)'\n';
                stream.Write(buffer.Slice(0, count));
                if (rented != null)
                {
                    ArrayPool<byte>.Shared.Return(rented);
                }
            }

            public static int CountVowels(string text)
            {
                char[]? rented = null;
                Span<char> lower = text.Length <= 100 ? stackalloc char[100] : (rented = s_chars.Rent(text.Length));
                text.AsSpan().ToLowerInvariant(lower);
                int vowels = 0;
                foreach (char c in lower.Slice(0, text.Length))
                {
                    vowels += "aeiou".Contains(c) ? 1 : 0;
                }

                if (rented is not null)
                {
                    s_chars.Return(rented);
                }

                return vowels;
            }

            public void BeginSegment(int length)
            {
                byte[] segment = ArrayPool<byte>.Shared.Rent(length); // stays
                segment[0] = (byte)length;
                byte[] current = segment;
                _segments.Add(current);
            }

            public void Hold(int length)
            {
                byte[] held = ArrayPool<byte>.Shared.Rent(length); // stays
                held[0] = 1;
                _pending = held;
            }

            public void Defer(int length)
            {
                byte[] deferred = ArrayPool<byte>.Shared.Rent(length); // stays
                deferred[0] = 2;
                _release = () => ArrayPool<byte>.Shared.Return(deferred);
            }

            public int KeepOnFailure(int length)
            {
                byte[] attempt = ArrayPool<byte>.Shared.Rent(length); // stays
                attempt[0] = (byte)length;
                if (length % 2 == 0)
                {
                    ArrayPool<byte>.Shared.Return(attempt);
                    return 0;
                }

                _segments.Add(attempt);
                return 1;
            }

            public int ProcessThroughField(int length)
            {
                byte[] work = ArrayPool<byte>.Shared.Rent(length); // stays
                _pending = work;
                int result = Consume();
                _pending = null;
                ArrayPool<byte>.Shared.Return(work);
                return result;
            }

            public static int SquaresInParallel(int count)
            {
                int[] squares = ArrayPool<int>.Shared.Rent(count);
                System.Threading.Tasks.Parallel.For(0, count, i => squares[i] = i * i);
                int sum = 0;
                for (int i = 0; i < count; i++)
                {
                    sum += squares[i];
                }

                ArrayPool<int>.Shared.Return(squares);
                return sum;
            }

            public int ReleaseAll()
            {
                int released = _segments.Count;
                foreach (byte[] segment in _segments)
                {
                    ArrayPool<byte>.Shared.Return(segment);
                }

                _segments.Clear();
                if (_pending is not null)
                {
                    ArrayPool<byte>.Shared.Return(_pending);
                    _pending = null;
                    released++;
                }

                _release?.Invoke();
                return released;
            }

            private int Consume()
            {
                _pending![0] = 4;
                return _pending[0] + _pending.Length;
            }
        }

        public static class Harness
        {
            public static long Outstanding()
                => Parsers.s_bytes.GetStatistics().Outstanding + Parsers.s_ints.GetStatistics().Outstanding + Formatters.s_chars.GetStatistics().Outstanding
                    + AsyncIo.s_bytes.GetStatistics().Outstanding;

            public static string Run()
            {
                StringBuilder log = new();
                void Add(string name, object? value) => log.Append(name).Append('=').Append(Convert.ToString(value, CultureInfo.InvariantCulture)).Append('\n');

                byte[] data = new byte[10000];
                for (int i = 0; i < data.Length; i++)
                {
                    data[i] = (byte)((i * 7) + 3);
                }

                string small = "Hello, pool";
                string large = new string('q', 300) + "éa" + new string('Z', 200);
                foreach (string text in new[] { small, large })
                {
                    Add("Sha256Hex", Parsers.Sha256Hex(text));
                    Add("Histogram", Parsers.Histogram(text));
                    Add("Utf8Hash", Parsers.Utf8Hash(text));
                    Add("KeyDigest", Parsers.KeyDigest(text));
                    Add("ToUpperAscii", Formatters.ToUpperAscii(text));
                    Add("Reverse", Formatters.Reverse(text));
                    Add("CountVowels", Formatters.CountVowels(text));
                    using MemoryStream line = new();
                    Formatters.SendLine(line, text);
                    Add("SendLine", Convert.ToBase64String(line.ToArray()));
                }

                foreach (int length in new[] { 3, 100, 10000 })
                {
                    byte[] slice = data.AsSpan(0, length).ToArray();
                    Add("SumStream", Parsers.SumStream(new MemoryStream(slice)));
                    Add("Checksum", Parsers.Checksum(new MemoryStream(slice), length));
                    Add("XorHash", Parsers.XorHash(slice, slice.AsSpan().ToArray()));
                    Add("HexEncode", Formatters.HexEncode(slice).Length);
                    Add("Base64", Formatters.Base64(slice));
                    Add("ParseHex", Parsers.ParseHex(Convert.ToHexString(slice)));
                    Add("ReadFrameLength", Parsers.ReadFrameLength(new MemoryStream(slice)));
                    using MemoryStream copy = new();
                    Add("CopyStream", Formatters.CopyStream(new MemoryStream(slice), copy) + copy.ToArray()[length - 1]);
                    using MemoryStream socket = new();
                    Formatters.SendFramed(socket, slice);
                    Add("SendFramed", Parsers.Fnv(socket.ToArray()));
                }

                Add("ParseSum", Parsers.ParseSum("1,2,3,40"));
                try
                {
                    Add("ParseSum", Parsers.ParseSum("1,x,3"));
                }
                catch (FormatException)
                {
                    Add("ParseSum", "FormatException");
                }

                Add("MergeSorted", Parsers.MergeSorted([5, 1, 9], [4, 8, 2, 7]));
                Add("JoinNumbers", Formatters.JoinNumbers([1, -20, 300]));
                Add("JoinNumbers", Formatters.JoinNumbers(new int[40]).Length);
                StringWriter writer = new();
                Add("WriteReport", Formatters.WriteReport(writer, [7, 42, -3]) + writer.ToString());

                byte[] filled = Parsers.RentFilled(12);
                Add("RentFilled", filled[11]);
                ArrayPool<byte>.Shared.Return(filled);
                Parsers.RentInto(5, out byte[] into);
                Add("RentInto", into[0]);
                ArrayPool<byte>.Shared.Return(into);
                Formatters holder = new();
                Add("ProcessThroughField", holder.ProcessThroughField(8) > 0);
                Add("SquaresInParallel", Formatters.SquaresInParallel(50));
                holder.BeginSegment(10);
                holder.BeginSegment(20);
                holder.Hold(30);
                holder.Defer(40);
                Add("KeepOnFailure", holder.KeepOnFailure(6) + holder.KeepOnFailure(7));
                Add("ReleaseAll", holder.ReleaseAll());

                foreach (int length in new[] { 3, 100, 10000 })
                {
                    byte[] slice = data.AsSpan(0, length).ToArray();
                    using MemoryStream copied = new();
                    Add("CopyAsync", AsyncIo.CopyAsync(new MemoryStream(slice), copied, CancellationToken.None).GetAwaiter().GetResult() + Parsers.Fnv(copied.ToArray()));
                    using MemoryStream framed = new();
                    AsyncIo.SendFramedAsync(framed, slice).GetAwaiter().GetResult();
                    Add("SendFramedAsync", Parsers.Fnv(framed.ToArray()));
                    framed.Position = 0;
                    Add("ReadMessageAsync", AsyncIo.ReadMessageAsync(framed).GetAwaiter().GetResult());
                    Pipe pipe = new();
                    pipe.Writer.WriteAsync(slice).AsTask().GetAwaiter().GetResult();
                    pipe.Writer.Complete();
                    Add("SumPipeAsync", AsyncIo.SumPipeAsync(pipe.Reader, length).GetAwaiter().GetResult());
                    using ByteArrayContent body = new(slice);
                    Add("HashBodyAsync", AsyncIo.HashBodyAsync(body).GetAwaiter().GetResult());
                    using StringContent text = new(new string('w', length) + "é");
                    Add("ReadBodyAsync", AsyncIo.ReadBodyAsync(text, length + 1).GetAwaiter().GetResult());
                    byte[] prefix = AsyncIo.ReadPrefixAsync(new MemoryStream(slice), length).GetAwaiter().GetResult();
                    Add("ReadPrefixAsync", prefix[length - 1]);
                    ArrayPool<byte>.Shared.Return(prefix);
                    Add("WriteInBackgroundAsync", AsyncIo.WriteInBackgroundAsync(Stream.Null, length).GetAwaiter().GetResult());
                }

                AsyncIo io = new();
                io.QueueAsync(new MemoryStream(data), 64).GetAwaiter().GetResult();
                io.QueueAsync(new MemoryStream(data), 640).GetAwaiter().GetResult();
                Add("AsyncReleaseAll", io.ReleaseAll());
                return log.ToString();
            }
        }
        """;

    /// <summary>
    /// Buffers held across an <c>await</c>: stream copy, framed socket-style send and receive, pipe reading and HTTP
    /// body buffering, with a <c>finally</c> and without; and the escaping ones that must stay.
    /// </summary>
    public const string Async = """
        using System;
        using System.Buffers;
        using System.Buffers.Binary;
        using System.Collections.Generic;
        using System.IO;
        using System.IO.Pipelines;
        using System.Net.Http;
        using System.Security.Cryptography;
        using System.Text;
        using System.Threading;
        using System.Threading.Tasks;
        using NativePool;

        namespace Corpus;

        public sealed class AsyncIo
        {
            internal static readonly StripedArrayPool<byte> s_bytes = StripedArrayPool<byte>.Create();

            private readonly List<byte[]> _inFlight = [];

            public static async Task<long> CopyAsync(Stream source, Stream destination, CancellationToken cancellationToken)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(81920);
                try
                {
                    long total = 0;
                    int read;
                    while ((read = await source.ReadAsync(buffer.AsMemory(0, buffer.Length), cancellationToken).ConfigureAwait(false)) != 0)
                    {
                        await destination.WriteAsync(buffer.AsMemory(0, read), cancellationToken).ConfigureAwait(false);
                        total += read;
                    }

                    return total;
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }

            public static async Task SendFramedAsync(Stream socket, ReadOnlyMemory<byte> payload)
            {
                byte[] frame = ArrayPool<byte>.Shared.Rent(payload.Length + 4);
                BinaryPrimitives.WriteInt32BigEndian(frame, payload.Length);
                payload.Span.CopyTo(frame.AsSpan(4));
                await socket.WriteAsync(frame.AsMemory(0, payload.Length + 4));
                await socket.FlushAsync();
                ArrayPool<byte>.Shared.Return(frame);
            }

            public static async Task<int> ReadMessageAsync(Stream stream)
            {
                byte[] header = s_bytes.Rent(4);
                try
                {
                    await stream.ReadExactlyAsync(header.AsMemory(0, 4));
                    int length = BinaryPrimitives.ReadInt32BigEndian(header);
                    byte[] body = s_bytes.Rent(length);
                    try
                    {
                        await stream.ReadExactlyAsync(body.AsMemory(0, length));
                        return Parsers.Fnv(body, length);
                    }
                    finally
                    {
                        s_bytes.Return(body);
                    }
                }
                finally
                {
                    s_bytes.Return(header);
                }
            }

            public static async Task<int> SumPipeAsync(PipeReader reader, int capacity)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(capacity);
                int total = 0;
                while (true)
                {
                    ReadResult result = await reader.ReadAsync();
                    foreach (ReadOnlyMemory<byte> segment in result.Buffer)
                    {
                        int count = Math.Min(segment.Length, capacity - total);
                        segment.Span.Slice(0, count).CopyTo(buffer.AsSpan(total));
                        total += count;
                    }

                    reader.AdvanceTo(result.Buffer.End);
                    if (result.IsCompleted)
                    {
                        break;
                    }
                }

                await reader.CompleteAsync();
                int sum = Parsers.Fnv(buffer, total);
                ArrayPool<byte>.Shared.Return(buffer);
                return sum;
            }

            public static async Task<string> HashBodyAsync(HttpContent content)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(1024);
                using IncrementalHash hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
                await using Stream body = await content.ReadAsStreamAsync();
                int read;
                while ((read = await body.ReadAsync(buffer, 0, 1024)) > 0)
                {
                    hash.AppendData(buffer, 0, read);
                }

                ArrayPool<byte>.Shared.Return(buffer);
                return Convert.ToHexString(hash.GetHashAndReset());
            }

            public static async Task<string> ReadBodyAsync(HttpContent content, int maxLength)
            {
                char[] chars = ArrayPool<char>.Shared.Rent(maxLength);
                try
                {
                    using StreamReader reader = new(await content.ReadAsStreamAsync(), Encoding.UTF8);
                    int total = 0;
                    int read;
                    while (total < maxLength && (read = await reader.ReadAsync(chars.AsMemory(total, maxLength - total))) > 0)
                    {
                        total += read;
                    }

                    return new string(chars, 0, total);
                }
                finally
                {
                    ArrayPool<char>.Shared.Return(chars);
                }
            }

            public static async Task<byte[]> ReadPrefixAsync(Stream stream, int length)
            {
                byte[] prefix = ArrayPool<byte>.Shared.Rent(length); // stays
                await stream.ReadExactlyAsync(prefix.AsMemory(0, length));
                return prefix;
            }

            public async Task QueueAsync(Stream stream, int length)
            {
                byte[] pending = ArrayPool<byte>.Shared.Rent(length); // stays
                await stream.ReadExactlyAsync(pending.AsMemory(0, length));
                _inFlight.Add(pending);
            }

            public static async Task<int> WriteInBackgroundAsync(Stream stream, int length)
            {
                byte[] payload = ArrayPool<byte>.Shared.Rent(length); // stays
                payload.AsSpan(0, length).Fill(5);
                Task write = stream.WriteAsync(payload, 0, length);
                await Task.Yield();
                await write;
                ArrayPool<byte>.Shared.Return(payload);
                return length;
            }

            public int ReleaseAll()
            {
                int released = 0;
                foreach (byte[] pending in _inFlight)
                {
                    released += pending[0] + 1;
                    ArrayPool<byte>.Shared.Return(pending);
                }

                _inFlight.Clear();
                return released;
            }
        }
        """;
}
