# shellcheck shell=bash
# Sourced by the scripts that build or run on the GPU host (gpu-check.sh, demo.sh, the tuning
# scripts): unpacks the carried Debian packages (.deps/*.deb, scripts/fetch-gpu-deps.sh) under
# BKT_DEPS (default /opt/bkt-deps) with dpkg -x, sets bkt_deps to that folder, and points
# fontconfig at a configuration of its own (FONTCONFIG_FILE) that finds the carried fonts: the
# host may have neither /etc/fonts nor a font, and the tools' --plot text needs both. The tools
# find the carried libraries through their RPATH (CMAKE_BUILD_RPATH, apps/common/CMakeLists.txt).
# Run from the repository root.
bkt_deps=${BKT_DEPS:-/opt/bkt-deps}
mkdir -p "$bkt_deps"
for bkt_deb in .deps/*.deb; do
  if [ -f "$bkt_deb" ]; then dpkg -x "$bkt_deb" "$bkt_deps"; fi
done
unset bkt_deb
mkdir -p "$bkt_deps/etc/fonts" "$bkt_deps/var/cache/fontconfig"
cat >"$bkt_deps/etc/fonts/bkt-fonts.conf" <<FONTS
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <dir>$bkt_deps/usr/share/fonts</dir>
  <dir>/usr/share/fonts</dir>
  <cachedir>$bkt_deps/var/cache/fontconfig</cachedir>
  <alias>
    <family>sans-serif</family>
    <prefer><family>DejaVu Sans</family></prefer>
  </alias>
</fontconfig>
FONTS
export FONTCONFIG_FILE="$bkt_deps/etc/fonts/bkt-fonts.conf"
