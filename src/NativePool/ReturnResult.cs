namespace NativePool;

/// <summary>What the engine did with a returned item.</summary>
internal enum ReturnResult
{
    /// <summary>Kept, in the thread slot or on a stripe.</summary>
    Stored = 0,

    /// <summary>Not kept: every stripe tried was full (the discard callback has run).</summary>
    Dropped,

    /// <summary>The item was already in the pool (a double return); nothing changed.</summary>
    Duplicate,
}
