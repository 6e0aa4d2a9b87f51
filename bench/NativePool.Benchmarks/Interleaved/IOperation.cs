namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// One side of an interleaved comparison: <see cref="Run"/> performs a batch of operations of the
/// scenario. Implemented by structs and called through a generic method constrained to <c>struct</c>, so the JIT compiles
/// one specialised, devirtualised timing loop per side.
/// </summary>
public interface IOperation
{
    /// <summary>Performs <paramref name="count"/> operations (what one operation is, the scenario says).</summary>
    public void Run(int count);
}
