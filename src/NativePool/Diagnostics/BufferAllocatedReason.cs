namespace NativePool;

/// <summary>Why a pool allocated an item (the <c>reason</c> of <see cref="NativePoolEventSource.BufferAllocated"/>).</summary>
internal enum BufferAllocatedReason
{
    /// <summary>The pool had no item of the size class to hand out.</summary>
    PoolEmpty = 0,

    /// <summary>The request was larger than the largest size class: allocated at its exact size, never pooled.</summary>
    Oversize = 1,
}
