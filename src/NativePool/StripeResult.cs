namespace NativePool;

/// <summary>What one attempt on a stripe did.</summary>
internal enum StripeResult
{
    /// <summary>The item was pushed or popped.</summary>
    Done = 0,

    /// <summary>A pop found the stripe empty.</summary>
    Empty,

    /// <summary>A push found the stripe (or every stripe tried) at capacity.</summary>
    Full,

    /// <summary>Another thread held the stripe's claim; the caller moves on instead of waiting.</summary>
    Contended,

    /// <summary>A push found the same item on top of the stripe: a double return.</summary>
    Duplicate,
}
