using System;
using System.Diagnostics;

namespace NativePool;

/// <summary>Applies a <see cref="PoolMisusePolicy"/> to one detected misuse.</summary>
internal static class MisuseReporter
{
    /// <summary>Throws, calls back or ignores, as <paramref name="policy"/> says.</summary>
    /// <param name="policy">The pool's policy.</param>
    /// <param name="onMisuse">The pool's callback, or null.</param>
    /// <param name="kind">What went wrong.</param>
    /// <param name="poolName">The pool's name.</param>
    /// <param name="rentStack">Where the item was rented, if known.</param>
    public static void Report(PoolMisusePolicy policy, Action<PoolMisuse>? onMisuse, PoolMisuseKind kind, string poolName, StackTrace? rentStack)
    {
        switch (policy)
        {
            case PoolMisusePolicy.Throw:
                ThrowHelper.ThrowInvalidOperation(Describe(kind, poolName));
                break;
            case PoolMisusePolicy.Report:
                onMisuse?.Invoke(new PoolMisuse(kind, poolName, new StackTrace(2, false), rentStack));
                break;
            default:
                break;
        }
    }

    /// <summary>Checks that <paramref name="policy"/> is one of the values <see cref="PoolMisusePolicy"/> defines.</summary>
    /// <param name="policy">The option's value.</param>
    /// <param name="paramName">The option's name.</param>
    /// <exception cref="ArgumentOutOfRangeException">Any other value: <see cref="Report"/> would treat it as <see cref="PoolMisusePolicy.Ignore"/>.</exception>
    public static void ValidatePolicy(PoolMisusePolicy policy, string paramName)
    {
        if (policy is not (PoolMisusePolicy.Throw or PoolMisusePolicy.Report or PoolMisusePolicy.Ignore))
        {
            ThrowHelper.ThrowArgumentOutOfRange(paramName, $"{paramName} must be Throw, Report or Ignore.");
        }
    }

    private static string Describe(PoolMisuseKind kind, string poolName) => kind switch
    {
        PoolMisuseKind.DoubleReturn => $"An item was returned to pool '{poolName}' twice: returning an item twice would hand it to two renters at once.",
        PoolMisuseKind.ForeignReturn => $"An item pool '{poolName}' never handed out was returned to it.",
        _ => $"An item of pool '{poolName}' was written to after it was returned: a caller kept using it after giving it back.",
    };
}
