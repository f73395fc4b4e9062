#!/bin/bash
# Builds Mesa 22.3.6's r300 driver with r300-uscc.patch (R500 fragment
# shaders compiled by libuscc when RADEON_USCC=1) and the radeon no-op
# drm-shim that runs it without a Radeon, from Debian bookworm's source.
#
#   integrations/mesa-r300/build.sh [CACHE_DIR]
#
# libuscc is found through `pkg-config uscc` (install uscc, then set
# PKG_CONFIG_PATH=PREFIX/lib/pkgconfig).  CACHE_DIR (default
# ${XDG_CACHE_HOME:-~/.cache}/uscc-mesa-r300) keeps the source, the build
# folder and one folder per build key: the hash of the patch, of this
# script and the shim diffs, and of the installed uscc.h and libuscc's
# path (the driver links libuscc.so dynamically, with an rpath, so a
# rebuilt library of the same interface needs no new driver).  A second
# run with the same key is instant; a changed patch rebuilds only what it
# touches.  The last line printed is the folder holding r300_dri.so and
# libradeon_noop_drm_shim.so (for LIBGL_DRIVERS_PATH and LD_PRELOAD).
#
# Exit status: 0 built (or cached); 1 a failed step (its log named);
# 2 Debian's Mesa source cannot be fetched (no deb-src, no network):
# said loudly, nothing built.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/uscc-mesa-r300}
version=22.3.6
jobs=${USCC_MESA_JOBS:-2}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
export PATH=/usr/bin:$PATH   # Debian's python3 with mako, before any other

fail() { echo "build.sh: $*" >&2; exit 1; }

pkg-config --exists uscc ||
	fail "pkg-config finds no uscc: install it (cmake --install build --prefix P) and set PKG_CONFIG_PATH=P/lib/pkgconfig"
uscc_inc=$(pkg-config --variable=includedir uscc)
uscc_lib=$(pkg-config --variable=libdir uscc)
[ -f "$uscc_inc/uscc.h" ] || fail "no uscc.h in $uscc_inc"

key=$( (cat "$here/r300-uscc.patch" "$here/build.sh" "$here/drm_shim.diff" \
	"$here/radeon_noop_drm_shim.diff" "$uscc_inc/uscc.h"; echo "$uscc_lib") |
	sha256sum | cut -c1-16)
out=$cache/r300-$key
if [ -f "$out/r300_dri.so" ] && [ -f "$out/libradeon_noop_drm_shim.so" ]; then
	echo "$out"
	exit 0
fi

# ---- Debian's source, once
src=$cache/src/mesa-$version
if [ ! -f "$cache/src/mesa_$version.orig.tar.gz" ]; then
	mkdir -p "$cache/src"
	if ! grep -q "deb-src" /etc/apt/sources.list.d/debian.sources 2>/dev/null; then
		sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true
	fi
	apt-get update -qq >/dev/null 2>&1 || true
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq meson ninja-build python3-mako \
		libdrm-dev libexpat1-dev zlib1g-dev libelf-dev bison flex pkg-config >/dev/null 2>&1 ||
		echo "build.sh: warning: apt-get could not install Mesa's build dependencies" >&2
	if ! (cd "$cache/src" && apt-get source --download-only mesa >"$cache/fetch.log" 2>&1) ||
	   [ ! -f "$cache/src/mesa_$version.orig.tar.gz" ]; then
		echo "########################################################################" >&2
		echo "build.sh: CANNOT FETCH Debian's mesa $version source (apt-get source)." >&2
		echo "build.sh: nothing was built; see $cache/fetch.log" >&2
		echo "########################################################################" >&2
		exit 2
	fi
fi
for tool in meson ninja patch cc; do
	command -v $tool >/dev/null || fail "$tool is missing (apt-get install meson ninja-build patch gcc)"
done

