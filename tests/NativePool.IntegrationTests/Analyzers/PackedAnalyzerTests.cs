using System.IO;
using NativePool.IntegrationTests.Infrastructure;
using NativePool.Tests;
using Xunit.Abstractions;

namespace NativePool.IntegrationTests.Analyzers;

/// <summary>
/// A project that references the packed NativePool package gets its analyzers in a plain <c>dotnet build</c>: seeded
/// misuse reports NP0001-NP0005 as warnings, and correct code next to it reports nothing; misuse that happens only on
/// exception paths (NP0008-NP0011) is information, which a build with warnings as errors takes. A copy of a pool scope
/// is an error (NP0012) that fails the build. The analyzers reach an app through every package that depends on
/// NativePool.
/// </summary>
[Collection(DotnetBuilds.Name)]
public sealed class PackedAnalyzerTests
{
    private const string Misuse = """
        using System;
        using System.Buffers;
        using NativePool;

        namespace Consumer;

        public static class Misuse
        {
            public static void DoubleReturn(int n)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(n);
                try
                {
                    buffer[0] = 1;
                    ArrayPool<byte>.Shared.Return(buffer);
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }

            public static void UseAfterReturn(int n)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(n);
                Span<byte> span = buffer.AsSpan(0, n);
                ArrayPool<byte>.Shared.Return(buffer);
                span.Clear();
            }

            public static void NotReturned(int n, bool early)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(n);
                if (early)
                {
                    return;
                }

                ArrayPool<byte>.Shared.Return(buffer);
            }

            public static int NotDisposed(int n)
            {
                ArrayLease<byte> lease = StripedArrayPool<byte>.Shared.RentLease(n);
                return lease.Length;
            }

            public static void OtherPool(int n)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(n);
                StripedArrayPool<byte>.Shared.Return(buffer);
            }
        }
        """;

    private const string Correct = """
        using System;
        using System.Buffers;
        using NativePool;

        namespace Consumer;

        public static class Correct
        {
            public static int ReturnedInFinally(int n)
            {
                byte[] buffer = StripedArrayPool<byte>.Shared.Rent(n);
                try
                {
                    buffer.AsSpan(0, n).Fill(1);
                    return buffer[0];
                }
                finally
                {
                    StripedArrayPool<byte>.Shared.Return(buffer);
                }
            }

            public static int Scoped(int n)
            {
                using ArrayScope<byte> scope = StripedArrayPool<byte>.Shared.RentScoped(n);
                scope.Span.Fill(2);
                return scope.Span[0];
            }

            public static byte[] OwnershipPassedOut(int n) => StripedArrayPool<byte>.Shared.Rent(n);

            public static int Memory(int n)
            {
                using IMemoryOwner<byte> owner = StripedMemoryPool<byte>.Shared.Rent(n);
                return owner.Memory.Length;
            }
        }
        """;

    private const string ExceptionPaths = """
        using System;
        using System.Buffers;
        using System.IO;

        namespace Consumer;

        public static class ExceptionPaths
        {
            public static string Dump(Stream stream, int length)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(length);
                int read = stream.Read(buffer, 0, length);
                if (read < length)
                {
                    throw new EndOfStreamException();
                }

                string text = Convert.ToBase64String(buffer, 0, read);
                ArrayPool<byte>.Shared.Return(buffer);
                return text;
            }

            public static int ReadAll(Stream stream)
            {
                byte[] buffer = ArrayPool<byte>.Shared.Rent(256);
                try
                {
                    while (stream.Read(buffer, 0, buffer.Length) == buffer.Length)
                    {
                        int larger = buffer.Length * 2;
                        ArrayPool<byte>.Shared.Return(buffer);
                        buffer = ArrayPool<byte>.Shared.Rent(larger);
                    }

                    return buffer[0];
                }
                finally
                {
                    ArrayPool<byte>.Shared.Return(buffer);
                }
            }
        }
        """;

