#!/usr/bin/env python3
"""Draws the NativePool benchmark plots from BenchmarkDotNet's CSV export (./build.sh plots).

Reads BenchmarkDotNet.Artifacts/results/NativePool.Benchmarks.*-report.csv (written by ./build.sh bench with the
invariant-culture, nanosecond CSV style of bench/NativePool.Benchmarks/BenchConfig.cs) and writes PNGs to docs/plots/:

  buffers.png       ns per Rent+Return by length, one panel per element type, one line per pool (log-log)
  contention.png    time per Parallel.For vs thread count, one panel per items held, one line per pool
  <Suite>.png       one per benchmark class: lines vs the thread or size parameter, or bars when it has none

Needs matplotlib (Debian: apt-get install -y python3-matplotlib); standard library otherwise.
"""

import argparse
import csv
import math
import os
import sys
from collections import OrderedDict

PREFIX = "NativePool.Benchmarks."
SUFFIX = "-report.csv"
THREAD_PARAMS = ("ThreadCount", "Threads")
MARKERS = "osD^v<>ph*"


def fail(message, code=1):
    print(message, file=sys.stderr)
    sys.exit(code)


DEBIAN_PYTHON = "/usr/bin/python3"

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    # python3 on PATH may be another interpreter (pyenv, a venv) that cannot see Debian's python3-matplotlib: retry once
    # with Debian's own interpreter before giving up.
    if os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON) and os.access(DEBIAN_PYTHON, os.X_OK) \
            and not os.environ.get("NATIVEPOOL_PLOTS_REEXEC"):
        os.environ["NATIVEPOOL_PLOTS_REEXEC"] = "1"
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)
    fail(
        "matplotlib is not installed for " + sys.executable + ".\n"
        "Install Debian's package:  apt-get install -y python3-matplotlib\n"
        "(plots.py also tries " + DEBIAN_PYTHON + ", where Debian's package lives.)"
    )


def number(text):
    text = (text or "").replace(",", "").strip()
    try:
        return float(text)
    except ValueError:
        return None


def read_table(path):
    """Returns (parameter names, rows); each row has method, params (OrderedDict of str), mean_ns, stddev_ns."""
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if not header or "Method" not in header or "Mean [ns]" not in header:
            return [], []
        mean = header.index("Mean [ns]")
        first = header.index("Categories") + 1 if "Categories" in header else mean
        names = header[first:mean]
        stddev = header.index("StdDev [ns]") if "StdDev [ns]" in header else None
        rows = []
        for cells in reader:
            if len(cells) < len(header):
                continue
            method = cells[header.index("Method")]
            if len(method) >= 2 and method[0] == "'" and method[-1] == "'":
                method = method[1:-1]
            rows.append(
                {
                    "method": method,
                    "params": OrderedDict((n, cells[first + i]) for i, n in enumerate(names)),
                    "mean": number(cells[mean]),
                    "stddev": number(cells[stddev]) if stddev is not None else None,
                }
            )
        return names, rows


def read_all(results):
    tables = OrderedDict()
    if not os.path.isdir(results):
        return tables
    for name in sorted(os.listdir(results)):
        if name.startswith(PREFIX) and name.endswith(SUFFIX):
            names, rows = read_table(os.path.join(results, name))
            if rows:
                tables[name[len(PREFIX) : -len(SUFFIX)]] = (names, rows)
    return tables


def methods_of(rows):
    return list(OrderedDict((r["method"], None) for r in rows))


def is_numeric(values):
    return all(number(v) is not None for v in values)


def spans_decades(values):
    positive = [v for v in values if v and v > 0]
    return len(positive) >= 2 and max(positive) / min(positive) >= 20


def unit_for(values):
    """A time unit that keeps the plotted numbers readable."""
    top = max([v for v in values if v] or [1])
    for divisor, unit in ((1e6, "ms"), (1e3, "µs")):
        if top >= divisor * 10:
            return divisor, unit
    return 1.0, "ns"


def line_panel(axis, rows, x_name, title):
    """One line per method: mean time vs parameter x_name (categorical positions when a zero prevents a log axis)."""
    xs = sorted({number(r["params"][x_name]) for r in rows})
    categorical = 0 in xs and spans_decades(xs)
    means = [r["mean"] for r in rows if r["mean"]]
    divisor, unit = unit_for(means)
    for index, method in enumerate(methods_of(rows)):
        points = sorted(
            (number(r["params"][x_name]), r["mean"] / divisor)
            for r in rows
            if r["method"] == method and r["mean"] is not None
        )
        if not points:
            continue
        px = [xs.index(p[0]) if categorical else p[0] for p in points]
        axis.plot(px, [p[1] for p in points], marker=MARKERS[index % len(MARKERS)], label=method)
    if categorical:
        axis.set_xticks(range(len(xs)))
        axis.set_xticklabels([format_param(x) for x in xs])
    elif spans_decades(xs):
        axis.set_xscale("log", base=2 if x_name in THREAD_PARAMS else 10)
        axis.set_xticks(xs)
        axis.set_xticklabels([format_param(x) for x in xs])
    else:
        axis.set_xticks(xs)
        axis.set_xticklabels([format_param(x) for x in xs])
    if spans_decades(means):
        axis.set_yscale("log")
    axis.set_xlabel(x_name + (" (log scale)" if spans_decades(xs) and not categorical else ""))
    axis.set_ylabel(unit + " per operation" + (" (log scale)" if spans_decades(means) else ""))
    axis.set_title(title, fontsize=10)
    axis.grid(True, which="both", alpha=0.3)


