using System.Runtime.CompilerServices;
using System.Threading;

namespace NativePool;

/// <summary>The generation word shared by all copies of one scoped lease: whichever copy disposes first advances it and returns the item; every other copy, and any later dispose, finds the generation moved on and does nothing.</summary>
/// <remarks>
/// Tokens are reused through a short per-thread free list, whose head is <see cref="ThreadCacheTable.SpareTokens"/> (a
/// scope's rent, return and token share one thread-static base). A token
/// goes back only after its generation moved on, and the generation never comes round (<see cref="LeaseGeneration"/>).
/// </remarks>
internal sealed class LeaseToken
{
    private const int MaxSparePerThread = 16;

    private long _generation;
    private int _depth;
    private LeaseToken? _next;

    /// <summary>The current generation; a lease remembers it when it is made.</summary>
    public long Generation
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        get => LeaseGeneration.Read(ref _generation);
    }

    /// <summary>Moves the generation to <paramref name="generation"/>, as that many leases would (tests).</summary>
    internal void SetGenerationForTest(long generation) => LeaseGeneration.Write(ref _generation, generation);

    /// <summary>A token from this thread's free list, or a new one.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static LeaseToken Take()
    {
        LeaseToken? token = ThreadCacheTable.SpareTokens;
        if (token is null)
        {
            return new LeaseToken();
        }

        ThreadCacheTable.SpareTokens = token._next;
        return token;
    }

    /// <summary>Ends generation <paramref name="generation"/>; true for exactly one caller per generation.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool TryEnd(long generation)
    {
        // Settles two copies of one lease disposed at once (on two threads): only one moves the generation on.
        if (Interlocked.CompareExchange(ref _generation, generation + 1, generation) != generation)
        {
            return false;
        }

        // The free list is this thread's alone; its length rides on the head token so one thread-static is touched.
        LeaseToken? head = ThreadCacheTable.SpareTokens;
        int depth = head is null ? 0 : head._depth;
        if (depth < MaxSparePerThread)
        {
            _next = head;
            _depth = depth + 1;
            ThreadCacheTable.SpareTokens = this;
        }

        return true;
    }
}
