namespace NativePool.Analyzers;

/// <summary>Why a path is leaving through exception handling.</summary>
internal enum ExceptionKind
{
    /// <summary>No exception: normal flow.</summary>
    None,

    /// <summary>A <c>throw</c> in the method: a resource held when it leaves the method is a leak.</summary>
    Explicit,

    /// <summary>A call that may throw: followed into catch and finally blocks, but a resource it strands is not reported.</summary>
    Implicit,
}
