namespace NativePool.Benchmarks.Peers;

/// <summary>
/// One pool seen through Get and Return, so a benchmark body is written once and run against every peer: a struct
/// implementing this, passed as a generic argument, is specialised by the JIT (the calls are direct, as if written out).
/// The struct itself must not be generic over a reference type: the JIT shares one body among all reference-type
/// instantiations, and a shared body reaches the adapter's methods through a runtime lookup, a call per Get and per Return.
/// </summary>
public interface IObjectPoolAdapter<T>
    where T : class
{
    public T Take();

    public void Give(T item);
}
