#!/usr/bin/env bash
# Rewrites every shipping library's PublicAPI.Unshipped.txt from its public surface, with PublicApiAnalyzers' own code
# fix: the file is emptied, then the fix for RS0016 adds every public symbol that PublicAPI.Shipped.txt does not list.
# So new members appear and members removed before release disappear (RS0017 has no code fix). Removing a member that
# PublicAPI.Shipped.txt lists still fails the build: that is a breaking change, marked by hand with *REMOVED*.
# One project at a time: a single run over the solution can leave a project out. Review the diff afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
for project in src/*/*.csproj; do
    printf '#nullable enable\n' > "$(dirname "$project")/PublicAPI.Unshipped.txt"
    dotnet format analyzers "$project" --diagnostics RS0016 --severity info
done
git --no-pager diff --stat -- 'src/*/PublicAPI.*.txt' || true
