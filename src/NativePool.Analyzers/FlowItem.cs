namespace NativePool.Analyzers;

/// <summary>One point of a path to explore: a basic block, the state on entry and what happens after the finally blocks being run.</summary>
internal readonly struct FlowItem(int block, int[] state, Continuation? continuation, ExceptionKind exception, int origin)
{
    /// <summary>The ordinal of the block.</summary>
    public int Block { get; } = block;

    /// <summary>Per tracked local four values (status, pool key, rent site, escape sites), then the flags, comparisons and captures.</summary>
    public int[] State { get; } = state;

    /// <summary>Where to go when the finally being run ends; -1 continues an exception.</summary>
    public Continuation? Continuation { get; } = continuation;

    /// <summary>The exception in flight through a finally, if any.</summary>
    public ExceptionKind Exception { get; } = exception;

    /// <summary>
    /// 0 on a path that no exception has taken; otherwise one more than the index of the first throwing call or
    /// <c>throw</c> the path went through: what it reports needs that exception to happen.
    /// </summary>
    public int Origin { get; } = origin;
}
