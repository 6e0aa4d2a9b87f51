using System.Runtime;
using System.Diagnostics;
using System.Runtime.CompilerServices;

namespace NativePool.Benchmarks.Interleaved;

/// <summary>
/// The one timing loop: each side is warmed up and calibrated, then the rounds alternate the two sides in one process,
/// and the order of the pair alternates too (ours-peer, peer-ours, …), so drift, frequency changes and neighbours' load
/// hit both sides alike. Each round yields one ratio, ours ÷ peer in ns per operation.
/// </summary>
/// <remarks>
/// Allocation is the process-wide <see cref="GC.GetTotalAllocatedBytes(bool)"/> (precise) delta around each timed batch,
/// read outside the timed interval: it counts every thread a scenario uses (consumers, fresh threads), and the runtime's
/// own background allocation, if any, with it.
/// </remarks>
public static class AbRunner
{
    /// <summary>Measures one scenario; <paramref name="ours"/> and <paramref name="peer"/> are already set up.</summary>
    public static ScenarioResult Compare<TOurs, TPeer>(InterleavedScenario scenario, ref TOurs ours, ref TPeer peer, RoundSettings settings)
        where TOurs : struct, IOperation
        where TPeer : struct, IOperation
    {
        int oursCount = WarmUpAndCalibrate(ref ours, settings);
        int peerCount = WarmUpAndCalibrate(ref peer, settings);

        int rounds = settings.Rounds;
        var oursNs = new double[rounds];
        var peerNs = new double[rounds];
        var ratios = new double[rounds];
        long oursBytes = 0;
        long peerBytes = 0;

        // Object pools count what they build, read around each batch outside its timed interval.
        var oursBuilds = new BuildTally(ours as ICountsBuilds, oursCount);
        var peerBuilds = new BuildTally(peer as ICountsBuilds, peerCount);
        for (int round = 0; round < rounds; round++)
        {
            Sample a, b;
            if (round % 2 == 0)
            {
                a = oursBuilds.Around(ref ours, oursCount);
                b = peerBuilds.Around(ref peer, peerCount);
            }
            else
            {
                b = peerBuilds.Around(ref peer, peerCount);
                a = oursBuilds.Around(ref ours, oursCount);
            }

            oursNs[round] = a.NsPerOp;
            peerNs[round] = b.NsPerOp;
            ratios[round] = a.NsPerOp / b.NsPerOp;
            oursBytes += a.Bytes;
            peerBytes += b.Bytes;
        }

        return new ScenarioResult(
            scenario,
            Quantile(oursNs, 0.5),
            Quantile(peerNs, 0.5),
            Quantile(ratios, 0.5),
            Quantile(ratios, 0.25),
            Quantile(ratios, 0.75),
            (double)oursBytes / ((long)oursCount * rounds),
            (double)peerBytes / ((long)peerCount * rounds),
            rounds,
            oursBuilds.PerMillionGets,
            peerBuilds.PerMillionGets);
    }

    /// <summary>
    /// Runs the operation until the warm-up time has passed and it has been called often enough to be recompiled at
    /// tier 1, doubling the batch while a batch is shorter than a millisecond; then sizes the round to the target time
    /// from the median of three timed batches.
    /// </summary>
    private static int WarmUpAndCalibrate<TOp>(ref TOp op, RoundSettings settings)
        where TOp : struct, IOperation
    {
        long slice = Math.Min(Stopwatch.Frequency / 1000, ToTicks(settings.RoundTarget));
        int count = 1;
        int calls = 0;
        long start = Stopwatch.GetTimestamp();
        do
        {
            Sample sample = Time(ref op, count);
            calls++;
            if (sample.Ticks < slice && count < int.MaxValue / 2)
            {
                count *= 2;
            }
        }
        while (Stopwatch.GetElapsedTime(start) < settings.Warmup || calls < settings.MinimumWarmupCalls);

        // Tier 1 is compiled in the background after the call count is reached (and the tiering delay has passed):
        // keep running until the process has jitted nothing new for a settle period, so rounds time final code only.
        if (settings.JudgesGoals)
        {
            long settle = Stopwatch.Frequency / 4;
            long compiled = JitInfo.GetCompiledMethodCount();
            long quietSince = Stopwatch.GetTimestamp();
            long deadline = quietSince + (10 * Stopwatch.Frequency);
            while (Stopwatch.GetTimestamp() - quietSince < settle && Stopwatch.GetTimestamp() < deadline)
            {
                Time(ref op, count);
                long now = JitInfo.GetCompiledMethodCount();
                if (now != compiled)
                {
                    compiled = now;
                    quietSince = Stopwatch.GetTimestamp();
                }
            }
        }

        var nsPerOp = new double[3];
        for (int i = 0; i < nsPerOp.Length; i++)
        {
            nsPerOp[i] = Time(ref op, count).NsPerOp;
        }

        double target = settings.RoundTarget.TotalNanoseconds / Math.Max(Quantile(nsPerOp, 0.5), 0.01);
        return (int)Math.Clamp(target, 1, int.MaxValue / 2);
    }

    /// <summary>The builds and gets of one side's timed batches, when its operation counts them.</summary>
    private sealed class BuildTally(ICountsBuilds? counts, int count)
    {
        private readonly long _getsPerBatch = counts?.GetsPer(count) ?? 0;
        private long _built;
        private long _gets;

        /// <summary>Objects built per 10^6 gets over the batches, or null when the operation does not count.</summary>
        public double? PerMillionGets => _gets == 0 ? null : _built * 1e6 / _gets;

        /// <summary>Times a batch (<see cref="Time{TOp}"/>), reading the build count before and after it.</summary>
        public Sample Around<TOp>(ref TOp op, int batch)
            where TOp : struct, IOperation
        {
            if (counts is null || _getsPerBatch == 0)
            {
                return Time(ref op, batch);
            }

            long before = counts.Built;
            Sample sample = Time(ref op, batch);
            _built += counts.Built - before;
            _gets += _getsPerBatch;
            return sample;
        }
    }

    /// <summary>Times one batch of <paramref name="count"/> operations.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static Sample Time<TOp>(ref TOp op, int count)
        where TOp : struct, IOperation
    {
        long bytesBefore = GC.GetTotalAllocatedBytes(precise: true);
        long start = Stopwatch.GetTimestamp();
        op.Run(count);
        long ticks = Stopwatch.GetTimestamp() - start;
        long bytes = GC.GetTotalAllocatedBytes(precise: true) - bytesBefore;
        return new Sample(ticks, ticks * (1e9 / Stopwatch.Frequency) / count, bytes);
    }

    private static long ToTicks(TimeSpan time) => (long)(time.TotalSeconds * Stopwatch.Frequency);

    /// <summary>The <paramref name="q"/> quantile with linear interpolation between the sorted values (sorts in place).</summary>
    public static double Quantile(double[] values, double q)
    {
        Array.Sort(values);
        double position = (values.Length - 1) * q;
        int lower = (int)Math.Floor(position);
        int upper = Math.Min(lower + 1, values.Length - 1);
        return values[lower] + ((values[upper] - values[lower]) * (position - lower));
    }

    private readonly record struct Sample(long Ticks, double NsPerOp, long Bytes);
}
