#!/usr/bin/env bash
# Sets up, builds, and runs the compaction demo on the bundled Rome road network: which road
# segments are longer than a kilometre, in file order. Runs on the GPU when present, else the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build/examples/bkt-compact-demo data/graphs/rome99.gr --lines a --column 4 --above 1000
