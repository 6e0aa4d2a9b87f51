using System.Globalization;
using System.IO;

namespace NativePool.Benchmarks.Churn;

/// <summary>The command line of the counting tools (<c>--churn</c>, <c>--retention</c>): their switch, positive whole-number options, and <c>--report PATH</c>.</summary>
public static class ToolOptions
{
    /// <summary>
    /// Reads <paramref name="args"/>: each name in <paramref name="numbers"/> followed by a positive whole number replaces
    /// that entry's default, and <c>--report PATH</c> sets <paramref name="report"/>.
    /// </summary>
    /// <returns>False, after writing the usage to the error stream, on an unknown or incomplete option.</returns>
    public static bool TryParse(IReadOnlyList<string> args, string toolSwitch, Dictionary<string, long> numbers, out string? report)
    {
        report = null;
        for (int i = 0; i < args.Count; i++)
        {
            string name = args[i];
            if (name == toolSwitch)
            {
                continue;
            }

            if (numbers.ContainsKey(name) && i + 1 < args.Count &&
                long.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out long value) && value > 0)
            {
                numbers[name] = value;
                i++;
            }
            else if (name == "--report" && i + 1 < args.Count)
            {
                report = Path.GetFullPath(args[++i]);
            }
            else
            {
                string usage = string.Join(' ', numbers.Keys.Select(static key => $"[{key} N]"));
                Console.Error.WriteLine($"Unknown or incomplete option '{name}'. Usage: {toolSwitch} {usage} [--report PATH]");
                return false;
            }
        }

        return true;
    }
}
