using System.Runtime.CompilerServices;

namespace NativePool.Tests.ArrayPool;

/// <summary>Non-default values of the element types the array pool tests run with.</summary>
/// <typeparam name="T">byte, char, int, <see cref="TaggedValue"/> or object.</typeparam>
public static class TestElements<T>
{
    /// <summary>Whether an array of <typeparamref name="T"/> can keep objects alive.</summary>
    public static bool HoldsReferences => RuntimeHelpers.IsReferenceOrContainsReferences<T>();

    /// <summary>A value that is never <c>default(T)</c>; equal seeds give equal values.</summary>
    public static T Make(int seed)
    {
        if (typeof(T) == typeof(byte))
        {
            return (T)(object)(byte)((seed % 255) + 1);
        }

        if (typeof(T) == typeof(char))
        {
            return (T)(object)(char)('a' + (seed % 26));
        }

        if (typeof(T) == typeof(int))
        {
            return (T)(object)((seed & int.MaxValue) | 1);
        }

        if (typeof(T) == typeof(TaggedValue))
        {
            return (T)(object)new TaggedValue("tag", seed);
        }

        if (typeof(T) == typeof(object))
        {
            return (T)(object)$"item {seed}";
        }

        throw new NotSupportedException($"No test values for {typeof(T)}.");
    }

    /// <summary>Fills <paramref name="span"/> with non-default values.</summary>
    public static void Fill(Span<T> span)
    {
        for (int i = 0; i < span.Length; i++)
        {
            span[i] = Make(i);
        }
    }

    /// <summary>Whether <paramref name="span"/> holds what <see cref="Fill"/> wrote.</summary>
    public static bool HoldsFilledValues(ReadOnlySpan<T> span)
    {
        EqualityComparer<T> comparer = EqualityComparer<T>.Default;
        for (int i = 0; i < span.Length; i++)
        {
            if (!comparer.Equals(span[i], Make(i)))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Whether every element of <paramref name="span"/> is <c>default(T)</c>.</summary>
    public static bool IsCleared(ReadOnlySpan<T> span)
    {
        EqualityComparer<T> comparer = EqualityComparer<T>.Default;
        foreach (T item in span)
        {
            if (!comparer.Equals(item, default!))
            {
                return false;
            }
        }

        return true;
    }
}
