namespace NativePool.Benchmarks.Reporting;

/// <summary>A benchmark class's place in the results document.</summary>
/// <param name="Key">The table key (<see cref="ResultTable.Key"/>).</param>
/// <param name="Section">The section heading it belongs under.</param>
/// <param name="Title">Its short title, also used to name cells in the goals table.</param>
/// <param name="Description">What one operation is.</param>
public sealed record SuiteInfo(string Key, string Section, string Title, string Description);
