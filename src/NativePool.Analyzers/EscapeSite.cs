using Microsoft.CodeAnalysis;

namespace NativePool.Analyzers;

/// <summary>
/// Where a pooled item, or a view or task over it, leaves the method (NP0013 when the method then gives it back);
/// <c>Clause</c> starts the message, <c>Key</c> names the field, property or parameter a later write may take it back from.
/// </summary>
internal sealed record EscapeSite(IOperation Carrier, TrackedLocal Owner, string Clause, string? Key);
