using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool.Benchmarks.Infrastructure;

/// <summary>The object the object suites pool: small, with a field the simulated work writes so it is really used.</summary>
public sealed class PooledObject
{
    /// <summary>Calls to <see cref="Random.Next()"/> per unit of simulated work (as in aspnetcore's benchmarks: about 33).</summary>
    public const int WorkCalls = 33;

    /// <summary>Every <see cref="PooledObject"/> built in this process (the object scenarios' build counts).</summary>
    private static long s_built;

    private int _value;

    /// <summary>Builds an object and counts it.</summary>
    public PooledObject() =>
        // Interlocked: pools build on many threads at once; the runner reads the count between batches.
        Interlocked.Increment(ref s_built);

    /// <summary>The objects built so far in this process.</summary>
    public static long Built => Volatile.Read(ref s_built);

    /// <summary>The last work result (keeps the work observable).</summary>
    public int Value => _value;

    /// <summary>The application's share of an operation: <see cref="WorkCalls"/> calls to <paramref name="random"/>, stored in the object.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int SimulateWork(Random random) => _value = Work(random);

    /// <summary>The least use of a rented object: one write to it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Touch() => _value++;

    /// <summary>The work alone, for the work-only rows.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static int Work(Random random)
    {
        int sum = 0;
        for (int i = 0; i < WorkCalls; i++)
        {
            sum += random.Next();
        }

        return sum;
    }
}
