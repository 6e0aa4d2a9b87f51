using System.Diagnostics;

namespace NativePool;

/// <summary>One detected misuse of a pool, as passed to a misuse callback.</summary>
public sealed class PoolMisuse
{
    internal PoolMisuse(PoolMisuseKind kind, string poolName, StackTrace stack, StackTrace? rentStack)
    {
        Kind = kind;
        PoolName = poolName;
        Stack = stack;
        RentStack = rentStack;
    }

    /// <summary>What went wrong.</summary>
    public PoolMisuseKind Kind { get; }

    /// <summary>The name of the pool that saw it.</summary>
    public string PoolName { get; }

    /// <summary>Where it was detected: the return (double or foreign return) or the next rent (write after return).</summary>
    public StackTrace Stack { get; }

    /// <summary>Where the item was last rented, when the pool tracks rent stacks (guarded or leak-tracking mode); otherwise null.</summary>
    public StackTrace? RentStack { get; }

    /// <inheritdoc />
    public override string ToString() => $"{Kind} in pool '{PoolName}' at:\n{Stack}";
}
