namespace NativePool.Benchmarks.Interleaved;

/// <summary>The allocation part of a goal, judged on the mean bytes allocated per operation over the measured rounds.</summary>
public enum AllocationGoal
{
    /// <summary>The goal is about time only.</summary>
    None,

    /// <summary>Ours allocates nothing: less than half a byte per operation (the rounding of the table).</summary>
    OursAllocatesNothing,

    /// <summary>Ours allocates no more per operation than the peer (plus half a byte of rounding).</summary>
    OursNoMoreThanPeer,
}