    // The copies NP0012 reports (lines 12 and 19), and what the same code looks like without them.
    private const string ScopeCopies = """
        using System.Text;
        using NativePool;

        namespace Consumer;

        public static class Scopes
        {
            public static int Assigned(int n)
            {
                using ArrayScope<byte> scope = StripedArrayPool<byte>.Shared.RentScoped(n);
                scope.Span.Fill(1);
                ArrayScope<byte> copy = scope;
                return copy.Span[0];
            }

            public static int PassedByValue(StripedObjectPool<StringBuilder> pool)
            {
                using ObjectScope<StringBuilder> scope = pool.RentScoped();
                return Length(scope);
            }

            private static int Length(ObjectScope<StringBuilder> scope) => scope.Value.Length;
        }
        """;

    private const string ScopesWithoutCopies = """
        using System.Text;
        using NativePool;

        namespace Consumer;

        public static class Scopes
        {
            public static int Assigned(int n)
            {
                using ArrayScope<byte> scope = StripedArrayPool<byte>.Shared.RentScoped(n);
                scope.Span.Fill(1);
                return scope.Span[0];
            }

            public static int PassedByValue(StripedObjectPool<StringBuilder> pool)
            {
                using ObjectScope<StringBuilder> scope = pool.RentScoped();
                return Length(in scope);
            }

            private static int Length(in ObjectScope<StringBuilder> scope) => scope.Value.Length;
        }
        """;

    private readonly PackedPackages _packages;
    private readonly ITestOutputHelper _output;

    public PackedAnalyzerTests(PackedPackages packages, ITestOutputHelper output)
    {
        _packages = packages;
        _output = output;
    }

    [Fact]
    [Trait("Category", "Packaging")]
    public void APlainBuildAgainstThePackageWarnsOnTheMisuseAndNowhereElse()
    {
        using PackedConsumer consumer = PackedConsumer.Create(_output, _packages);
        consumer.WriteProject();
        AssertTheMisuseWarnsAndNothingElse(consumer);
    }

    [Fact]
    [Trait("Category", "Packaging")]
    public void AnAppThatReferencesOnlyTheAspNetCorePackageGetsTheAnalyzersThroughIt()
    {
        using PackedConsumer consumer = PackedConsumer.Create(_output, _packages);
        consumer.WriteProject("NativePool.AspNetCore");
        AssertTheMisuseWarnsAndNothingElse(consumer);
    }

    [Fact]
    [Trait("Category", "Packaging")]
    public void ABuildWithWarningsAsErrorsTakesThePackageWhenMisuseHappensOnlyOnExceptionPaths()
    {
        using PackedConsumer consumer = PackedConsumer.Create(_output, _packages);
        consumer.WriteProject();
        consumer.WriteSource("ExceptionPaths.cs", ExceptionPaths);
        consumer.WriteSource("Correct.cs", Correct);

        (int exit, string log) = consumer.Build("-warnaserror");

        Assert.True(exit == 0, $"dotnet build -warnaserror exited with {exit}:\n{ChildProcess.Tail(log, 40)}");
        Assert.DoesNotContain(PackedConsumer.Diagnostics(log, "NP00"), d => d.Severity != "info");

        // The findings are there, as information: raised in .editorconfig, they are warnings.
        consumer.WriteSource(".editorconfig", "root = true\n\n[*.cs]\ndotnet_diagnostic.NP0008.severity = warning\ndotnet_diagnostic.NP0010.severity = warning\n");

        (exit, log) = consumer.Build();

        Assert.True(exit == 0, $"dotnet build exited with {exit}:\n{ChildProcess.Tail(log, 40)}");
        var found = PackedConsumer.Diagnostics(log, "NP00");
        Assert.Equal([("ExceptionPaths.cs", 11, "NP0010"), ("ExceptionPaths.cs", 39, "NP0008")], found.Select(d => (d.File, d.Line, d.Id)).Order());
        Assert.All(found, d => Assert.Equal("warning", d.Severity));
    }

    [Fact]
    [Trait("Category", "Packaging")]
    public void CopyingAScopeFailsTheBuildWithNP0012AndTheSameCodeWithoutTheCopyBuilds()
    {
        using PackedConsumer consumer = PackedConsumer.Create(_output, _packages);
        consumer.WriteProject();
        consumer.WriteSource("Scopes.cs", ScopeCopies);

        (int exit, string log) = consumer.Build();

        // Without the analyzers in the package the copies compile: the build must fail, and on these two lines only.
        Assert.True(exit != 0, $"dotnet build of the copies succeeded:\n{ChildProcess.Tail(log, 40)}");
        var found = PackedConsumer.Diagnostics(log, "NP00");
        Assert.Equal([("Scopes.cs", 12, "NP0012", "error"), ("Scopes.cs", 19, "NP0012", "error")], found.Order());
        Assert.DoesNotMatch(@"error CS\d+", log);

        consumer.WriteSource("Scopes.cs", ScopesWithoutCopies);

        (exit, log) = consumer.Build();

        Assert.True(exit == 0, $"dotnet build exited with {exit}:\n{ChildProcess.Tail(log, 40)}");
        Assert.Empty(PackedConsumer.Diagnostics(log, "NP00"));
    }

