#!/usr/bin/env bash
# Tuning run for the multisplit scatter pass on the GPU host: builds bench/tune_scatter.cu once per
# variant (threads per block : keys per thread : resident blocks per SM of the key-only tile, keys
# of up to 4 bytes [: OPTION ...]) as the CMake targets tune_scatter_THREADS_ITEMS_BLOCKS[_OPTION...]
# (BKT_TUNE_SCATTER_VARIANTS, bench/CMakeLists.txt) and prints each variant's table. An OPTION is
# a ranking of warp_rank.cuh other than the packed table for every 8-bit pass, "lanemask" (the
# lane-mask table) or "ballots" (eight ballots), or "match" (peers from __match_any_sync instead
# of ballots); or NAME=N, the items a thread of pairs of up to 8 bytes (pair=N), of 8-byte keys
# (widekey=N) or of wider pairs (wide=N), or the threads (threads=N) and resident blocks
# (blocks=N) of every tile but the key-only one.
# Usage: scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:OPTION...] ...
set -uo pipefail
# shellcheck source=scripts/tuning-build.sh
source "$(dirname "$0")/tuning-build.sh"
tuning_start "scripts/tune-scatter.sh OUTDIR THREADS:ITEMS:MIN_BLOCKS[:OPTION...] ..." 2 "$@"
shift
tuning_variants "$tuning_out" tune_scatter BKT_TUNE_SCATTER_VARIANTS "${BKT_BENCH_REPEATS:-20}" "$@"
