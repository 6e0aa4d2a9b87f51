using System.IO;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>
/// The streams the stream scenarios compare, as struct sources: a generic operation over a source type is compiled
/// once per source, so each side of a comparison gets its own devirtualised loop.
/// </summary>
public static class StreamSources
{
    /// <summary>Gives a new stream, and a stream's contents as a sequence.</summary>
    public interface ISource
    {
        public Stream GetStream();

        public ReadOnlySequence<byte> GetSequence(Stream stream);
    }

    /// <summary><see cref="PooledStreamManager.Shared"/>.</summary>
    public readonly struct Pooled : ISource
    {
        public Stream GetStream() => PooledStreamManager.Shared.GetStream();

        public ReadOnlySequence<byte> GetSequence(Stream stream) => ((PooledStream)stream).GetReadOnlySequence();
    }

    /// <summary>RecyclableMemoryStream 4.0.1's manager with its default options.</summary>
    public readonly struct Recyclable : ISource
    {
        public Stream GetStream() => StreamWork.Recyclable.GetStream();

        public ReadOnlySequence<byte> GetSequence(Stream stream) => ((Microsoft.IO.RecyclableMemoryStream)stream).GetReadOnlySequence();
    }

    /// <summary>A new <see cref="MemoryStream"/>.</summary>
    public readonly struct Plain : ISource
    {
        public Stream GetStream() => new MemoryStream();

        public ReadOnlySequence<byte> GetSequence(Stream stream) => new(((MemoryStream)stream).GetBuffer(), 0, (int)stream.Length);
    }

    /// <summary>One operation: get a stream from <typeparamref name="TSource"/>, write <c>bytes</c> in 4 KiB writes, dispose it.</summary>
    public readonly struct WriteAndDispose<TSource>(int bytes) : Interleaved.IOperation
        where TSource : struct, ISource
    {
        public void Run(int count)
        {
            TSource source = default;
            for (int i = 0; i < count; i++)
            {
                using Stream stream = source.GetStream();
                StreamWork.WriteChunks(stream, bytes);
            }
        }
    }

    /// <summary>One operation: the sequence of a stream written once (<c>bytes</c> long) and a read of every segment.</summary>
    public readonly struct ReadSequence<TSource> : Interleaved.IOperation, IDisposable
        where TSource : struct, ISource
    {
        private readonly Stream _stream;

        public ReadSequence(int bytes)
        {
            _stream = default(TSource).GetStream();
            StreamWork.WriteChunks(_stream, bytes);
        }

        public void Run(int count)
        {
            TSource source = default;
            long sum = 0;
            for (int i = 0; i < count; i++)
            {
                sum += StreamWork.ReadBack(source.GetSequence(_stream));
            }

            GC.KeepAlive(sum);
        }

        public void Dispose() => _stream.Dispose();
    }

    /// <summary>One operation: get a stream from <typeparamref name="TSource"/>, make <c>writes</c> writes of 13 bytes, dispose it.</summary>
    public readonly struct SmallWrites<TSource>(int writes) : Interleaved.IOperation
        where TSource : struct, ISource
    {
        public void Run(int count)
        {
            TSource source = default;
            ReadOnlySpan<byte> record = "0123456789abc"u8;
            for (int i = 0; i < count; i++)
            {
                using Stream stream = source.GetStream();
                for (int w = 0; w < writes; w++)
                {
                    stream.Write(record);
                }
            }
        }
    }

    /// <summary>One operation: a stream written once (<c>bytes</c> long) in setup, rewound and copied with <c>CopyTo</c> into a <see cref="MemoryStream"/> of that capacity, rewound too (so every byte is copied and nothing is allocated).</summary>
    public readonly struct CopyToMemory<TSource> : Interleaved.IOperation, IDisposable
        where TSource : struct, ISource
    {
        private readonly Stream _stream;
        private readonly MemoryStream _destination;

        public CopyToMemory(int bytes)
        {
            _stream = default(TSource).GetStream();
            StreamWork.WriteChunks(_stream, bytes);
            _destination = new MemoryStream(bytes);
        }

        public void Run(int count)
        {
            for (int i = 0; i < count; i++)
            {
                _stream.Position = 0;
                _destination.Position = 0;
                _stream.CopyTo(_destination);
            }
        }

        public void Dispose() => _stream.Dispose();
    }
}