    [Fact]
    [Trait("Category", "Packaging")]
    public void ALibraryThatTakesThePackageLeavesTheAnalyzersOffInTheProjectsThatReferenceItUntilTheyTakeItThemselves()
    {
        // A library that references the package, and a project (its test project, say) that references the library by
        // project: the project compiles against NativePool through the library and gets the analyzer assembly too, as
        // NuGet hands analyzers on, but the analyzers stay quiet there, under warnings as errors, misuse included.
        using PackedConsumer consumer = PackedConsumer.Create(_output, _packages);
        string library = Path.Combine(consumer.ProjectDirectory, "..", "library");
        Directory.CreateDirectory(library);
        File.WriteAllText(Path.Combine(library, "Library.csproj"), consumer.ProjectText("NativePool"));
        File.WriteAllText(Path.Combine(library, "Correct.cs"), Correct.Replace("namespace Consumer;", "namespace Library;", StringComparison.Ordinal));
        const string LibraryReference = "<ProjectReference Include=\"../library/Library.csproj\" />";
        consumer.WriteProject(packageId: null, LibraryReference);
        consumer.WriteSource("Misuse.cs", Misuse);

        (int exit, string log) = consumer.Build("-warnaserror");

        Assert.True(exit == 0, $"dotnet build -warnaserror of the library's user exited with {exit}:\n{ChildProcess.Tail(log, 40)}");
        Assert.Empty(PackedConsumer.Diagnostics(log, "NP00"));

        // The same project taking the package itself gets them.
        consumer.WriteProject("NativePool", LibraryReference);

        (exit, log) = consumer.Build();

        Assert.True(exit == 0, $"dotnet build exited with {exit}:\n{ChildProcess.Tail(log, 40)}");
        Assert.Equal(
            [("Misuse.cs", 19, "NP0001"), ("Misuse.cs", 28, "NP0002"), ("Misuse.cs", 33, "NP0003"), ("Misuse.cs", 44, "NP0004"), ("Misuse.cs", 51, "NP0005")],
            PackedConsumer.Diagnostics(log, "NP000").Select(d => (d.File, d.Line, d.Id)).Order());
    }

