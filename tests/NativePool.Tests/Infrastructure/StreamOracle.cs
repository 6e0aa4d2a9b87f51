using System.IO;

namespace NativePool.Tests;

/// <summary>
/// Runs one operation on a <see cref="PooledStream"/> and on a <see cref="MemoryStream"/> (the oracle) and checks they
/// agree: the same result or the same exception type, then the same length, position and contents.
/// </summary>
internal sealed class StreamOracle : IDisposable
{
    public StreamOracle(PooledStreamManager manager)
    {
        Pooled = manager.GetStream();
        Oracle = new MemoryStream();
    }

    public PooledStream Pooled { get; }

    public MemoryStream Oracle { get; }

    /// <summary>Runs <paramref name="operation"/> on both streams and checks the outcomes and states agree.</summary>
    /// <param name="name">The operation, for the failure message.</param>
    /// <param name="operation">The operation; its result is compared with <see cref="object.Equals(object, object)"/>.</param>
    public void Check(string name, Func<Stream, object?> operation)
    {
        (object? expected, Type? expectedError) = Outcome(Oracle, operation);
        (object? actual, Type? actualError) = Outcome(Pooled, operation);
        Assert.True(expectedError == actualError, $"{name}: MemoryStream threw {expectedError?.Name ?? "nothing"}, PooledStream {actualError?.Name ?? "nothing"}.");
        Assert.True(Equals(expected, actual), $"{name}: MemoryStream gave {expected}, PooledStream {actual}.");
        CheckState(name);
    }

    /// <summary>Checks the open/closed flags and, while open, the length, position and every byte.</summary>
    public void CheckState(string name)
    {
        Assert.Equal(Oracle.CanRead, Pooled.CanRead);
        Assert.Equal(Oracle.CanWrite, Pooled.CanWrite);
        Assert.Equal(Oracle.CanSeek, Pooled.CanSeek);
        if (!Oracle.CanRead)
        {
            return;
        }

        Assert.True(Oracle.Length == Pooled.Length, $"{name}: length {Oracle.Length} expected, {Pooled.Length} found.");
        Assert.True(Oracle.Position == Pooled.Position, $"{name}: position {Oracle.Position} expected, {Pooled.Position} found.");
        Assert.True(Pooled.Capacity >= Pooled.Length, $"{name}: capacity {Pooled.Capacity} is below the length.");
        Assert.True(Oracle.ToArray().AsSpan().SequenceEqual(Pooled.ToArray()), $"{name}: the contents differ.");
    }

    public void Dispose()
    {
        Pooled.Dispose();
        Oracle.Dispose();
    }

    private static (object? Result, Type? Error) Outcome(Stream stream, Func<Stream, object?> operation)
    {
        try
        {
            object? result = operation(stream);
            if (result is Task task)
            {
                // Asynchronous members: a faulted or cancelled task is compared as the exception it carries.
                task.GetAwaiter().GetResult();
                result = task.GetType().IsGenericType ? task.GetType().GetProperty("Result")!.GetValue(task) : null;
            }

            return (Flatten(result), null);
        }
        catch (Exception exception)
        {
            return (null, exception.GetType());
        }
    }

    private static object? Flatten(object? result) => result is byte[] bytes ? Convert.ToHexString(bytes) : result;
}
