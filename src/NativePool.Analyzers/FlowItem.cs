namespace NativePool.Analyzers;

/// <summary>
/// One point of a path to explore, with the state on entry and what follows the finally blocks being run. <c>Origin</c>
/// is 0 on a path no exception has taken, else one more than the index of its first throwing call or <c>throw</c>.
/// </summary>
internal readonly record struct FlowItem(int Block, int[] State, Continuation? Continuation, ExceptionKind Exception, int Origin);
