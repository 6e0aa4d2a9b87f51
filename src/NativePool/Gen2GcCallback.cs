using System;
using System.Runtime.ConstrainedExecution;
using System.Runtime.InteropServices;

namespace NativePool;

/// <summary>Calls back after every gen-2 collection for as long as its target is alive, without keeping it alive.</summary>
/// <remarks>
/// Nothing references the callback object, so its finalizer runs once per gen-2 collection and re-registers itself. The
/// target is held by a raw weak <see cref="GCHandle"/>, not a <see cref="WeakReference{T}"/>: that would be unreachable
/// with the callback and finalized first, answering "gone" before the callback ever fired.
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
