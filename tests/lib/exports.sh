#!/bin/sh
# libuscc as a driver links it: the shared library exports the uscc_* API
# and nothing else (no ir_*, cg_*, arena_*, glslyy* in the driver's
# process), names its SONAME libuscc.so.MAJOR, and needs libc and libm
# only (no libpng, no emulator).
#   exports.sh LIBUSCC.so [sanitized]
# (sanitized: a sanitizer build, whose library also needs the sanitizer
# runtimes)
set -eu
lib=$1
sanitized=${2:-}
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v nm >/dev/null || fail "nm not found"
command -v readelf >/dev/null || fail "readelf not found"

syms=$(nm -D --defined-only "$lib" | awk '{print $3}')
[ -n "$syms" ] || fail "no exported symbols in $lib"
others=$(echo "$syms" | grep -v '^uscc_' || true)
[ -z "$others" ] || fail "exports beyond the uscc_* API: $(echo $others | head -c 300)"
for s in uscc_compile uscc_run uscc_version uscc_container_open uscc_cache_key uscc_cache_compile; do
	echo "$syms" | grep -qx "$s" || fail "API function $s is not exported"
done

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
case "$soname" in
libuscc.so.[0-9]*) ;;
*) fail "SONAME is '$soname', not libuscc.so.MAJOR" ;;
esac

needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
for n in $needed; do
	case "$n" in
	libc.so.*|libm.so.*) ;;
	libasan.so.*|libubsan.so.*|libtsan.so.*|libstdc++.so.*|libgcc_s.so.*)
		[ -n "$sanitized" ] || fail "libuscc needs $n (only libc and libm are allowed)" ;;
	*) fail "libuscc needs $n (only libc and libm are allowed)" ;;
	esac
done
echo "ok: $(echo "$syms" | wc -l) uscc_* symbols, SONAME $soname, needs $needed"
