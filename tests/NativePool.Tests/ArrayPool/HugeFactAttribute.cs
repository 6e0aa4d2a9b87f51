namespace NativePool.Tests.ArrayPool;

/// <summary>
/// A fact that allocates about a gibibyte: skipped unless the environment variable <see cref="EnvironmentVariable"/> is
/// <c>1</c>. Pair it with <c>[Trait("Category", "Huge")]</c> so it can be selected with <c>--filter Category=Huge</c>.
/// </summary>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
public sealed class HugeFactAttribute : FactAttribute
{
    /// <summary>The variable that turns huge tests on.</summary>
    public const string EnvironmentVariable = "NATIVEPOOL_HUGE_TESTS";

    /// <summary>Marks the test skipped unless huge tests are turned on.</summary>
    public HugeFactAttribute()
    {
        if (Environment.GetEnvironmentVariable(EnvironmentVariable) != "1")
        {
            Skip = $"Allocates about 1 GiB: set {EnvironmentVariable}=1 and run with --filter Category=Huge.";
        }
    }
}