    [Fact]
    [Trait("Category", "Packaging")]
    public void OneDotnetFormatRunSwapsTheSharedPoolAndTurnsItsRentsIntoScopes()
    {
        // The documented migration: one run of the five fixes, in either order of the ids, converts a try/finally rent, a
        // rent returned without one and a stackalloc-or-rent of ArrayPool<T>.Shared into scopes of
        // StripedArrayPool<T>.Shared, a rent held across an await into a lease, and swaps every other
        // ArrayPool<T>.Shared, and the result builds with warnings as errors.
        const string Before = """
            using System;
            using System.Buffers;
            using System.IO;
            using System.Text;
            using System.Threading.Tasks;

            namespace Consumer;

            public static class Migrated
            {
                public static int Sum(int n)
                {
                    byte[] buffer = ArrayPool<byte>.Shared.Rent(n);
                    try
                    {
                        buffer.AsSpan(0, n).Fill(1);
                        return buffer[0];
                    }
                    finally
                    {
                        ArrayPool<byte>.Shared.Return(buffer);
                    }
                }

                public static int Checksum(int n)
                {
                    byte[] buffer = ArrayPool<byte>.Shared.Rent(n);
                    buffer.AsSpan(0, n).Fill(2);
                    int sum = buffer[0] + buffer[n - 1];
                    ArrayPool<byte>.Shared.Return(buffer);
                    return sum;
                }

                public static int Encode(string text)
                {
                    byte[]? rented = null;
                    Span<byte> bytes = text.Length <= 128 ? stackalloc byte[128] : (rented = ArrayPool<byte>.Shared.Rent(text.Length));
                    int count = Encoding.ASCII.GetBytes(text, bytes);
                    if (rented != null)
                    {
                        ArrayPool<byte>.Shared.Return(rented);
                    }

                    return count;
                }

                public static async Task<int> ReadAsync(Stream stream, int n)
                {
                    byte[] buffer = ArrayPool<byte>.Shared.Rent(n);
                    try
                    {
                        return await stream.ReadAsync(buffer.AsMemory(0, n));
                    }
                    finally
                    {
                        ArrayPool<byte>.Shared.Return(buffer);
                    }
                }

                public static byte[] Escapes(int n) => ArrayPool<byte>.Shared.Rent(n);
            }
            """;
        const string After = """
            using System;
            using System.Buffers;
            using System.IO;
            using System.Text;
            using System.Threading.Tasks;
            using NativePool;

            namespace Consumer;

            public static class Migrated
            {
                public static int Sum(int n)
                {
                    using var scope = StripedArrayPool<byte>.Shared.RentScoped(n);
                    scope.Span.Fill(1);
                    return scope.Array[0];
                }

                public static int Checksum(int n)
                {
                    using var scope = StripedArrayPool<byte>.Shared.RentScoped(n);
                    scope.Span.Fill(2);
                    int sum = scope.Array[0] + scope.Array[n - 1];
                    return sum;
                }

                public static int Encode(string text)
                {
                    using var scope = text.Length <= 128 ? default : StripedArrayPool<byte>.Shared.RentScoped(text.Length);
                    Span<byte> bytes = text.Length <= 128 ? stackalloc byte[128] : scope.Span;
                    int count = Encoding.ASCII.GetBytes(text, bytes);
                    return count;
                }

                public static async Task<int> ReadAsync(Stream stream, int n)
                {
                    using var lease = StripedArrayPool<byte>.Shared.RentLease(n);
                    return await stream.ReadAsync(lease.Memory);
                }

                public static byte[] Escapes(int n) => StripedArrayPool<byte>.Shared.Rent(n);
            }
            """;
        using PackedConsumer consumer = PackedConsumer.Create(_output, _packages);
        consumer.WriteProject();
        foreach (string[] ids in new[] { new[] { "NP0006", "NP0007", "NP0014", "NP0015", "NP0016" }, new[] { "NP0016", "NP0015", "NP0014", "NP0007", "NP0006" } })
        {
            consumer.WriteSource("Migrated.cs", Before);

            (int exit, string log) = consumer.FormatAnalyzers(["--diagnostics", .. ids, "--severity", "info"]);

            Assert.True(exit == 0, $"dotnet format exited with {exit}:\n{ChildProcess.Tail(log, 40)}");
            Assert.Equal(After.ReplaceLineEndings(), File.ReadAllText(Path.Combine(consumer.ProjectDirectory, "Migrated.cs")).ReplaceLineEndings().TrimEnd());
        }

        (int buildExit, string buildLog) = consumer.Build("-warnaserror");
        Assert.True(buildExit == 0, $"dotnet build -warnaserror of the migrated code exited with {buildExit}:\n{ChildProcess.Tail(buildLog, 40)}");
    }

    /// <summary>Builds <paramref name="consumer"/> with the seeded misuse and the correct code: five warnings, at their lines.</summary>
    private static void AssertTheMisuseWarnsAndNothingElse(PackedConsumer consumer)
    {
        consumer.WriteSource("Misuse.cs", Misuse);
        consumer.WriteSource("Correct.cs", Correct);

        (int exit, string log) = consumer.Build();

        Assert.True(exit == 0, $"dotnet build exited with {exit}:\n{ChildProcess.Tail(log, 40)}");
        var found = PackedConsumer.Diagnostics(log, "NP000");
        Assert.Equal(
            [("Misuse.cs", 19, "NP0001"), ("Misuse.cs", 28, "NP0002"), ("Misuse.cs", 33, "NP0003"), ("Misuse.cs", 44, "NP0004"), ("Misuse.cs", 51, "NP0005")],
            found.Select(d => (d.File, d.Line, d.Id)).Order());
        Assert.All(found, d => Assert.Equal("warning", d.Severity));
    }
}
