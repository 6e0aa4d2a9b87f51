#!/usr/bin/env pwsh
# NativePool build entry point. Verbs: test (default), stress, huge, repeat, bench, plots, pack. build.sh is its line-for-line twin.
$ErrorActionPreference = 'Stop'
Set-Location $PSScriptRoot
$verb = if ($args.Count -gt 0) { $args[0] } else { 'test' }
$rest = if ($args.Count -gt 1) { $args[1..($args.Count - 1)] } else { @() }
$env:DOTNET_CLI_TELEMETRY_OPTOUT = '1'; $env:DOTNET_NOLOGO = '1'; $env:DOTNET_SKIP_FIRST_TIME_EXPERIENCE = '1'
$results = 'artifacts/test-results'

# Prints "N passed, N failed, N skipped" from the TRX files of the last run; fails when anything failed or nothing ran.
function Summarize {
    $passed = 0; $failed = 0; $skipped = 0; $files = 0
    foreach ($trx in Get-ChildItem -Path $results -Filter '*.trx' -Recurse -ErrorAction SilentlyContinue) {
        $files++
        $counters = ([xml](Get-Content $trx.FullName)).TestRun.ResultSummary.Counters
        foreach ($key in 'passed', 'failed', 'error', 'timeout', 'aborted', 'total', 'executed') {
            $value = [int]$counters.$key
            switch ($key) {
                'passed' { $passed += $value }
                'total' { $skipped += $value }
                'executed' { $skipped -= $value }
                default { $failed += $value }
            }
        }
    }
    if ($files -eq 0) { $failed++ }
    Write-Output "$passed passed, $failed failed, $skipped skipped"
    return ($failed -eq 0 -and $passed -gt 0)
}

function Invoke-Tests([string]$filter) {
    Remove-Item -Recurse -Force $results -ErrorAction SilentlyContinue
    # Built as `pack` builds (ContinuousIntegrationBuild): the integration tests pack the libraries and publish the trimmed
    # app with that setting, so they find the assemblies compiled here up to date instead of compiling them again.
    # One compiler server for the build and for every build the integration tests start (half the build's time, and a
    # third of each small consumer build, where the environment turns it off); it is shut down once the tests end.
    $env:UseSharedCompilation = 'true'
    dotnet restore NativePool.sln; $ok = $LASTEXITCODE -eq 0
    if ($ok) { dotnet build NativePool.sln -c Release --no-restore -p:ContinuousIntegrationBuild=true; $ok = $LASTEXITCODE -eq 0 }
    if (-not $ok) {
        dotnet build-server shutdown --vbcscompiler | Out-Null
        Write-Output "0 passed, 1 failed, 0 skipped"
        $script:testStatus = 1; return
    }
    $script:testStatus = 0
    # The three test projects run at once, each into its own TRX file: the integration tests mostly wait on the dotnet
    # builds they start, and the unit tests' stress cases run for a set time, so together they take about as long as the longest.
    $exitCodes = [System.Collections.Concurrent.ConcurrentQueue[int]]::new()
    'tests/NativePool.Tests/NativePool.Tests.csproj', 'tests/NativePool.Analyzers.Tests/NativePool.Analyzers.Tests.csproj', 'tests/NativePool.IntegrationTests/NativePool.IntegrationTests.csproj' | ForEach-Object -ThrottleLimit 3 -Parallel {
        $project = $_; $filter = $using:filter; $results = $using:results
        dotnet test "$project" -c Release --no-build --filter "$filter" `
            --logger "trx;LogFileName=$([System.IO.Path]::GetFileNameWithoutExtension($project)).trx" --logger "console;verbosity=minimal" --results-directory $results; ($using:exitCodes).Enqueue($LASTEXITCODE)
    }
    if ($exitCodes | Where-Object { $_ -ne 0 }) { $script:testStatus = 1 }
    dotnet build-server shutdown --vbcscompiler | Out-Null
    if (-not (Summarize)) { $script:testStatus = 1 }
}

function Run-Tests([string]$filter) {
    Invoke-Tests $filter
    exit $script:testStatus
}

switch ($verb) {
    'test' {
        Run-Tests "FullyQualifiedName!=None"
    }
    'stress' {
        if (-not $env:NATIVEPOOL_STRESS_SECONDS) { $env:NATIVEPOOL_STRESS_SECONDS = '120' }; Run-Tests "Category=Stress"
    }
    'huge' {
        # The tests that allocate about a gibibyte each (skipped by test), alone.
        $env:NATIVEPOOL_HUGE_TESTS = '1'; Run-Tests "Category=Huge"
    }
    'repeat' {
        # The whole suite N times (default 10) while busy loops keep every core loaded (--no-load: without them).
        $runs = if ($rest.Count -gt 0) { [int]$rest[0] } else { 10 }
        $load = @()
        if (-not ($rest.Count -gt 1 -and $rest[1] -eq '--no-load')) {
            $load = @(1..[Environment]::ProcessorCount | ForEach-Object { Start-Job { while ($true) { } } })
        }
        New-Item -ItemType Directory -Force artifacts | Out-Null
        $failedRuns = 0
        try {
            foreach ($run in 1..$runs) {
                # Each run's full output goes to artifacts/repeat-N.log; its summary line is printed here.
                Invoke-Tests "FullyQualifiedName!=None" *> "artifacts/repeat-$run.log"; if ($script:testStatus -ne 0) { $failedRuns++ }
                Write-Output "run $run of $runs ($([Environment]::ProcessorCount) cores, load $($load.Count)): $(Get-Content "artifacts/repeat-$run.log" -Tail 1)"
            }
        }
        finally {
            $load | Stop-Job -PassThru | Remove-Job
        }
        Write-Output "$($runs - $failedRuns) passed, $failedRuns failed"
        exit ([int]($failedRuns -ne 0))
    }
    'bench' {
        # Short job of everything (or --filter PATTERN, --full for the default job), then docs/benchmarks.md from the CSV export.
        # --ab [--rounds N] [--procs N] [--filter SUBSTRING] [--quick|--dry]: the interleaved A/B goal measurement instead (docs/benchmarking.md).
        # --churn [--gets N] [--repeats N]: how often each object pool builds objects (docs/benchmarks-churn.md).
        # --retention [--threads N]: how much each shared array pool keeps once its threads idle (docs/benchmarks-retention.md).
        # --apps [SECONDS CONNECTIONS BYTES]: the application suite, interleaved rows of real libraries and call patterns plus the Kestrel echo (docs/application-benchmarks.md).
        if ($rest.Count -gt 0 -and $rest[0] -eq '--apps') { bash bench/app.sh @($rest | Select-Object -Skip 1); exit $LASTEXITCODE }
        dotnet run -c Release --project bench/NativePool.Benchmarks -- --report docs/benchmarks.md @rest; exit $LASTEXITCODE
    }
    'plots' {
        # PNGs in docs/plots from the CSV export; needs Debian's python3-matplotlib (plots.py says how to install it).
        python3 bench/plots.py @rest; exit $LASTEXITCODE
    }
    'pack' {
        # Four packages: NativePool (the drop-ins with the engine and the analyzers inside), NativePool.Extensions.DependencyInjection
        # (container registration, depending on NativePool) and NativePool.AspNetCore (Kestrel's memory pool factory, depending
        # on NativePool), each with its .snupkg, and NativePool.Analyzers (the analyzers alone, for code that uses only
        # ArrayPool<T>). The version comes from git tags (docs/releasing.md); --version X.Y.Z overrides it for all four.
        if ($rest.Count -gt 0 -and $rest[0] -in '--version', '-Version') { if ($rest.Count -lt 2) { Write-Error '--version needs a value'; exit 2 }; $rest = @("-p:MinVerVersionOverride=$($rest[1])") + @($rest | Select-Object -Skip 2) }
        dotnet pack src/ManagedFacade/ManagedFacade.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true @rest; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
        dotnet pack src/NativePool.Extensions.DependencyInjection/NativePool.Extensions.DependencyInjection.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true @rest; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
        dotnet pack src/NativePool.AspNetCore/NativePool.AspNetCore.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true @rest; if ($LASTEXITCODE -ne 0) { exit $LASTEXITCODE }
        dotnet pack src/NativePool.Analyzers/NativePool.Analyzers.csproj -c Release -o artifacts/packages -p:ContinuousIntegrationBuild=true @rest; exit $LASTEXITCODE
    }
    default {
        Write-Error "usage: ./build.ps1 [test|stress|huge|repeat [N] [--no-load]|bench [--full] [--filter PATTERN] [--report-only] [--ab [--rounds N] [--quick]] [--churn] [--retention] [--apps]|plots|pack [--version X.Y.Z]]"
        exit 2
    }
}
