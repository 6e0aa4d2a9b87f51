namespace NativePool.Benchmarks.Peers;

/// <summary>
/// A byte-array pool seen through Rent and Release (its Return), so a buffer scenario is written once and run against every peer: a
/// struct implementing this, passed as a generic argument, is specialised by the JIT (the calls are direct).
/// </summary>
public interface IBytePool
{
    public byte[] Rent(int length);

    public void Release(byte[] array);
}
