#!/usr/bin/env bash
# Kestrel echo throughput, Kestrel's default memory pool vs AddStripedKestrelMemoryPool, measured with wrk on loopback.
# Usage: bench/kestrel.sh [seconds per run, default 10] [connections, default 64] [body bytes, default 4096] [rounds, default 3]
# Installs wrk with apt-get if it is missing. The two servers alternate for the given rounds (default first in odd
# rounds, ours first in even ones); prints each run, then per pool the median requests/s, bytes allocated per request and
# p99 latency, and the median of the per-round ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
connections="${2:-64}"
body="${3:-4096}"
rounds="${4:-3}"
port=5089
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

if ! command -v wrk >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi

dotnet build samples/KestrelEcho/KestrelEcho.csproj -c Release -v quiet -nologo >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = string.rep("x", $body)
wrk.headers["Content-Type"] = "application/octet-stream"
LUA

# Runs one server with the given mode, warms it up, measures, stops it; appends "rps bytes-per-request p99-ms" to a file.
measure() {
    local mode="$1" log="$work/server-$1.log"
    dotnet samples/KestrelEcho/bin/Release/net10.0/KestrelEcho.dll "$port" "$mode" >"$log" 2>&1 &
    local server=$!
    for _ in $(seq 1 100); do
        grep -q "Echo on" "$log" && break
        sleep 0.1
    done
    local warm out rps requests warm_requests p99 allocated
    warm="$(wrk -t 1 -c "$connections" -d 3s -s "$work/post.lua" "http://127.0.0.1:$port/echo")"
    warm_requests="$(echo "$warm" | awk '/requests in/ {print $1}')"
    out="$(wrk -t 1 -c "$connections" -d "${seconds}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/echo")"
    rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
    requests="$(echo "$out" | awk '/requests in/ {print $1}')"
    # wrk prints the percentile with its unit (us, ms or s): normalized to milliseconds.
    p99="$(echo "$out" | awk '$1 == "99%" { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v);
        print (u == "us" ? v / 1000 : (u == "s" ? v * 1000 : v)) }')"
    kill -TERM "$server"
    wait "$server" || true
    # Allocation is counted from server start, so it is divided by every request served, warm-up included.
    allocated="$(awk '/Allocated while serving/ {print $4}' "$log")"
    echo "$rps $(awk -v a="$allocated" -v r="$((requests + warm_requests))" 'BEGIN { printf "%.0f", a / (r > 0 ? r : 1) }') $p99" >>"$work/result-$mode"
    echo "round $round, $mode: $(tail -n 1 "$work/result-$mode") (requests/s, B/request, p99 ms)"
}

for round in $(seq "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then measure default; measure ours; else measure ours; measure default; fi
done

# The median of one column of a result file (the middle value; the lower middle for an even count).
median() { sort -g <(awk -v c="$2" '{print $c}' "$1") | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
paste "$work/result-default" "$work/result-ours" | awk '{ print $4 / $1 }' >"$work/ratios"
awk -v s="$seconds" -v c="$connections" -v b="$body" -v n="$rounds" \
    -v dr="$(median "$work/result-default" 1)" -v da="$(median "$work/result-default" 2)" -v dp="$(median "$work/result-default" 3)" \
    -v orps="$(median "$work/result-ours" 1)" -v oa="$(median "$work/result-ours" 2)" -v op="$(median "$work/result-ours" 3)" \
    -v ratio="$(median "$work/ratios" 1)" 'BEGIN {
    printf "Kestrel echo, POST %d B, %d connections, %d s per run, %d alternating rounds, wrk and the server on this machine (loopback)\n", b, c, s, n
    printf "%-32s %12s %16s %10s\n", "pool (median of the rounds)", "requests/s", "B alloc/request", "p99 ms"
    printf "%-32s %12.0f %16.0f %10.2f\n", "Kestrel default (PinnedBlock)", dr, da, dp
    printf "%-32s %12.0f %16.0f %10.2f\n", "AddStripedKestrelMemoryPool", orps, oa, op
    printf "requests/s ratio ours/default, median of the rounds: %.3f\n", ratio
}'
