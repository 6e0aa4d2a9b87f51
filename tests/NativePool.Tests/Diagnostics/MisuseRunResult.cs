using System.Globalization;
using System.Text;

namespace NativePool.Tests.Diagnostics;

/// <summary>What a <see cref="SeededMisuseRun{TItem}"/> injected, what the pool caught, and what went wrong.</summary>
internal sealed class MisuseRunResult
{
    /// <summary>The steps of the run, over all threads.</summary>
    public required int Steps { get; init; }

    /// <summary>The threads of the run.</summary>
    public required int Threads { get; init; }

    /// <summary>How long the steps took.</summary>
    public required TimeSpan Elapsed { get; init; }

    /// <summary>Per <see cref="MisuseShape"/>: how many were injected.</summary>
    public required int[] Injected { get; init; }

    /// <summary>
    /// Per <see cref="MisuseShape"/>: how many the pool caught, i.e. reported as exactly the misuse injected (for a stale
    /// lease dispose: returned nothing, so nothing was returned twice).
    /// </summary>
    public required int[] Caught { get; init; }

    /// <summary>Per <see cref="PoolMisuseKind"/>: reports the run did not inject (false positives).</summary>
    public required int[] FalsePositives { get; init; }

    /// <summary>Reports raised on a thread that was not running a step.</summary>
    public required int UnattributedReports { get; init; }

    /// <summary>Rents made under a lease.</summary>
    public required int LeaseRents { get; init; }

    /// <summary>Rents under a lease that got an item another holder had (the pool handed one item to two holders).</summary>
    public required int LeaseRentsOfHeldItems { get; init; }

    /// <summary>Raw rents that got an item another holder had (besides the one each uncaught stale return causes, counted apart).</summary>
    public required int RawRentsOfHeldItems { get; init; }

    /// <summary>Stale returns not caught while another thread had the item registered as held.</summary>
    public required int StaleHeldByOtherThread { get; init; }

    /// <summary>Stale returns not caught while the returning thread itself held the item again.</summary>
    public required int StaleHeldByReturningThread { get; init; }

    /// <summary>Stale returns not caught while the item was being rented (out of the pool, not yet registered).</summary>
    public required int StaleBeingRented { get; init; }

    /// <summary>Stale returns not caught whose item the returning thread's next rent handed out again.</summary>
    public required int StaleHandedOutAgain { get; init; }

    /// <summary>Everything the run found wrong besides the counts (two holders of one item, a broken expectation).</summary>
    public required IReadOnlyList<string> Failures { get; init; }

    /// <summary>How many <paramref name="shape"/> were injected.</summary>
    public int InjectedOf(MisuseShape shape) => Injected[(int)shape];

    /// <summary>How many <paramref name="shape"/> were caught.</summary>
    public int CaughtOf(MisuseShape shape) => Caught[(int)shape];

    /// <summary>A line per injected shape, with <paramref name="notes"/> after the shapes they name.</summary>
    public string Describe(IReadOnlyDictionary<MisuseShape, string> notes)
    {
        var text = new StringBuilder();
        text.Append(CultureInfo.InvariantCulture, $"{Steps} steps on {Threads} threads in {Elapsed.TotalSeconds:F1} s; ");
        text.Append(CultureInfo.InvariantCulture, $"{LeaseRents} rents under leases, {LeaseRentsOfHeldItems} of them of an item someone held ");
        text.Append(CultureInfo.InvariantCulture, $"({RawRentsOfHeldItems} raw ones); false positives {FalsePositives.Sum() + UnattributedReports}.");
        foreach (MisuseShape shape in Enum.GetValues<MisuseShape>())
        {
            int injected = InjectedOf(shape);
            if (injected == 0)
            {
                continue;
            }

            int caught = CaughtOf(shape);
            text.AppendLine();
            text.Append(CultureInfo.InvariantCulture, $"{shape}: injected {injected}, caught {caught} ({100.0 * caught / injected:F1} %)");
            if (shape == MisuseShape.StaleDoubleReturn)
            {
                text.Append(CultureInfo.InvariantCulture, $"; not caught {injected - caught}: the item was held by another thread {StaleHeldByOtherThread}, ");
                text.Append(CultureInfo.InvariantCulture, $"by the returning thread {StaleHeldByReturningThread}, being rented {StaleBeingRented}; ");
                text.Append(CultureInfo.InvariantCulture, $"{StaleHandedOutAgain} handed straight out again while their holder had them");
            }

            if (notes.TryGetValue(shape, out string? note))
            {
                text.Append(" (").Append(note).Append(')');
            }

            text.Append('.');
        }

        return text.ToString();
    }
    /// <summary>
    /// The checks every guarded pool's run must pass: no harness failure, no false or unattributed report, every shape
    /// in <paramref name="alwaysCaught"/> injected and caught every time, each uncaught stale return observed as the
    /// hand-out it causes, and apart from that no rent, under a lease or raw, of an item someone held.
    /// </summary>
    /// <param name="alwaysCaught">The shapes the pool must catch every time.</param>
    public void AssertCatchesAndContains(IEnumerable<MisuseShape> alwaysCaught)
    {
        Assert.Empty(Failures);
        Assert.All(FalsePositives, count => Assert.Equal(0, count));
        Assert.Equal(0, UnattributedReports);
        foreach (MisuseShape shape in alwaysCaught)
        {
            Assert.True(InjectedOf(shape) > 0, $"no {shape} was injected");
            Assert.Equal(InjectedOf(shape), CaughtOf(shape));
        }

        // A stale return is caught, or accepted and its consequence observed: the item comes straight back out of the
        // pool while its holder still has it (no claim on how many of each: that depends on where the item is by then).
        int staleReturns = InjectedOf(MisuseShape.StaleDoubleReturn);
        Assert.True(staleReturns > 0, "no stale return was injected");
        Assert.Equal(staleReturns - CaughtOf(MisuseShape.StaleDoubleReturn), StaleHandedOutAgain);

        // Apart from that observed hand-out, no rent got an item someone held: none under a lease, none raw.
        Assert.Equal(0, LeaseRentsOfHeldItems);
        Assert.Equal(0, RawRentsOfHeldItems);
        Assert.True(LeaseRents > 0, "no rent was made under a lease");
    }
}
