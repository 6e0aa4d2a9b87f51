using System;

namespace NativePool;

/// <summary>A process setting's value, read once in a static initializer: the value, or the <see cref="InvalidOperationException"/> its malformed text made the reader throw.</summary>
/// <remarks>Kept, not thrown from the initializer (a <see cref="TypeInitializationException"/>): every use throws it instead and raises <see cref="NativePoolEventSource.SettingRejected"/>.</remarks>
/// <typeparam name="T">The setting's parsed type.</typeparam>
internal sealed class ProcessSettingValue<T>
{
    private readonly T _value;
    private readonly string? _rejection;

    private ProcessSettingValue(T value, string? rejection)
    {
        _value = value;
        _rejection = rejection;
    }

    /// <summary>The value, when the setting was readable.</summary>
    /// <exception cref="InvalidOperationException">The setting holds a malformed value; the message names it.</exception>
    public T Value
    {
        get
        {
            if (_rejection is not null)
            {
                NativePoolEventSource.Log.SettingRejected(_rejection);
                ThrowHelper.ThrowInvalidOperation(_rejection);
            }

            return _value;
        }
    }

    /// <summary>Runs <paramref name="read"/> now; a malformed value's <see cref="InvalidOperationException"/> is kept for <see cref="Value"/>.</summary>
    public static ProcessSettingValue<T> Read(Func<T> read)
    {
        try
        {
            return new ProcessSettingValue<T>(read(), null);
        }
        catch (InvalidOperationException rejected)
        {
            return new ProcessSettingValue<T>(default!, rejected.Message);
        }
    }
}
