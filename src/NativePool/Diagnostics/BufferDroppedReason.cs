namespace NativePool;

/// <summary>Why a pool let a returned item go (the <c>reason</c> of <see cref="NativePoolEventSource.BufferDropped"/>).</summary>
internal enum BufferDroppedReason
{
    /// <summary>Every place the item could be kept was full (or the pool's retention bound was reached).</summary>
    Full = 0,

    /// <summary>The item is larger than the largest size class; such items are never pooled.</summary>
    Oversize = 1,

    /// <summary>The pool's policy refused the item (an object pool's policy returned false).</summary>
    Rejected = 2,

    /// <summary>The item was never returned: what held it was collected with it (a pooled stream's storage).</summary>
    Abandoned = 3,
}
