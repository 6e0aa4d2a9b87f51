#!/usr/bin/env bash
# Kestrel echo throughput, Kestrel's default memory pool vs AddStripedKestrelMemoryPool, measured with wrk on loopback.
# Usage: bench/kestrel.sh [seconds per run, default 10] [connections, default 64] [body bytes, default 4096]
# Installs wrk with apt-get if it is missing. Prints requests/s, bytes allocated per request and the p99 latency for each
# pool, and the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
connections="${2:-64}"
body="${3:-4096}"
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

# Runs one server with the given mode, warms it up, measures, stops it; writes "rps allocated-bytes requests" to a file.
measure() {
    local mode="$1" log="$work/server-$1.log"
    dotnet samples/KestrelEcho/bin/Release/net10.0/KestrelEcho.dll "$port" "$mode" >"$log" 2>&1 &
    local server=$!
    for _ in $(seq 1 100); do
        grep -q "Echo on" "$log" && break
        sleep 0.1
    done
    local warm out rps requests warm_requests p99
    warm="$(wrk -t 1 -c "$connections" -d 3s -s "$work/post.lua" "http://127.0.0.1:$port/echo")"
    warm_requests="$(echo "$warm" | awk '/requests in/ {print $1}')"
    out="$(wrk -t 1 -c "$connections" -d "${seconds}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/echo")"
    rps="$(echo "$out" | awk '/Requests\/sec/ {print $2}')"
    requests="$(echo "$out" | awk '/requests in/ {print $1}')"
    p99="$(echo "$out" | awk '$1 == "99%" {print $2}')"
    kill -TERM "$server"
    wait "$server" || true
    local allocated
    allocated="$(awk '/Allocated while serving/ {print $4}' "$log")"
    # Allocation is counted from server start, so it is divided by every request served, warm-up included.
    echo "$rps $allocated $((requests + warm_requests)) $p99" >"$work/result-$mode"
    grep "Pool:" "$log" || true
}

measure default
measure ours
read -r default_rps default_alloc default_requests default_p99 <"$work/result-default"
read -r ours_rps ours_alloc ours_requests ours_p99 <"$work/result-ours"
awk -v dp="$default_p99" -v op="$ours_p99" -v d="$default_rps" -v o="$ours_rps" -v da="$default_alloc" -v oa="$ours_alloc" -v dr="$default_requests" -v orq="$ours_requests" \
    -v s="$seconds" -v c="$connections" -v b="$body" 'BEGIN {
    printf "Kestrel echo, POST %d B, %d connections, %d s, wrk on loopback (%s)\n", b, c, s, "warm-up and measured runs include both wrk and the server on this machine"
    printf "%-32s %12s %16s %10s\n", "pool", "requests/s", "B alloc/request", "p99"
    printf "%-32s %12.0f %16.0f %10s\n", "Kestrel default (PinnedBlock)", d, da / (dr > 0 ? dr : 1), dp
    printf "%-32s %12.0f %16.0f %10s\n", "AddStripedKestrelMemoryPool", o, oa / (orq > 0 ? orq : 1), op
    printf "ratio ours/default: %.3f\n", o / d
}'
