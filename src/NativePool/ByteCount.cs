using System;
using System.Globalization;

namespace NativePool;

/// <summary>Reads a byte count as people write one: <c>268435456</c>, <c>256MB</c>, <c>256 MiB</c>, <c>1g</c>.</summary>
/// <remarks>Every unit is a power of 1024, as container memory limits are written (<c>256m</c>, <c>1g</c>); what is accepted is <see cref="Accepted"/>, and the count must fit in 63 bits.</remarks>
internal static class ByteCount
{
    /// <summary>What <see cref="TryParse"/> accepts, for messages.</summary>
    public const string Accepted = "a whole number of bytes of at least 1, optionally followed by a unit (B, K/KB/KiB, M/MB/MiB, G/GB/GiB, T/TB/TiB; powers of 1024), such as 268435456 or 256MB";

    /// <summary>Reads <paramref name="text"/> as a byte count; false for anything else.</summary>
    public static bool TryParse(string? text, out long bytes)
    {
        bytes = 0;
        ReadOnlySpan<char> span = text.AsSpan().Trim();
        int digits = 0;
        while (digits < span.Length && char.IsAsciiDigit(span[digits]))
        {
            digits++;
        }

        if (digits == 0 || !long.TryParse(span[..digits], NumberStyles.None, CultureInfo.InvariantCulture, out long count))
        {
            return false;
        }

        int shift = UnitShift(span[digits..].TrimStart());
        if (shift < 0 || count == 0 || count > (long.MaxValue >> shift))
        {
            return false;
        }

        bytes = count << shift;
        return true;
    }

    /// <summary>The power of two a unit stands for, or -1 for a word that is not a unit.</summary>
    private static int UnitShift(ReadOnlySpan<char> unit)
    {
        if (unit.IsEmpty || unit.Equals("B", StringComparison.OrdinalIgnoreCase))
        {
            return 0;
        }

        int shift = char.ToUpperInvariant(unit[0]) switch
        {
            'K' => 10,
            'M' => 20,
            'G' => 30,
            'T' => 40,
            _ => -1,
        };
        ReadOnlySpan<char> rest = unit[1..];
        bool suffixOk = rest.IsEmpty || rest.Equals("B", StringComparison.OrdinalIgnoreCase) || rest.Equals("iB", StringComparison.OrdinalIgnoreCase);
        return suffixOk ? shift : -1;
    }
}
