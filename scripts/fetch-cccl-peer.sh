#!/usr/bin/env bash
# Fetches a CCCL newer than the toolkit's (which has no cub::DeviceTopK nor cub::DeviceBatchedTopK)
# into .deps/cccl-peer/include, for select_bench's top-k peers only: configure with
#   -DBKT_BENCH_CCCL_PEER_INCLUDE=$PWD/.deps/cccl-peer/include
# (scripts/gpu-check.sh does so when the folder exists). Core never sees these headers.
# Run on a machine that reaches PyPI; the folder is git-ignored and travels with .deps/.
# BKT_CCCL_PEER_VERSION picks another release of the nvidia-cuda-cccl wheel (CUDA 13 builds).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${BKT_CCCL_PEER_VERSION:-13.3.5.0.6}
dest=.deps/cccl-peer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A header-only wheel (py3-none-manylinux): the platform flags make pip fetch it from any host.
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_17_x86_64 \
  --dest "$work" "nvidia-cuda-cccl==$version"
wheel=$(ls "$work"/nvidia_cuda_cccl-*.whl)

# Only the include tree (cub/, cuda/, nv/, thrust/), written beside the old one and swapped in.
python3 - "$wheel" "$dest/include.new" <<'EOF'
import os, sys, zipfile
wheel, target = sys.argv[1], sys.argv[2]
prefix = "nvidia/cu13/include/cccl/"
count = 0
with zipfile.ZipFile(wheel) as archive:
    for member in archive.infolist():
        if member.is_dir() or not member.filename.startswith(prefix):
            continue
        path = os.path.join(target, member.filename[len(prefix):])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with archive.open(member) as source, open(path, "wb") as out:
            out.write(source.read())
        count += 1
if count == 0:
    sys.exit(f"{os.path.basename(wheel)}: no {prefix} in the wheel")
print(f"{count} headers")
EOF
if [ ! -f "$dest/include.new/cub/device/device_batched_topk.cuh" ]; then
  rm -rf "$dest/include.new"
  echo "fetch-cccl-peer: nvidia-cuda-cccl $version has no cub/device/device_batched_topk.cuh (CCCL >= 3.5 has it)" >&2
  exit 1
fi
rm -rf "$dest/include"
mv "$dest/include.new" "$dest/include"
cccl=$(sed -n 's/^#define CCCL_VERSION \([0-9]*\).*/\1/p' "$dest/include/cuda/std/__cccl/version.h")
echo "$(basename "$wheel") CCCL_VERSION $cccl" >"$dest/VERSION"
echo "cccl peer: $(cat "$dest/VERSION") in $dest/include"
echo "configure with -DBKT_BENCH_CCCL_PEER_INCLUDE=$PWD/$dest/include"
