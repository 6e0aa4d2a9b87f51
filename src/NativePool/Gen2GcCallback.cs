using System;
using System.Runtime.ConstrainedExecution;

namespace NativePool;

/// <summary>Calls back after every gen-2 collection for as long as its target is alive, without keeping it alive.</summary>
/// <remarks>
/// An unreachable object with a finalizer is finalized after the collection that found it unreachable; re-registering
/// the finalizer from inside it arms it again for the next one. The target is held weakly so a pool that nobody
/// references is still collected; once it is gone the callback stops re-registering and is collected too.
/// </remarks>
internal sealed class Gen2GcCallback : CriticalFinalizerObject
{
    private readonly Func<object, bool> _callback;
    private readonly WeakReference<object> _target;

    private Gen2GcCallback(Func<object, bool> callback, object target)
    {
        _callback = callback;
        _target = new WeakReference<object>(target);
    }

    /// <summary>Registers <paramref name="callback"/> to run after each gen-2 GC while <paramref name="target"/> lives and it returns true.</summary>
    public static void Register(Func<object, bool> callback, object target) => _ = new Gen2GcCallback(callback, target);

    /// <summary>Runs the callback and re-arms.</summary>
    ~Gen2GcCallback()
    {
        if (!_target.TryGetTarget(out object? target))
        {
            return;
        }

        try
        {
            if (!_callback(target))
            {
                return;
            }
        }
        catch (Exception)
        {
            // A failing trim must not take the finalizer thread (and the process) down; the next GC tries again.
        }

        GC.ReRegisterForFinalize(this);
    }
}
