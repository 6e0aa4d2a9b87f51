namespace NativePool;

/// <summary>A pool told by <see cref="PoolObservation"/> when anybody starts or stops observing pools.</summary>
internal interface IObservationSubscriber
{
    /// <summary>Called under <see cref="PoolObservation"/>'s lock on subscription and on every change.</summary>
    /// <param name="observed">Whether a listener is enabled or a guarded pool exists.</param>
    public void OnObservationChanged(bool observed);
}
