namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// A scenario whose two sides are the struct operations <typeparamref name="TOurs"/> and <typeparamref name="TPeer"/>,
/// created fresh for each measurement; a side that is <see cref="IDisposable"/> is disposed afterwards.
/// </summary>
public sealed class InterleavedScenario<TOurs, TPeer> : InterleavedScenario
    where TOurs : struct, IOperation
    where TPeer : struct, IOperation
{
    private readonly Func<TOurs> _createOurs;
    private readonly Func<TPeer> _createPeer;

    public InterleavedScenario(string name, double goal, AllocationGoal allocationGoal, Func<TOurs> createOurs, Func<TPeer> createPeer)
        : base(name, goal, allocationGoal)
    {
        _createOurs = createOurs;
        _createPeer = createPeer;
    }

    public InterleavedScenario(string name, double goal, Func<TOurs> createOurs, Func<TPeer> createPeer)
        : this(name, goal, AllocationGoal.None, createOurs, createPeer)
    {
    }

    public override ScenarioResult Measure(RoundSettings settings)
    {
        TOurs ours = _createOurs();
        TPeer peer = _createPeer();
        try
        {
            return AbRunner.Compare(this, ref ours, ref peer, settings);
        }
        finally
        {
            (ours as IDisposable)?.Dispose();
            (peer as IDisposable)?.Dispose();
        }
    }
}
