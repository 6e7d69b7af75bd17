#!/usr/bin/env bash
# Clones the repository's HEAD into a new temporary folder, as a newcomer would (nothing beside it, CI unset),
# installs from the pnpm store, and runs the tests that depend on where the checkout sits: no file reads or cites
# anything outside the repository, the layers' imports resolve inside it, and the contract-vs-spec comparison
# skips with a printed reason when the spec is not beside the checkout. Writes a vitest JSON report to the path
# given. (CI itself runs the whole suite in a fresh clone; this adds the clone with nothing beside it.)
# Usage: bash scripts/fresh-clone-check.sh <report.json>
set -uo pipefail
report=$(realpath -m "${1:?usage: fresh-clone-check.sh <report.json>}")
source_repo=$(cd "$(dirname "$0")/.." && pwd)
fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT

git clone -q "$source_repo" "$fresh/palaver" || exit 1
cd "$fresh/palaver" || exit 1
echo "fresh clone in $fresh/palaver (HEAD $(git rev-parse --short HEAD))"
env -u CI pnpm install --frozen-lockfile --prefer-offline --reporter=silent || exit 1
env -u CI pnpm exec vitest run tests/architecture/self-contained.test.ts tests/architecture/dependency-direction.test.ts \
  packages/sdk-core/tests/contract/spec-routes.test.ts \
  --reporter=default --reporter=json --outputFile.json="$report"