def format_param(value):
    if value is None:
        return "?"
    value = int(value) if float(value).is_integer() else value
    if isinstance(value, int) and value >= 10000 and str(value).rstrip("0") == "1":
        return "10^%d" % round(math.log10(value))
    return str(value)


def bar_panel(axis, rows, title):
    divisor, unit = unit_for([r["mean"] for r in rows if r["mean"]])
    labels = [r["method"] for r in rows if r["mean"] is not None]
    values = [r["mean"] / divisor for r in rows if r["mean"] is not None]
    axis.barh(range(len(values)), values, color=["C%d" % (i % 10) for i in range(len(values))])
    axis.set_yticks(range(len(values)))
    axis.set_yticklabels(labels)
    axis.invert_yaxis()
    axis.set_xlabel(unit + " per operation")
    axis.set_title(title, fontsize=10)
    axis.grid(True, axis="x", alpha=0.3)


def panels(names, rows, x_name):
    """Groups rows by the parameters other than x_name: one panel each."""
    others = [n for n in names if n != x_name]
    groups = OrderedDict()
    for row in rows:
        key = ", ".join("%s=%s" % (n, row["params"][n]) for n in others)
        groups.setdefault(key, []).append(row)
    return groups


def figure(count, width=6.0, height=4.2):
    columns = min(count, 3 if count > 4 else 2) if count > 1 else 1
    lines = math.ceil(count / columns)
    fig, axes = plt.subplots(lines, columns, figsize=(width * columns, height * lines), squeeze=False)
    flat = [a for line in axes for a in line]
    for extra in flat[count:]:
        extra.set_visible(False)
    return fig, flat


def save(fig, out, name, title, note):
    fig.suptitle(title, fontsize=12)
    if note:
        fig.text(0.5, 0.005, note, ha="center", fontsize=8, style="italic")
    handles, labels = [], []
    for axis in fig.axes:
        for handle, label in zip(*axis.get_legend_handles_labels()):
            if label not in labels:
                handles.append(handle)
                labels.append(label)
    if handles:
        fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=min(len(labels), 4), fontsize=8)
    fig.tight_layout(rect=(0, 0.03, 1, 0.88))
    path = os.path.join(out, name + ".png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print("wrote " + path)


def oversubscription_note(names, rows, cores):
    for name in THREAD_PARAMS:
        if name in names and any((number(r["params"][name]) or 0) > cores for r in rows):
            return "%d-core machine: points above %d threads measure oversubscription." % (cores, cores)
    return ""


def plot_suite(key, names, rows, out, cores):
    thread = next((n for n in THREAD_PARAMS if n in names), None)
    numeric = [n for n in names if is_numeric([r["params"][n] for r in rows])]
    x_name = thread or next((n for n in numeric if spans_decades([number(r["params"][n]) for r in rows])), None)
    x_name = x_name or (numeric[0] if numeric else None)
    title = key.split(".", 1)[-1]
    if x_name is None or len({r["params"][x_name] for r in rows}) < 2:
        groups = panels(names, rows, None)
        fig, axes = figure(len(groups))
        for axis, (label, group) in zip(axes, groups.items()):
            bar_panel(axis, group, label or title)
    else:
        groups = panels(names, rows, x_name)
        fig, axes = figure(len(groups))
        for axis, (label, group) in zip(axes, groups.items()):
            line_panel(axis, group, x_name, label or title)
    save(fig, out, title, title, oversubscription_note(names, rows, cores))


def plot_buffers(tables, out):
    keys = [k for k in tables if k.startswith("Buffers.BufferRentReturnBenchmarks")]
    if not keys:
        return
    order = {"Byte": 0, "Char": 1, "Int32": 2, "Object": 3}
    keys.sort(key=lambda k: order.get(k.rsplit("_", 2)[-2], 9))
    fig, axes = figure(len(keys))
    for axis, key in zip(axes, keys):
        names, rows = tables[key]
        element = key.rsplit("_", 2)[-2].lower().replace("int32", "int")
        line_panel(axis, rows, "Length", "element type " + element)
    save(fig, out, "buffers", "Buffers: Rent + Return by length", "")


def plot_contention(tables, out, cores):
    key = "Contention.ContentionBenchmarks"
    if key not in tables:
        return
    names, rows = tables[key]
    groups = panels(names, rows, "Threads")
    fig, axes = figure(len(groups))
    for axis, (label, group) in zip(axes, groups.items()):
        held = group[0]["params"].get("Held", "?")
        line_panel(axis, group, "Threads", "%s item%s held per thread" % (held, "" if held == "1" else "s"))
    save(fig, out, "contention", "Contention: one Parallel.For, 1 000 Get/Return per thread", oversubscription_note(names, rows, cores))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=os.path.join("BenchmarkDotNet.Artifacts", "results"))
    parser.add_argument("--out", default=os.path.join("docs", "plots"))
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()

    tables = read_all(args.results)
    if not tables:
        fail("No NativePool benchmark CSV results in %s: run ./build.sh bench first." % args.results)
    os.makedirs(args.out, exist_ok=True)
    plot_buffers(tables, args.out)
    plot_contention(tables, args.out, args.cores)
    for key, (names, rows) in tables.items():
        plot_suite(key, names, rows, args.out, args.cores)


if __name__ == "__main__":
    main()
