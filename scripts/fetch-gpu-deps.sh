#!/usr/bin/env bash
# Downloads the Debian packages that the GPU host (no package registry) needs, those that
# scripts/packages.txt marks for all machines or for gpu-host, into .deps/ (git-ignored), where
# scripts/gpu-env.sh unpacks them. Run on a Debian 12 machine with apt after `apt-get update`.
# The old .deb files are replaced only once every download has succeeded; .deps/cccl-peer stays.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/package-list.sh
source scripts/package-list.sh
mkdir -p .deps
incoming=$(mktemp -d .deps/incoming.XXXXXX)
trap 'rm -rf "$incoming"' EXIT
mapfile -t packages < <(package_list gpu-host)
(cd "$incoming" && apt-get download "${packages[@]}")
rm -f .deps/*.deb
mv "$incoming"/*.deb .deps/
ls -1 .deps/*.deb | wc -l | xargs echo "packages in .deps:"
du -sh .deps --exclude=cccl-peer | cut -f1 | xargs echo "size:"
