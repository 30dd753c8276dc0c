# The runtimes CI fetches with npx, at exact versions: a new release of Node 24, Bun or Deno must
# not change what a run tests (.ci/next-versions reports the newest of each beside these).
# Sourced by .ci/run, .ci/runtimes, .ci/package-checks and .ci/next-versions.
# shellcheck shell=bash disable=SC2034
NODE24_VERSION=24.21.0
BUN_VERSION=1.4.5
DENO_VERSION=2.9.6
