using System.Collections.Concurrent;
using System.Diagnostics;

namespace NativePool.Tests.Diagnostics;

/// <summary>
/// A seeded run of rents, returns and injected misuse on several threads against one guarded pool: counts, per
/// <see cref="MisuseShape"/>, what was injected and what the pool caught, and checks that no rent ever hands out an
/// item someone holds.
/// </summary>
/// <remarks>
/// <para>
/// Holders. Every rent, raw or under a lease, registers its item as held by the renting thread, and every return
/// unregisters it first; a registration that finds the item already held means the pool handed one item to two holders.
/// Registering (with the holder's write into the item) and unregistering-and-returning each run under a lock on the
/// item, and so does a stale return, so a stale return sees exactly who holds its item.
/// </para>
/// <para>
/// Reports. The pool's misuse callback (<see cref="OnMisuse"/>) counts each report on the thread that raised it, and
/// every pool call is bracketed: a call must raise exactly the report its injection expects and nothing else. Anything
/// else counts as a false positive.
/// </para>
/// <para>
/// Stale returns. Thread A gives an item up through thread B, which returns it and rents it straight back (a thread's
/// slot hands out its last return), so B holds it; some steps later A returns the item again. If B, or whoever rented
/// the item after B, still has it, the guard cannot tell the return from the holder's and accepts it: the item goes back
/// to the pool, parked in A's slot. A's next rent, made at once under the same lock, must hand the item out again: the
/// double hand-out the guard cannot prevent, observed. A then drops that second reference without returning it, so the
/// item's one holder returns it later and the rest of the run stays sound. If the item is in the pool by then, the
/// stale return is an ordinary double return and must be caught.
/// </para>
/// <para>
/// Cross-thread shapes. A thread asks another one to write into an item, to dispose a stale lease copy or to return
/// and rent back an item through that thread's mailbox, and waits for the answer, serving its own requests meanwhile;
/// a thread whose steps are done keeps serving until every thread is done, so every request is answered.
/// </para>
/// </remarks>
/// <typeparam name="TItem">The pooled item.</typeparam>
internal sealed class SeededMisuseRun<TItem>
    where TItem : class
{
    /// <summary>The most items one thread holds at once.</summary>
    private const int MaxHeld = 64;

    /// <summary>How many steps later, at most, a thread makes the stale return of an item it gave up.</summary>
    private const int MaxStaleDelay = 256;

    private static readonly int s_kinds = Enum.GetValues<PoolMisuseKind>().Length;
    private static readonly int s_shapes = Enum.GetValues<MisuseShape>().Length;

#pragma warning disable IDE1006 // dotnet/runtime names thread statics t_; .editorconfig naming rules cannot select by attribute.
    [ThreadStatic]
    private static Worker? t_worker;
#pragma warning restore IDE1006

    private readonly int _threads;
    private readonly int _steps;
    private readonly int _seed;
    private readonly ConcurrentDictionary<TItem, int> _holders = new(ReferenceEqualityComparer.Instance);
    private readonly ConcurrentQueue<string> _failures = new();
    private Worker[] _workers = [];
    private int _running;
    private int _unattributedReports;

    /// <summary>Prepares a run of <paramref name="steps"/> steps shared by <paramref name="threads"/> threads.</summary>
    public SeededMisuseRun(int threads, int steps, int seed)
    {
        _threads = threads;
        _steps = steps;
        _seed = seed;
    }

    /// <summary>The pool's <c>OnMisuse</c> callback: counts each report against the thread that raised it.</summary>
    public void OnMisuse(PoolMisuse misuse)
    {
        Worker? worker = t_worker;
        if (worker is null)
        {
            // Interlocked: a report from outside the run's threads (none is expected) may come from any thread.
            Interlocked.Increment(ref _unattributedReports);
            return;
        }

        worker.Reports[(int)misuse.Kind]++;
    }

    /// <summary>Runs the steps against <paramref name="subject"/> and sums what every thread saw.</summary>
    public MisuseRunResult Run(IMisuseSubject<TItem> subject)
    {
        _workers = [.. Enumerable.Range(0, _threads).Select(index => new Worker(this, subject, index))];
        _running = _threads;
        var watch = Stopwatch.StartNew();
        TestThreads.Run(_threads, index => _workers[index].Work());
        watch.Stop();
        foreach (Worker worker in _workers)
        {
            worker.Signal.Dispose();
        }

        return new MisuseRunResult
        {
            Steps = _steps,
            Threads = _threads,
            Elapsed = watch.Elapsed,
            Injected = Sum(w => w.Injected, s_shapes),
            Caught = Sum(w => w.Caught, s_shapes),
            FalsePositives = Sum(w => w.FalsePositives, s_kinds),
            UnattributedReports = _unattributedReports,
            LeaseRents = _workers.Sum(w => w.LeaseRents),
            LeaseRentsOfHeldItems = _workers.Sum(w => w.LeaseRentsOfHeldItems),
            RawRentsOfHeldItems = _workers.Sum(w => w.RawRentsOfHeldItems),
            StaleHeldByOtherThread = _workers.Sum(w => w.StaleHeldByOtherThread),
            StaleHeldByReturningThread = _workers.Sum(w => w.StaleHeldByReturningThread),
            StaleBeingRented = _workers.Sum(w => w.StaleBeingRented),
            StaleHandedOutAgain = _workers.Sum(w => w.StaleHandedOutAgain),
            Failures = [.. _failures],
        };
    }

    private int[] Sum(Func<Worker, int[]> counts, int length) =>
        [.. Enumerable.Range(0, length).Select(i => _workers.Sum(w => counts(w)[i]))];

    private void Fail(string message)
    {
        // A broken run could fail on every step: the first few messages say enough.
        if (_failures.Count < 20)
        {
            _failures.Enqueue(message);
        }
    }

    /// <summary>The report counts of one thread at one instant.</summary>
    private readonly record struct ReportMark(int DoubleReturns, int ForeignReturns, int WritesAfterReturn)
    {
        /// <summary>The count of the <see cref="PoolMisuseKind"/> numbered <paramref name="kind"/>.</summary>
        public int this[int kind] => kind switch
        {
            (int)PoolMisuseKind.DoubleReturn => DoubleReturns,
            (int)PoolMisuseKind.ForeignReturn => ForeignReturns,
            _ => WritesAfterReturn,
        };
    }

    /// <summary>An item a thread holds: raw, or under a lease.</summary>
    private readonly record struct Holding(TItem Item, MisuseLease<TItem>? Lease);

    /// <summary>Work a thread asks another one to do, and the signal that it is done.</summary>
    private sealed class Request
    {
        private int _done;

        /// <summary>A request from <paramref name="from"/> for <paramref name="work"/>.</summary>
        public Request(Worker from, Action<Worker> work)
        {
            From = from;
            Work = work;
        }

        /// <summary>The asking thread.</summary>
        public Worker From { get; }

        /// <summary>The work, given the serving thread.</summary>
        public Action<Worker> Work { get; }

        /// <summary>Whether the work is done (its results are visible once this reads true).</summary>
        // Volatile: written by the serving thread after the work; the asking thread then reads the work's results.
        public bool IsDone => Volatile.Read(ref _done) != 0;

        /// <summary>Marks the work done and wakes the asking thread.</summary>
        public void Complete()
        {
            // Volatile: publishes the work's results before the asking thread sees the request done.
            Volatile.Write(ref _done, 1);
            From.Signal.Release();
        }
    }

    /// <summary>One thread of the run: its steps, its holdings, its mailbox and its counts.</summary>
    private sealed class Worker
    {
        private readonly SeededMisuseRun<TItem> _run;
        private readonly IMisuseSubject<TItem> _subject;
        private readonly List<Holding> _held = new(MaxHeld + 2);
        private readonly List<(TItem Item, int Due)> _stale = [];
        private readonly ConcurrentQueue<Request> _writeRequests = new();
        private readonly ConcurrentQueue<Request> _poolRequests = new();

        public Worker(SeededMisuseRun<TItem> run, IMisuseSubject<TItem> subject, int index)
        {
            _run = run;
            _subject = subject;
            Index = index;
        }

        /// <summary>The thread's index in the run, from 0.</summary>
        public int Index { get; }

        /// <summary>Released when a request arrives in this thread's mailbox, when its own request is done, and at the end.</summary>
        public SemaphoreSlim Signal { get; } = new(0);

        /// <summary>Reports raised on this thread, per <see cref="PoolMisuseKind"/> (only this thread writes them).</summary>
        public int[] Reports { get; } = new int[s_kinds];

        /// <summary>Per <see cref="MisuseShape"/>: injected by this thread.</summary>
        public int[] Injected { get; } = new int[s_shapes];

        /// <summary>Per <see cref="MisuseShape"/>: caught, of those this thread injected.</summary>
        public int[] Caught { get; } = new int[s_shapes];

        /// <summary>Per <see cref="PoolMisuseKind"/>: reports this thread's calls raised that no injection expected.</summary>
        public int[] FalsePositives { get; } = new int[s_kinds];

        /// <summary>Rents this thread made under a lease.</summary>
        public int LeaseRents { get; private set; }

        /// <summary>Rents under a lease that got an item another holder had registered.</summary>
        public int LeaseRentsOfHeldItems { get; private set; }

        /// <summary>Raw rents that got an item another holder had registered.</summary>
        public int RawRentsOfHeldItems { get; private set; }

        /// <summary>See <see cref="MisuseRunResult.StaleHeldByOtherThread"/>.</summary>
        public int StaleHeldByOtherThread { get; private set; }

        /// <summary>See <see cref="MisuseRunResult.StaleHeldByReturningThread"/>.</summary>
        public int StaleHeldByReturningThread { get; private set; }

        /// <summary>See <see cref="MisuseRunResult.StaleBeingRented"/>.</summary>
        public int StaleBeingRented { get; private set; }

        /// <summary>See <see cref="MisuseRunResult.StaleHandedOutAgain"/>.</summary>
        public int StaleHandedOutAgain { get; private set; }

        /// <summary>The thread's steps, then the stale returns still due and the returns of everything it holds.</summary>
        public void Work()
        {
            t_worker = this;
            try
            {
                var random = new Random(_run._seed + Index);
                int steps = _run._steps / _run._threads;
                for (int step = 0; step < steps; step++)
                {
                    Serve();
                    MakeStaleReturnsDue(step);
                    Step(random, step);
                }

                MakeStaleReturnsDue(int.MaxValue);
                ReleaseAll();
            }
            catch (Exception exception)
            {
                _run.Fail($"thread {Index} threw {exception}");
            }
            finally
            {
                // Interlocked: the last thread to finish its steps wakes the others, which serve requests until then.
                if (Interlocked.Decrement(ref _run._running) == 0)
                {
                    foreach (Worker worker in _run._workers)
                    {
                        worker.Signal.Release();
                    }
                }

                // Volatile: reads the count the other threads decrement as they finish.
                while (Volatile.Read(ref _run._running) != 0)
                {
                    Serve();
                    ReleaseAll();
                    Signal.Wait();
                }

                t_worker = null;
            }
        }

        private void Step(Random random, int step)
        {
            int roll = random.Next(1000);
            int size = _subject.NextSize(random);
            switch (roll)
            {
                case < 10:
                    DoubleReturnWhilePooled(size);
                    return;
                case < 20:
                    ForeignReturn(size);
                    return;
                case < 30 when _subject.DetectsWriteAfterReturn:
                    WriteAfterReturn(size, random.Next(), writer: null);
                    return;
                case >= 30 and < 35:
                    WriteAfterReturn(size, random.Next(), writer: OtherThread(random));
                    return;
                case >= 35 and < 40:
                    ReturnThroughAnotherThreadAndKeepAStaleReference(size, OtherThread(random), step + 1 + random.Next(MaxStaleDelay));
                    return;
                case >= 40 and < 45:
                    StaleLeaseDispose(size, OtherThread(random));
                    return;
            }

            if (_held.Count == 0 || (roll < 525 && _held.Count < MaxHeld))
            {
                _held.Add(Rent(size, lease: random.Next(2) == 0));
            }
            else
            {
                Release(TakeAt(random.Next(_held.Count)));
            }
        }

        /// <summary>Rent, return, return again: the second return finds the item in the pool.</summary>
        private void DoubleReturnWhilePooled(int size)
        {
            TItem item = RentAndRelease(size);
            Injected[(int)MisuseShape.DoubleReturnWhilePooled]++;
            ReportMark mark = Mark();
            _subject.Return(item);
            if (Expect(mark, PoolMisuseKind.DoubleReturn, "a double return"))
            {
                Caught[(int)MisuseShape.DoubleReturnWhilePooled]++;
            }

            // Refused, and kept once from the first return: this thread's next rent hands it back from its slot.
            Holding again = Rent(_subject.SizeOf(item), lease: false);
            if (!ReferenceEquals(again.Item, item))
            {
                _run.Fail($"thread {Index}: after a double return the next rent did not hand the item back");
            }

            _held.Add(again);
        }

        private void ForeignReturn(int size)
        {
            Injected[(int)MisuseShape.ForeignReturn]++;
            ReportMark mark = Mark();
            _subject.Return(_subject.CreateForeign(size));
            if (Expect(mark, PoolMisuseKind.ForeignReturn, "a foreign return"))
            {
                Caught[(int)MisuseShape.ForeignReturn]++;
            }
        }

        /// <summary>
        /// Rent, return, a write into the returned item (by this thread, or by <paramref name="writer"/> while this one
        /// waits), then this thread's next rent, which hands the item back from its slot.
        /// </summary>
        private void WriteAfterReturn(int size, int where, Worker? writer)
        {
            TItem item = RentAndRelease(size);
            if (writer is null)
            {
                _subject.Scribble(item, where);
            }
            else
            {
                // While the item waits in this thread's slot, only requests that leave the pool alone are served here.
                Ask(writer, usesPool: false, _ => _subject.Scribble(item, where));
            }

            MisuseShape shape = writer is null ? MisuseShape.WriteAfterReturn : MisuseShape.WriteAfterReturnByAnotherThread;
            Injected[(int)shape]++;
            Holding again = Rent(_subject.SizeOf(item), lease: false, _subject.DetectsWriteAfterReturn ? PoolMisuseKind.WriteAfterReturn : null, out bool caught);
            if (!ReferenceEquals(again.Item, item))
            {
                _run.Fail($"thread {Index}: the rent after a return did not hand the returned item back");
            }

            if (caught)
            {
                Caught[(int)shape]++;
            }

            _held.Add(again);
        }

        /// <summary>
        /// Gives up one of the items this thread holds raw through <paramref name="renter"/>, which returns it and rents it
        /// straight back (its slot hands out its last return), so another thread holds it now; this thread keeps the
        /// reference for a stale return at step <paramref name="due"/>, by which time the item may have moved on again.
        /// </summary>
        private void ReturnThroughAnotherThreadAndKeepAStaleReference(int size, Worker renter, int due)
        {
            int index = _held.FindIndex(static holding => holding.Lease is null);
            Holding holding = index < 0 ? Rent(size, lease: false) : TakeAt(index);
            Unregister(holding.Item);
            Ask(renter, usesPool: true, worker => worker.ReturnAndRentBack(holding.Item));
            _stale.Add((holding.Item, due));
        }

        /// <summary>Returns <paramref name="item"/> for another thread and holds it again through this thread's next rent.</summary>
        private void ReturnAndRentBack(TItem item)
        {
            // Under the item's lock, like every return: a stale return of the same item runs whole before or after it.
            Holding again;
            lock (item)
            {
                ReportMark mark = Mark();
                _subject.Return(item);
                Expect(mark, expected: null, "a return for another thread");
                again = Rent(_subject.SizeOf(item), lease: false);
            }

            if (!ReferenceEquals(again.Item, item))
            {
                _run.Fail($"thread {Index}: the rent after returning an item did not hand it back");
            }

            _held.Add(again);
        }

        private void MakeStaleReturnsDue(int step)
        {
            for (int i = _stale.Count - 1; i >= 0; i--)
            {
                if (_stale[i].Due <= step)
                {
                    TItem item = _stale[i].Item;
                    _stale[i] = _stale[^1];
                    _stale.RemoveAt(_stale.Count - 1);
                    StaleReturn(item);
                }
            }
        }

        /// <summary>Returns again an item this thread gave up before: whoever rented it since may still have it.</summary>
        private void StaleReturn(TItem item)
        {
            Injected[(int)MisuseShape.StaleDoubleReturn]++;
            lock (item)
            {
                bool held = _run._holders.TryGetValue(item, out int holder);
                ReportMark mark = Mark();
                _subject.Return(item);
                if (Expect(mark, PoolMisuseKind.DoubleReturn, "a stale return"))
                {
                    // The item was still in the pool: an ordinary double return.
                    Caught[(int)MisuseShape.StaleDoubleReturn]++;
                    if (held)
                    {
                        _run.Fail($"thread {Index}: a stale return was reported while thread {holder} held the item");
                    }

                    return;
                }

                if (!held)
                {
                    StaleBeingRented++;
                }
                else if (holder == Index)
                {
                    StaleHeldByReturningThread++;
                }
                else
                {
                    StaleHeldByOtherThread++;
                }

                // Accepted: the item is in this thread's slot while its holder still has it. The next rent hands it out.
                mark = Mark();
                TItem again = _subject.Rent(_subject.SizeOf(item));
                Expect(mark, expected: null, "the rent after a stale return");
                if (ReferenceEquals(again, item))
                {
                    StaleHandedOutAgain++;
                }
                else
                {
                    _run.Fail($"thread {Index}: a stale return that was not caught did not park the item in the thread's slot");
                }

                // Contained: this second reference is dropped without a return; the item's holder returns it.
            }
        }

        /// <summary>
        /// A lease ends and its item goes to this thread's next lease; <paramref name="disposer"/> then disposes a copy of
        /// the ended lease, which must return nothing.
        /// </summary>
        private void StaleLeaseDispose(int size, Worker disposer)
        {
            Holding first = Rent(size, lease: true);
            MisuseLease<TItem> stale = first.Lease!.Copy();
            TItem item = first.Item;
            Release(first);
            Holding second = Rent(_subject.SizeOf(item), lease: true);
            if (!ReferenceEquals(second.Item, item))
            {
                _run.Fail($"thread {Index}: the lease after an ended lease did not get its item back");
            }

            Injected[(int)MisuseShape.StaleLeaseDispose]++;
            bool returnedNothing = false;
            Ask(disposer, usesPool: true, worker => returnedNothing = worker.DisposeStaleLease(stale, item));
            if (returnedNothing)
            {
                Caught[(int)MisuseShape.StaleLeaseDispose]++;
            }

            _held.Add(second);
        }

        /// <summary>Disposes a copy of a lease that ended; true when that returned nothing.</summary>
        private bool DisposeStaleLease(MisuseLease<TItem> stale, TItem item)
        {
            bool wasActive = stale.IsActive;
            ReportMark mark = Mark();
            stale.Dispose();
            bool quiet = Mark() == mark;
            Expect(mark, expected: null, "a stale lease dispose");

            // Had the dispose returned the item (held under the next lease), it would sit in this thread's slot now.
            Holding probe = Rent(_subject.SizeOf(item), lease: false);
            bool handedOut = ReferenceEquals(probe.Item, item);
            Release(probe);
            return !wasActive && quiet && !handedOut;
        }

        private TItem RentAndRelease(int size)
        {
            Holding holding = Rent(size, lease: false);
            Release(holding);
            return holding.Item;
        }

        private Holding Rent(int size, bool lease) => Rent(size, lease, expected: null, out _);

        /// <summary>Rents (raw or under a lease) and registers the item as held by this thread.</summary>
        private Holding Rent(int size, bool lease, PoolMisuseKind? expected, out bool caught)
        {
            ReportMark mark = Mark();
            Holding holding;
            if (lease)
            {
                MisuseLease<TItem> rented = _subject.RentLease(size);
                holding = new Holding(rented.Item, rented);
                LeaseRents++;
            }
            else
            {
                holding = new Holding(_subject.Rent(size), Lease: null);
            }

            caught = Expect(mark, expected, "a rent");
            lock (holding.Item)
            {
                if (!_run._holders.TryAdd(holding.Item, Index))
                {
                    if (lease)
                    {
                        LeaseRentsOfHeldItems++;
                    }
                    else
                    {
                        RawRentsOfHeldItems++;
                    }

                    string how = lease ? "a lease" : "a raw rent";
                    _run.Fail($"thread {Index} got through {how} an item thread {_run._holders.GetValueOrDefault(holding.Item)} holds");
                }

                _subject.Stamp(holding.Item, Index);
            }

            return holding;
        }

        /// <summary>Unregisters the item and returns it (or ends its lease).</summary>
        private void Release(Holding holding)
        {
            lock (holding.Item)
            {
                if (!_run._holders.TryRemove(new KeyValuePair<TItem, int>(holding.Item, Index)))
                {
                    _run.Fail($"thread {Index} returned an item it was not registered as holding");
                }

                ReportMark mark = Mark();
                if (holding.Lease is { } lease)
                {
                    lease.Dispose();
                }
                else
                {
                    _subject.Return(holding.Item);
                }

                Expect(mark, expected: null, "a return");
            }
        }

        private Holding TakeAt(int index)
        {
            Holding holding = _held[index];
            _held[index] = _held[^1];
            _held.RemoveAt(_held.Count - 1);
            return holding;
        }

        private Worker OtherThread(Random random) => _run._workers[(Index + 1 + random.Next(_run._threads - 1)) % _run._threads];

        /// <summary>
        /// Has <paramref name="other"/> run <paramref name="work"/> and waits for it, serving this thread's own requests
        /// meanwhile. A write is asked for while the written item waits in this thread's slot, so while it waits this
        /// thread serves only other writes: a request that rents here would take that item. Writes never wait for
        /// anything, so every wait ends.
        /// </summary>
        /// <param name="other">The thread that does the work.</param>
        /// <param name="usesPool">False when the work only writes into an item; true when it rents or returns.</param>
        /// <param name="work">The work, given the serving thread.</param>
        private void Ask(Worker other, bool usesPool, Action<Worker> work)
        {
            var request = new Request(this, work);
            (usesPool ? other._poolRequests : other._writeRequests).Enqueue(request);
            other.Signal.Release();
            while (!request.IsDone)
            {
                Serve(includePool: usesPool);
                if (!request.IsDone)
                {
                    Signal.Wait();
                }
            }
        }

        /// <summary>Runs the requests other threads left for this one (those that use the pool only when <paramref name="includePool"/>).</summary>
        private void Serve(bool includePool = true)
        {
            while (_writeRequests.TryDequeue(out Request? request) || (includePool && _poolRequests.TryDequeue(out request)))
            {
                try
                {
                    request.Work(this);
                }
                catch (Exception exception)
                {
                    _run.Fail($"thread {Index} threw serving thread {request.From.Index}: {exception}");
                }
                finally
                {
                    request.Complete();
                }
            }
        }

        /// <summary>Returns everything this thread holds.</summary>
        private void ReleaseAll()
        {
            foreach (Holding holding in _held)
            {
                Release(holding);
            }

            _held.Clear();
        }

        private void Unregister(TItem item)
        {
            lock (item)
            {
                if (!_run._holders.TryRemove(new KeyValuePair<TItem, int>(item, Index)))
                {
                    _run.Fail($"thread {Index} gave up an item it was not registered as holding");
                }
            }
        }

        private ReportMark Mark() => new(
            Reports[(int)PoolMisuseKind.DoubleReturn],
            Reports[(int)PoolMisuseKind.ForeignReturn],
            Reports[(int)PoolMisuseKind.WriteAfterReturn]);

        /// <summary>
        /// Checks the reports raised on this thread since <paramref name="mark"/>: true when one of them is
        /// <paramref name="expected"/>; every other one counts as a false positive.
        /// </summary>
        private bool Expect(ReportMark mark, PoolMisuseKind? expected, string during)
        {
            bool caught = false;
            for (int kind = 0; kind < s_kinds; kind++)
            {
                int raised = Reports[kind] - mark[kind];
                if (raised > 0 && expected == (PoolMisuseKind)kind)
                {
                    caught = true;
                    raised--;
                }

                if (raised > 0)
                {
                    FalsePositives[kind] += raised;
                    _run.Fail($"thread {Index}: {raised} {(PoolMisuseKind)kind} reported during {during}");
                }
            }

            return caught;
        }
    }
}
