#!/usr/bin/env bash
# Test and bench binaries built here, carried to the GPU host instead of the carried packages and a
# build there (6 minutes of a 10-minute call on a 16-core host): for a device session that has
# little time or gets machines rarely.
#
#   scripts/prebuilt.sh pack BUILD ARCHIVE PATH...   strip BUILD/PATH..., add the carried packages
#                                                    whose libraries they load, xz into ARCHIVE
#   scripts/prebuilt.sh unpack ARCHIVE               on the host: into this script's checkout
#
# BUILD must be a gpu-check.sh build (scripts/gpu-check.sh OUT build here: sm_90, RPATH into
# /opt/bkt-deps). The binaries keep the absolute paths they were built with (the tools' tests run
# BUILD/apps/*/bkt-*, data comes from SOURCE/data), so unpack puts them under the same build folder
# name and links the build machine's source root to the checkout when that path is free there.
# Then: BKT_PREBUILT=<build folder name> scripts/gpu-check.sh OUT tests|sanitize|bench.
# The carry limit (64 MiB) counts the archive with the tracked tree; pack prints both.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() {
  echo "usage: scripts/prebuilt.sh pack BUILD ARCHIVE PATH... | unpack ARCHIVE" >&2
  exit 2
}
[ $# -ge 2 ] || usage

# debs_for BINARY...: the carried .deb files that hold the libraries the binaries load from the
# folder scripts/gpu-env.sh unpacks them into.
debs_for() {
  local lib deb deps=${BKT_DEPS:-/opt/bkt-deps}/
  ldd "$@" 2>/dev/null | awk -v deps="$deps" 'index($3, deps) == 1 {print $1}' | sort -u |
    while read -r lib; do
      for deb in .deps/*.deb; do
        if dpkg-deb -c "$deb" | grep "/$lib" >/dev/null; then echo "$deb"; break; fi
      done
    done | sort -u
}

pack() {
  local build=${1%/} archive=$2
  shift 2
  [ $# -gt 0 ] || usage
  stage=$(mktemp -d)
  trap 'rm -rf "$stage"' EXIT
  local name path binaries=()
  name=$(basename "$build")
  for path in "$@"; do
    [ -x "$build/$path" ] || { echo "prebuilt.sh: $build/$path: no such executable" >&2; exit 1; }
    mkdir -p "$stage/$name/$(dirname "$path")"
    strip -o "$stage/$name/$path" "$build/$path"
    binaries+=("$build/$path")
  done
  mkdir -p "$stage/.deps"
  local deb
  debs_for "${binaries[@]}" | while read -r deb; do
    cp "$deb" "$stage/.deps/"
    echo "  package: $(basename "$deb")"
  done
  sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" >"$stage/$name/SOURCE_ROOT"
  mkdir -p "$(dirname "$archive")"
  tar -C "$stage" -cf - . | xz -T0 -9e >"$archive.tmp"
  mv "$archive.tmp" "$archive"
  local tree
  tree=$(git ls-files -z | xargs -0 stat -c %s | awk '{s += $1} END {print s}')
  echo "$archive: $(stat -c %s "$archive") bytes; tracked tree $tree; limit $((64 << 20))"
}

unpack() {
  local archive=$1 root name
  tar -xJf "$archive"
  for root in */SOURCE_ROOT; do
    name=$(cat "$root")
    [ "$name" = "$PWD" ] && continue
    if [ -e "$name" ]; then
      echo "prebuilt.sh: $name exists here; binaries that name it may not find their data" >&2
    else
      mkdir -p "$(dirname "$name")" && ln -s "$PWD" "$name"
    fi
  done
}

case $1 in
  pack) shift; pack "$@" ;;
  unpack) [ $# -eq 2 ] || usage; unpack "$2" ;;
  *) usage ;;
esac
