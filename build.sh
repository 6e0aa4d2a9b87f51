#!/usr/bin/env bash
# NativePool build entry point. Verbs: test (default), stress, huge, repeat, bench, plots, pack. build.ps1 is its line-for-line twin.
set -euo pipefail
cd "$(dirname "$0")"
verb="${1:-test}"
[ $# -gt 0 ] && shift
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1
results="artifacts/test-results"

# Prints "N passed, N failed, N skipped" from the TRX files of the last run; fails when anything failed or nothing ran.
summarize() {
    local passed=0 failed=0 skipped=0 files=0 counters value
    for trx in $(find "$results" -name '*.trx' 2>/dev/null); do
        files=$((files + 1))
        counters=$(grep -o '<Counters [^>]*>' "$trx")
        for key in passed failed error timeout aborted total executed; do
            value=$(echo "$counters" | grep -o " $key=\"[0-9]*\"" | grep -o '[0-9]*')
            case "$key" in
                passed) passed=$((passed + value)) ;;
                total) skipped=$((skipped + value)) ;;
                executed) skipped=$((skipped - value)) ;;
                *) failed=$((failed + value)) ;;
            esac
        done
    done
    [ "$files" -eq 0 ] && failed=$((failed + 1))
    echo "$passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

run_tests() {
    local filter="$1"
    rm -rf "$results"
    # Built as `pack` builds (ContinuousIntegrationBuild): the integration tests pack the libraries and publish the trimmed
    # app with that setting, so they find the assemblies compiled here up to date instead of compiling them again.
    # One compiler server for the build and for every build the integration tests start (half the build's time, and a
    # third of each small consumer build, where the environment turns it off); it is shut down once the tests end.
    export UseSharedCompilation=true
    local built=1
    dotnet restore NativePool.sln || built=0
    [ "$built" -eq 0 ] || dotnet build NativePool.sln -c Release --no-restore -p:ContinuousIntegrationBuild=true || built=0
    if [ "$built" -eq 0 ]; then
        dotnet build-server shutdown --vbcscompiler || true
        echo "0 passed, 1 failed, 0 skipped"
        return 1
    fi
    local status=0 project pids=()
    # The three test projects run at once, each into its own TRX file: the integration tests mostly wait on the dotnet
    # builds they start, and the unit tests' stress cases run for a set time, so together they take about as long as the longest.
    for project in tests/NativePool.Tests/NativePool.Tests.csproj tests/NativePool.Analyzers.Tests/NativePool.Analyzers.Tests.csproj tests/NativePool.IntegrationTests/NativePool.IntegrationTests.csproj; do
        dotnet test "$project" -c Release --no-build --filter "$filter" \
            --logger "trx;LogFileName=$(basename "$project" .csproj).trx" --logger "console;verbosity=minimal" --results-directory "$results" &
        pids+=("$!")
    done
    for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
    dotnet build-server shutdown --vbcscompiler || true
    summarize || status=$?
    return $status
}

case "$verb" in
    test)
        run_tests "FullyQualifiedName!=None"
        ;;
    stress)
        NATIVEPOOL_STRESS_SECONDS="${NATIVEPOOL_STRESS_SECONDS:-120}" run_tests "Category=Stress"
        ;;
    huge)
        # The tests that allocate about a gibibyte each (skipped by test), alone.
        NATIVEPOOL_HUGE_TESTS=1 run_tests "Category=Huge"
        ;;
    repeat)
        # The whole suite N times (default 10) while busy loops keep every core loaded (--no-load: without them).
        runs="${1:-10}"
        load=()
        if [ "${2:-}" != "--no-load" ]; then
            for _ in $(seq "$(nproc)"); do (while :; do :; done) & load+=("$!"); done
        fi
        trap '[ ${#load[@]} -eq 0 ] || kill "${load[@]}" 2>/dev/null' EXIT
        mkdir -p artifacts
        failed_runs=0
        for run in $(seq "$runs"); do
            # Each run's full output goes to artifacts/repeat-N.log; its summary line is printed here.
            run_tests "FullyQualifiedName!=None" > "artifacts/repeat-$run.log" 2>&1 || failed_runs=$((failed_runs + 1))
            echo "run $run of $runs ($(nproc) cores, load ${#load[@]}): $(tail -n 1 "artifacts/repeat-$run.log")"
        done
        echo "$((runs - failed_runs)) passed, $failed_runs failed"
        [ "$failed_runs" -eq 0 ]
        ;;
    bench)
        # Short job of everything (or --filter PATTERN, --full for the default job), then docs/benchmarks.md from the CSV export.
        # --ab [--rounds N] [--procs N] [--filter SUBSTRING] [--quick|--dry]: the interleaved A/B goal measurement instead (docs/benchmarking.md).
        # --churn [--gets N] [--repeats N]: how often each object pool builds objects (docs/benchmarks-churn.md).
        # --retention [--threads N]: how much each shared array pool keeps once its threads idle (docs/benchmarks-retention.md).
        # --apps [SECONDS CONNECTIONS BYTES]: the application suite, interleaved rows of real libraries and call patterns plus the Kestrel echo (docs/application-benchmarks.md).
        if [ "${1:-}" = "--apps" ]; then shift; exec bash bench/app.sh "$@"; fi
        dotnet run -c Release --project bench/NativePool.Benchmarks -- --report docs/benchmarks.md "$@"
        ;;
    plots)
        # PNGs in docs/plots from the CSV export; needs Debian's python3-matplotlib (plots.py says how to install it).
        python3 bench/plots.py "$@"
        ;;
    pack)
        # Four packages: NativePool (the drop-ins with the engine and the analyzers inside), NativePool.Extensions.DependencyInjection
        # (container registration, depending on NativePool) and NativePool.AspNetCore (Kestrel's memory pool factory, depending
        # on NativePool), each with its .snupkg, and NativePool.Analyzers (the analyzers alone, for code that uses only
        # ArrayPool<T>). The version comes from git tags (docs/releasing.md); --version X.Y.Z overrides it for all four.
        [ "${1:-}" = "--version" ] && set -- "-p:MinVerVersionOverride=${2:?--version needs a value}" "${@:3}"
        dotnet pack src/ManagedFacade/ManagedFacade.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true "$@"
        dotnet pack src/NativePool.Extensions.DependencyInjection/NativePool.Extensions.DependencyInjection.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true "$@"
        dotnet pack src/NativePool.AspNetCore/NativePool.AspNetCore.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true "$@"
        dotnet pack src/NativePool.Analyzers/NativePool.Analyzers.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true "$@"
        ;;
    *)
        echo "usage: ./build.sh [test|stress|huge|repeat [N] [--no-load]|bench [--full] [--filter PATTERN] [--report-only] [--ab [--rounds N] [--quick]] [--churn] [--retention] [--apps]|plots|pack [--version X.Y.Z]]" >&2
        exit 2
        ;;
esac
