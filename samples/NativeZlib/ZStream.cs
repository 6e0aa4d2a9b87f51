using System.Runtime.InteropServices;

namespace NativePool.Samples.NativeZlib;

/// <summary>
/// zlib's <c>z_stream</c>. zlib keeps a pointer back to it inside its state and checks it on every call, so the struct
/// must not move for the stream's whole life: exactly what a native struct lease gives.
/// </summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct ZStream
{
    public byte* NextIn;
    public uint AvailIn;
    public CULong TotalIn;
    public byte* NextOut;
    public uint AvailOut;
    public CULong TotalOut;
    public sbyte* Message;
    public void* State;
    public void* ZAlloc;
    public void* ZFree;
    public void* Opaque;
    public int DataType;
    public CULong Adler;
    public CULong Reserved;
}
