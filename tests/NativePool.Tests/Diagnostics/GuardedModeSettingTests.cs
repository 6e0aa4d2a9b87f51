namespace NativePool.Tests.Diagnostics;

/// <summary>How the process-wide guarded switch reads its value: the same values in the runtime setting and the environment variable, and nothing ignored.</summary>
public sealed class GuardedModeSettingTests
{
    [Theory]
    [InlineData("1", true)]
    [InlineData("true", true)]
    [InlineData(" On ", true)]
    [InlineData("0", false)]
    [InlineData("FALSE", false)]
    [InlineData("off", false)]
    [InlineData("", false)]
    [InlineData(null, false)]
    public void TheEnvironmentVariableAndTheRuntimeSettingReadTheSameValuesAlike(string? value, bool on)
    {
        Assert.Equal(on, GuardedMode.Read(_ => null, name => name == GuardedMode.EnvironmentVariable ? value : null));
        Assert.Equal(on, GuardedMode.Read(name => name == GuardedMode.SwitchName ? value : null, _ => null));
    }

    [Fact]
    public void AnAppContextSwitchSetInCodeIsRead()
    {
        Assert.True(GuardedMode.Read(name => name == GuardedMode.SwitchName ? true : null, _ => null));
        Assert.False(GuardedMode.Read(name => name == GuardedMode.SwitchName ? false : null, _ => "1"));
    }

    [Theory]
    [InlineData("yes")]
    [InlineData("2")]
    [InlineData("garbage")]
    public void AValueThatIsNotASwitchIsRefusedNamingTheSettingAndTheValue(string value)
    {
        var rejected = Assert.Throws<InvalidOperationException>(() => GuardedMode.Read(_ => null, _ => value));
        Assert.Contains(GuardedMode.EnvironmentVariable, rejected.Message, StringComparison.Ordinal);
        Assert.Contains(value, rejected.Message, StringComparison.Ordinal);
    }
}
