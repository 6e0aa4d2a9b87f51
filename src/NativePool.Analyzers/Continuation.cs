namespace NativePool.Analyzers;

/// <summary>An immutable stack of destinations that finally blocks continue to: block ordinals, or <see cref="Rethrow"/>.</summary>
internal sealed record Continuation(int Target, Continuation? Next)
{
    /// <summary>The target that continues an exception rather than a block.</summary>
    public const int Rethrow = -1;

    /// <summary>A key that tells stacks apart.</summary>
    public static string Key(Continuation? continuation)
        => continuation is null ? string.Empty : continuation.Target.ToString(System.Globalization.CultureInfo.InvariantCulture) + "," + Key(continuation.Next);
}
