using System.Reflection;

namespace NativePool.IntegrationTests.Packaging;

/// <summary>
/// What the shipped assemblies say about themselves: their names (what a user sees in the package) and the trimmable
/// mark the SDK adds only when IsAotCompatible (and so IsTrimmable) is on for the project.
/// </summary>
public class LibraryAssemblyTests
{
    private static readonly Assembly s_dropIns = typeof(StripedArrayPool<>).Assembly;
    private static readonly Assembly s_engine = Assembly.Load("NativePool.Engine");
    private static readonly Assembly s_aspNetCore = typeof(NativePool.AspNetCore.StripedKestrelMemoryPoolFactory).Assembly;
    private static readonly Assembly s_dependencyInjection = typeof(Microsoft.Extensions.DependencyInjection.StripedObjectPoolServiceCollectionExtensions).Assembly;

    [Fact]
    public void TheDropInsAreNativePoolAndTheEngineIsNativePoolEngine()
    {
        Assert.Equal("NativePool", s_dropIns.GetName().Name);
        Assert.Equal("NativePool.Engine", s_engine.GetName().Name);
        Assert.Equal("NativePool.AspNetCore", s_aspNetCore.GetName().Name);
        Assert.Equal("NativePool.Extensions.DependencyInjection", s_dependencyInjection.GetName().Name);
    }

    [Fact]
    public void EveryPublicTypeOfThePackageIsInNativePoolAndTheEngineHasNone()
    {
        Assert.Empty(s_engine.GetExportedTypes());
        Assert.Same(s_dropIns, typeof(PoolStatistics).Assembly);
    }

    [Fact]
    public void TheDropInsReferenceNoContainerOptionsOrConfigurationAssembly()
    {
        string[] references = [.. s_dropIns.GetReferencedAssemblies().Select(name => name.Name!)];

        Assert.Contains("Microsoft.Extensions.ObjectPool", references);
        Assert.DoesNotContain(references, name => name.StartsWith("Microsoft.Extensions.", StringComparison.Ordinal) && name != "Microsoft.Extensions.ObjectPool");
    }

    [Fact]
    public void EveryLibraryAssemblyIsBuiltAsTrimmable()
    {
        foreach (Assembly assembly in new[] { s_dropIns, s_engine, s_aspNetCore, s_dependencyInjection })
        {
            Assert.Contains(
                assembly.GetCustomAttributes<AssemblyMetadataAttribute>(),
                metadata => metadata.Key == "IsTrimmable" && metadata.Value == "True");
        }
    }
}
