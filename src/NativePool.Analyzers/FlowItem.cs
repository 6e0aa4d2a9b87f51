namespace NativePool.Analyzers;

/// <summary>One point of a path to explore: a basic block, the state on entry and what happens after the finally blocks being run.</summary>
internal readonly struct FlowItem
{
    public FlowItem(int block, int[] state, Continuation? continuation, ExceptionKind exception)
    {
        Block = block;
        State = state;
        Continuation = continuation;
        Exception = exception;
    }

    /// <summary>The ordinal of the block.</summary>
    public int Block { get; }

    /// <summary>Per tracked local three values (status, pool key, rent site), then one value per flag.</summary>
    public int[] State { get; }

    /// <summary>Where to go when the finally being run ends; -1 continues an exception.</summary>
    public Continuation? Continuation { get; }

    /// <summary>The exception in flight through a finally, if any.</summary>
    public ExceptionKind Exception { get; }
}
