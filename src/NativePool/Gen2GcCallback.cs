using System;
using System.Runtime.ConstrainedExecution;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>Calls back after every gen-2 collection for as long as its target is alive, without keeping it alive.</summary>
/// <remarks>
/// <para>
/// An unreachable object with a finalizer is finalized after the collection that found it unreachable; re-registering
/// the finalizer from inside it arms it again for the next one. Nothing references the callback object, so it is found
/// unreachable (and run) once per gen-2 collection.
/// </para>
/// <para>
/// The target is held through a weak <see cref="GCHandle"/> that this object owns, not through a
/// <see cref="WeakReference{T}"/>: a weak-reference object is unreachable together with the callback and has a
/// finalizer of its own that frees its handle, so by the time this finalizer ran it already answered "gone" and the
/// callback never fired. A raw handle has no finalizer; it is cleared only when the target itself dies, and this object
/// frees it then and stops re-registering, so it is collected too.
/// </para>
/// </remarks>
internal sealed class Gen2GcCallback : CriticalFinalizerObject
{
    private readonly Func<object, bool> _callback;
    private GCHandle _target;

    private Gen2GcCallback(Func<object, bool> callback, object target)
    {
        _callback = callback;
        _target = GCHandle.Alloc(target, GCHandleType.Weak);
    }

    /// <summary>Registers <paramref name="callback"/> to run after each gen-2 GC while <paramref name="target"/> lives and it returns true.</summary>
    public static void Register(Func<object, bool> callback, object target) => _ = new Gen2GcCallback(callback, target);

    /// <summary>Runs the callback and re-arms; frees the handle once the target is gone or the callback declines.</summary>
    ~Gen2GcCallback()
    {
        object? target = _target.Target;
        if (target is null)
        {
            _target.Free();
            return;
        }

        bool again = true;
        try
        {
            again = _callback(target);
        }
        catch (Exception)
        {
            // A failing trim must not take the finalizer thread (and the process) down; the next GC tries again.
        }

        if (!again)
        {
            _target.Free();
            return;
        }

        GC.ReRegisterForFinalize(this);
    }
}
