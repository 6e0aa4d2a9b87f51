using System;
using System.Buffers;
using System.Collections.Generic;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using Microsoft.Extensions.ObjectPool;

namespace NativePool.Samples.MigratedService;

/// <summary>
/// Sums order lines per SKU. A pooled service: its dictionary and list keep their capacity from one report to the next,
/// and <see cref="TryReset"/> empties them when the instance goes back to the pool.
/// </summary>
internal sealed class ReportBuilder : IResettable
{
    /// <summary>The longest SKU accepted.</summary>
    public const int MaximumSkuLength = 64;

    private static readonly SearchValues<char> s_skuCharacters =
        SearchValues.Create("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");

    private readonly Dictionary<string, Totals> _totals = new(StringComparer.Ordinal);
    private readonly List<string> _skus = [];

    /// <summary>Adds every line of <paramref name="text"/>: <c>sku,quantity,unitPrice</c>, blank lines skipped.</summary>
    /// <param name="text">The report's lines, separated by <c>\n</c> or <c>\r\n</c>.</param>
    /// <param name="error">Why a line was refused (naming its number), or null.</param>
    /// <returns>Whether every line was read; when false, the builder holds the lines before the refused one.</returns>
    public bool TryAddLines(ReadOnlySpan<char> text, out string? error)
    {
        int number = 0;
        foreach (Range range in text.Split('\n'))
        {
            number++;
            ReadOnlySpan<char> line = text[range].TrimEnd('\r');
            if (line.IsEmpty)
            {
                continue;
            }

            if (!TryAddLine(line))
            {
                error = $"Line {number} is not 'sku,quantity,unitPrice' (a SKU of 1 to {MaximumSkuLength} ASCII letters, digits, '-' or '_'; a quantity from 1 to 1000000; a price from 0 to 1000000 with at most 2 decimals).";
                return false;
            }
        }

        error = null;
        return true;
    }

    /// <summary>Writes the totals as CSV: a header, one row per SKU in ordinal order, and a <c>total</c> row.</summary>
    /// <param name="csv">The builder to append to.</param>
    public void WriteCsv(StringBuilder csv)
    {
        _skus.Clear();
        _skus.AddRange(_totals.Keys);
        _skus.Sort(StringComparer.Ordinal);

        long quantity = 0;
        decimal amount = 0;
        csv.Append("sku,quantity,amount\n");
        foreach (string sku in _skus)
        {
            Totals totals = _totals[sku];
            csv.Append(CultureInfo.InvariantCulture, $"{sku},{totals.Quantity},{totals.Amount:F2}\n");
            quantity += totals.Quantity;
            amount += totals.Amount;
        }

        csv.Append(CultureInfo.InvariantCulture, $"total,{quantity},{amount:F2}\n");
    }

    /// <inheritdoc />
    public bool TryReset()
    {
        _totals.Clear();
        _skus.Clear();
        return true;
    }

    private bool TryAddLine(ReadOnlySpan<char> line)
    {
        Span<Range> fields = stackalloc Range[4];
        if (line.Split(fields, ',') != 3)
        {
            return false;
        }

        ReadOnlySpan<char> sku = line[fields[0]];
        if (sku.IsEmpty || sku.Length > MaximumSkuLength || sku.ContainsAnyExcept(s_skuCharacters)
            || !int.TryParse(line[fields[1]], NumberStyles.None, CultureInfo.InvariantCulture, out int quantity) || quantity is < 1 or > 1_000_000
            || !decimal.TryParse(line[fields[2]], NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out decimal price) || price > 1_000_000 || price.Scale > 2)
        {
            return false;
        }

        // Looked up by the span: a SKU's string is made once per report, when it is first seen.
        ref Totals totals = ref CollectionsMarshal.GetValueRefOrAddDefault(_totals.GetAlternateLookup<ReadOnlySpan<char>>(), sku, out _);
        totals = new Totals(totals.Quantity + quantity, totals.Amount + (quantity * price));
        return true;
    }

    /// <summary>One SKU's sums.</summary>
    private readonly record struct Totals(long Quantity, decimal Amount);
}
