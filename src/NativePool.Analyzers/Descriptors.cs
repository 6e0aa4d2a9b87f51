using Microsoft.CodeAnalysis;

namespace NativePool.Analyzers;

/// <summary>The descriptors of every rule, each linked to its section of the analyzers' documentation.</summary>
internal static class Descriptors
{
    private const string Category = "Reliability";
    private const string HelpPage = "https://github.com/nativepool/nativepool/blob/main/docs/analyzers.md#";

    internal static readonly DiagnosticDescriptor DoubleReturn = Create(DiagnosticIds.DoubleReturn, DiagnosticSeverity.Warning, "Pooled item returned twice",
        "'{0}' may already have been returned to the pool on a path that reaches this return",
        "A second return hands one array or object to two future renters, which then see each other's data.");
    internal static readonly DiagnosticDescriptor UseAfterReturn = Create(DiagnosticIds.UseAfterReturn, DiagnosticSeverity.Warning, "Pooled item used after it was returned",
        "'{0}' is used after it was returned to the pool on a path that reaches this use",
        "Once returned, the array or object may already belong to another renter: reading it sees their data, writing it corrupts it.");
    internal static readonly DiagnosticDescriptor NotReturned = Create(DiagnosticIds.NotReturned, DiagnosticSeverity.Warning, "Pooled item not returned on some path",
        "'{0}' is rented here but not returned to the pool on some path that leaves the method",
        "A rented array or object that is never returned is lost to the pool: the next rent allocates instead of reusing.");
    internal static readonly DiagnosticDescriptor NotDisposed = Create(DiagnosticIds.NotDisposed, DiagnosticSeverity.Warning, "Pool scope or lease not disposed",
        "'{0}' is rented here but not disposed on some path that leaves the method; rent it in a using declaration",
        "A scope, lease or memory owner gives its memory back only when disposed; one that is not disposed loses the memory to the pool, and native memory is never freed.");
    internal static readonly DiagnosticDescriptor ReturnedToOtherPool = Create(DiagnosticIds.ReturnedToOtherPool, DiagnosticSeverity.Warning, "Pooled item returned to a different pool",
        "'{0}' was rented from '{1}' but is returned to '{2}'",
        "Returning to another pool mixes the pools' bookkeeping: one pool keeps growing while the other one's items go missing.");
    internal static readonly DiagnosticDescriptor UseStripedArrayPool = Create(DiagnosticIds.UseStripedArrayPool, DiagnosticSeverity.Info, "Use StripedArrayPool<T>.Shared",
        "'ArrayPool<{0}>.Shared' can be 'StripedArrayPool<{0}>.Shared'",
        "StripedArrayPool<T>.Shared is a drop-in ArrayPool<T> from the referenced NativePool package.");
    internal static readonly DiagnosticDescriptor UseRentScoped = Create(DiagnosticIds.UseRentScoped, DiagnosticSeverity.Info, "Use a RentScoped scope",
        "The rent of '{0}' and its return in 'finally' can be 'using var scope = pool.RentScoped(...)'",
        "A scope returns the array when it is disposed, once, even if it is copied; the try/finally goes away.");
    internal static readonly DiagnosticDescriptor UseRentScopedWithoutFinally = Create(DiagnosticIds.UseRentScopedWithoutFinally, DiagnosticSeverity.Info, "Use a RentScoped scope for a rent returned without finally",
        "The rent of '{0}' and its return can be 'using var scope = pool.RentScoped(...)', which also returns the array when the code between them throws",
        "A scope returns the array when it is disposed, on every path out of its block, exceptions included; the rent and return without a try/finally lose the array to the garbage collector when the code between them throws.");
    internal static readonly DiagnosticDescriptor UseRentScopedBesideStackalloc = Create(DiagnosticIds.UseRentScopedBesideStackalloc, DiagnosticSeverity.Info, "Use a RentScoped scope beside stackalloc",
        "'{0}', rented where the stackalloc is too small, can be a scope: 'using var scope = ... ? default : pool.RentScoped(...)', and the span 'scope.Span'",
        "A default scope stands for nothing rented and does nothing when disposed, so the scope replaces the nullable array, its null test and its return, with or without a try/finally.");
    internal static readonly DiagnosticDescriptor UseRentLease = Create(DiagnosticIds.UseRentLease, DiagnosticSeverity.Info, "Use a RentLease lease for a rent held across an await",
        "The rent of '{0}', held across an await, and its return can be 'using var lease = pool.RentLease(...)'",
        "A scope cannot live across an await; a lease can, and returns the array when it is disposed, once, on every path out of its block, exceptions included.");
    internal static readonly DiagnosticDescriptor DoubleReturnOnException = Create(DiagnosticIds.DoubleReturnOnException, DiagnosticSeverity.Info, "Pooled item returned twice if an exception is thrown",
        "If {1}, '{0}' is returned to the pool a second time{2}",
        "The second return happens only when the named call throws (or the named throw is reached): rare, but then two future renters share one array or object. Information by default, so that a build with warnings as errors does not fail on it.");
    internal static readonly DiagnosticDescriptor UseAfterReturnOnException = Create(DiagnosticIds.UseAfterReturnOnException, DiagnosticSeverity.Info, "Pooled item used after it was returned if an exception is thrown",
        "If {1}, '{0}' is used here after it was returned to the pool",
        "The use after return happens only when the named call throws (or the named throw is reached); then it reads or writes an item that may belong to another renter. Information by default.");
    internal static readonly DiagnosticDescriptor NotReturnedOnException = Create(DiagnosticIds.NotReturnedOnException, DiagnosticSeverity.Info, "Pooled item not returned if an exception is thrown",
        "If {1}, '{0}' is never returned to the pool",
        "The item is lost to the pool only when the named call throws (or the named throw is reached); it is then collected by the GC, not reused. Information by default.");
    internal static readonly DiagnosticDescriptor NotDisposedOnException = Create(DiagnosticIds.NotDisposedOnException, DiagnosticSeverity.Info, "Pool scope or lease not disposed if an exception is thrown",
        "If {1}, '{0}' is never disposed; rent it in a using declaration",
        "The scope, lease or memory owner is left undisposed only when the named call throws (or the named throw is reached); its memory is then lost to the pool, as for NP0004. Information by default.");
    internal static readonly DiagnosticDescriptor ScopeCopied = Create(DiagnosticIds.ScopeCopied, DiagnosticSeverity.Error, "Pool scope copied",
        "'{0}' is copied here; a copy of a scope returns its {1} a second time when it is disposed too. Pass it by 'ref' or 'in', or rent with RentLease() where the item must be shared.",
        "A scope returns its array or object when it is disposed, and checks for copies only in guarded mode: two copies would hand one item to two renters. A scope may be used through its members, passed by ref or in, and returned from a variable that is not a using declaration.");
    internal static readonly DiagnosticDescriptor EscapesItsReturn = Create(DiagnosticIds.EscapesItsReturn, DiagnosticSeverity.Warning, "Pooled item escapes the method that returns it",
        "{0}, but '{1}' goes back to the pool before the method ends",
        "A pooled item, or a span, memory or task over it, leaves the method (returned, yielded, stored in a field or a ref or out parameter, captured by a delegate that leaves, passed to a task nobody awaits) and the method then gives the item back: whoever holds it reads or writes memory the pool may already have handed to another renter.");

    private static DiagnosticDescriptor Create(string id, DiagnosticSeverity severity, string title, string message, string description)
        => new(id, title, message, Category, severity, isEnabledByDefault: true, description, HelpPage + id.ToLowerInvariant());
}
