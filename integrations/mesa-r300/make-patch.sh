#!/bin/bash
# Writes r300-uscc.patch from two Mesa 22.3.6 trees, the pristine one and
# the changed one (only the files the patch touches need to be in them):
#   make-patch.sh PRISTINE_DIR CHANGED_DIR
# The paths read a/... and b/... (patch -p1), without timestamps, so the
# patch's bytes (build.sh's cache key) change only with its content.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
links=$(mktemp -d)
trap 'rm -rf "$links"' EXIT
ln -s "$(realpath "$1")" "$links/a"
ln -s "$(realpath "$2")" "$links/b"
(cd "$links" && diff -ruN a/ b/ || true) |
	sed -E 's/^(--- |\+\+\+ )([^\t]*)\t.*/\1\2/; s#^diff -ruN a//#diff -ruN a/#; s# b//# b/#' \
	>"$here/r300-uscc.patch.new"
[ -s "$here/r300-uscc.patch.new" ] || { rm -f "$here/r300-uscc.patch.new"; echo "no difference" >&2; exit 1; }
mv "$here/r300-uscc.patch.new" "$here/r300-uscc.patch"
