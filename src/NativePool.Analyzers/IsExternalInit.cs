namespace System.Runtime.CompilerServices;

/// <summary>What the compiler needs for the records' init accessors, which netstandard2.0 does not have.</summary>
internal static class IsExternalInit;
