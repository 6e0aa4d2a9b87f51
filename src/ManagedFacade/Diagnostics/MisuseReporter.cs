using System;
using System.Diagnostics;

namespace NativePool;

/// <summary>Applies a <see cref="PoolMisusePolicy"/> to one detected misuse.</summary>
internal static class MisuseReporter
{
    /// <summary>Counts the misuse in <paramref name="pool"/>'s statistics, then throws or calls back as <paramref name="policy"/> says (nothing more under <see cref="PoolMisusePolicy.Ignore"/>).</summary>
    /// <remarks>The count comes first, so a misuse that throws is counted too, and a process with no event source (Native AOT) still reads it.</remarks>
    public static void Report(IObservablePool pool, PoolMisusePolicy policy, Action<PoolMisuse>? onMisuse, PoolMisuseKind kind, StackTrace? rentStack)
    {
        switch (policy)
        {
            case PoolMisusePolicy.Throw:
                pool.CountMisuse();
                ThrowHelper.ThrowInvalidOperation(Describe(kind, pool.Name));
                break;
            case PoolMisusePolicy.Report:
                pool.CountMisuse();
                onMisuse?.Invoke(new PoolMisuse(kind, pool.Name, new StackTrace(2, false), rentStack));
                break;
            default:
                break;
        }
    }

    /// <summary>Checks that <paramref name="policy"/> is a defined value.</summary>
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
