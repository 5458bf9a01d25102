#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite (GPU tests skip when no GPU is present).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure
