#!/usr/bin/env bash
# Downloads the Debian packages that scripts/gpu-check.sh unpacks on the GPU host (which reaches no
# package registry) into .deps/. Run on a Debian 12 machine with apt; the folder is git-ignored.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps
cd .deps
apt-get download $(grep -v '^#' ../scripts/gpu-host-packages.txt)
ls -1 *.deb | wc -l | xargs echo "packages in .deps:"
