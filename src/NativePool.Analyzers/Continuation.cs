namespace NativePool.Analyzers;

/// <summary>An immutable stack of destinations that finally blocks continue to.</summary>
internal sealed class Continuation(int target, Continuation? next)
{
    /// <summary>The target that continues an exception rather than a block.</summary>
    public const int Rethrow = -1;

    /// <summary>A block ordinal, or <see cref="Rethrow"/>.</summary>
    public int Target { get; } = target;

    /// <summary>The rest of the stack.</summary>
    public Continuation? Next { get; } = next;

    /// <summary>A key that tells stacks apart.</summary>
    public static string Key(Continuation? continuation)
    {
        System.Text.StringBuilder builder = new();
        for (; continuation is not null; continuation = continuation.Next)
        {
            builder.Append(continuation.Target).Append(',');
        }

        return builder.ToString();
    }
}