# ---- the patched tree: a new patch replaces the one applied (patch -R),
# so that only the files the patches touch are rebuilt
unpack() {
	rm -rf "$src" "$cache/applied.patch"
	tar xzf "$cache/src/mesa_$version.orig.tar.gz" -C "$cache/src"
}
[ -d "$src" ] || unpack
if ! cmp -s "$here/r300-uscc.patch" "$cache/applied.patch" 2>/dev/null; then
	if [ -f "$cache/applied.patch" ] &&
	   ! patch -s -R -p1 -d "$src" <"$cache/applied.patch" >"$cache/patch.log" 2>&1; then
		unpack # the tree was changed by hand: start again from the source
	fi
	rm -f "$cache/applied.patch"
	patch -s -p1 -d "$src" <"$here/r300-uscc.patch" >"$cache/patch.log" 2>&1 ||
		fail "the patch does not apply to Mesa $version: $cache/patch.log"
	cp "$here/r300-uscc.patch" "$cache/applied.patch"
	touch "$cache/src/reconfigure"
fi

# ---- configure r300 alone (the drm-shim's line), libuscc with an rpath
b=$cache/build
setup_args=(-Dgallium-drivers=r300 -Dvulkan-drivers= -Dplatforms= -Dglx=disabled -Degl=enabled
	-Dgbm=disabled -Dllvm=disabled -Dshared-glapi=enabled -Dgles1=disabled -Dtools=drm-shim
	-Dbuild-tests=false -Dvalgrind=disabled -Dlibunwind=disabled -Dzstd=disabled
	-Dbuildtype=release -Dgallium-va=disabled -Dgallium-vdpau=disabled -Dgallium-xa=disabled
	-Dgallium-nine=false -Dgallium-opencl=disabled "-Dc_link_args=-Wl,-rpath,$uscc_lib"
	"-Dcpp_link_args=-Wl,-rpath,$uscc_lib")
if [ ! -f "$b/build.ninja" ]; then
	(cd "$src" && meson setup "$b" "${setup_args[@]}") >"$cache/meson.log" 2>&1 ||
		fail "meson setup failed: $cache/meson.log"
	rm -f "$cache/src/reconfigure"
elif [ -f "$cache/src/reconfigure" ] || ! cmp -s "$uscc_inc/uscc.h" "$cache/uscc.h" 2>/dev/null; then
	# a new tree or a new uscc.h: meson's checks of libuscc run again
	(cd "$src" && meson setup --reconfigure "$b" "${setup_args[@]}") >"$cache/meson.log" 2>&1 ||
		fail "meson setup --reconfigure failed: $cache/meson.log"
	rm -f "$cache/src/reconfigure"
fi
cp "$uscc_inc/uscc.h" "$cache/uscc.h"
grep -qi "dependency uscc found: YES" "$b/meson-logs/meson-log.txt" ||
	fail "meson did not find uscc: $b/meson-logs/meson-log.txt"

# ---- the driver and the drm-shim's pieces
ninja -C "$b" -j"$jobs" src/gallium/targets/dri/libgallium_dri.so src/drm-shim/libdrm_shim.a \
	src/util/libmesa_util.a src/util/libmesa_util_sse41.a >"$cache/ninja.log" 2>&1 ||
	fail "ninja failed: $cache/ninja.log"

# ---- the radeon no-op drm-shim with what Debian's libdrm and r300 need
shim=$cache/shim
mkdir -p "$shim"
cp "$src/src/drm-shim/drm_shim.c" "$shim/drm_shim.c"
cp "$src/src/amd/drm-shim/radeon_noop_drm_shim.c" "$shim/radeon_noop.c"
patch -s "$shim/drm_shim.c" "$here/drm_shim.diff"
patch -s "$shim/radeon_noop.c" "$here/radeon_noop_drm_shim.diff"
flags=$(python3 -c "
import json, sys
for c in json.load(open(sys.argv[1])):
    if c['file'].endswith('drm-shim/drm_shim.c'):
        print(' '.join(x for x in c['command'].split() if x.startswith(('-D', '-I', '-std')))); break
" "$b/compile_commands.json")
mkdir -p "$out.tmp"
(cd "$b" && cc -shared -fPIC -O2 $flags -I"$src/src/drm-shim" -I"$src/src/amd" \
	-o "$out.tmp/libradeon_noop_drm_shim.so" "$shim/drm_shim.c" "$src/src/drm-shim/device.c" \
	"$shim/radeon_noop.c" src/util/libmesa_util.a src/util/libmesa_util_sse41.a \
	-ldrm -lz -lm -lpthread -ldl) >"$cache/shim.log" 2>&1 || fail "the drm-shim did not link: $cache/shim.log"
cp "$b/src/gallium/targets/dri/libgallium_dri.so" "$out.tmp/r300_dri.so"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$out"
