using System;
using System.Collections.Immutable;
using System.IO;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Testing;

namespace NativePool.Analyzers.Tests.Infrastructure;

/// <summary>
/// The references the sources under test compile against: the running framework's assemblies (no package download),
/// NativePool and Microsoft.Extensions.ObjectPool.
/// </summary>
internal static class TestReferences
{
    /// <summary>The framework with no package to resolve.</summary>
    public static ReferenceAssemblies Framework { get; } = new("net10.0");

    /// <summary>
    /// The global analyzer config a project that references a NativePool package gets from the package's build props:
    /// it turns the analyzers on.
    /// </summary>
    public static (string Path, string Content) AnalyzersOn { get; } = ("/.globalconfig", "is_global = true\nbuild_property.NativePoolAnalyzersEnabled = true\n");

    /// <summary>The framework, NativePool and the object pool abstractions.</summary>
    public static ImmutableArray<MetadataReference> WithNativePool { get; } = Create(includeNativePool: true);

    /// <summary>The framework and the object pool abstractions, without NativePool.</summary>
    public static ImmutableArray<MetadataReference> WithoutNativePool { get; } = Create(includeNativePool: false);

    private static ImmutableArray<MetadataReference> Create(bool includeNativePool)
    {
        string frameworkDirectory = Path.GetDirectoryName(typeof(object).Assembly.Location)!;
        var paths = Directory.GetFiles(frameworkDirectory, "*.dll")
            .Where(path => Path.GetFileName(path).StartsWith("System.", StringComparison.Ordinal) || Path.GetFileName(path) is "mscorlib.dll" or "netstandard.dll")
            .Append(typeof(Microsoft.Extensions.ObjectPool.ObjectPool<>).Assembly.Location);
        if (includeNativePool)
        {
            paths = paths.Append(typeof(StripedArrayPool<>).Assembly.Location)
                .Append(Path.Combine(AppContext.BaseDirectory, "NativePool.Engine.dll"));
        }

        return [.. paths.Where(IsManaged).Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))];
    }

    private static bool IsManaged(string path)
    {
        try
        {
            System.Reflection.AssemblyName.GetAssemblyName(path);
            return true;
        }
        catch (BadImageFormatException)
        {
            return false;
        }
    }
}
