namespace NativePool;

/// <summary>What a caller did wrong with a pooled item.</summary>
public enum PoolMisuseKind
{
    /// <summary>An item was returned while it was already in the pool (or after the pool dropped it). A stale return, made after the item was rented again, is not one of these: it cannot be told from its new holder's return.</summary>
    DoubleReturn = 0,

    /// <summary>An item the pool never handed out was returned to it.</summary>
    ForeignReturn = 1,

    /// <summary>An item was written to after it was returned (its poison pattern was damaged when it was next rented).</summary>
    WriteAfterReturn = 2,
}
