#!/usr/bin/env bash
# angle-from-npm.sh DIR: puts ANGLE's libEGL.so, libGLESv2.so and SwiftShader's Vulkan driver
# into DIR, from the npm registry's @sparticuz/chromium package (bin/swiftshader.tar.br, a
# brotli tar of a Chromium build's ANGLE and SwiftShader), and prints DIR/libEGL.so.
#
# Debian 12's chromium links ANGLE into its executable and ships an empty libEGL.so, so a
# machine with Debian's packages alone has no ANGLE library to open; CI uses this one
# (`--gl-library DIR/libEGL.so`, HALFCHECK_ANGLE_LIBRARY for the tests). That build has
# ANGLE's Vulkan back end (SwiftShader, or any Vulkan driver), not its OpenGL ES one.
# Needs npm and node (node's zlib unpacks brotli). Exit 2 when anything is missing.
set -euo pipefail
version=147.0.0
dir=${1:?usage: scripts/angle-from-npm.sh DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ -f "$dir/libEGL.so" ] && [ -f "$dir/libGLESv2.so" ]; then
    echo "$dir/libEGL.so"
    exit 0
fi
command -v npm >/dev/null && command -v node >/dev/null || {
    echo "angle-from-npm.sh: needs npm and node" >&2
    exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@sparticuz/chromium@$version" >/dev/null)
tar -xzf "$work"/sparticuz-chromium-$version.tgz -C "$work" package/bin/swiftshader.tar.br
node -e 'const z = require("zlib"), fs = require("fs");
fs.writeFileSync(process.argv[2], z.brotliDecompressSync(fs.readFileSync(process.argv[1])));' \
    "$work/package/bin/swiftshader.tar.br" "$work/swiftshader.tar"
tar --no-same-owner -xf "$work/swiftshader.tar" -C "$dir"
for file in libEGL.so libGLESv2.so libvk_swiftshader.so vk_swiftshader_icd.json; do
    [ -f "$dir/$file" ] || {
        echo "angle-from-npm.sh: $file missing from @sparticuz/chromium@$version" >&2
        exit 2
    }
done
echo "$dir/libEGL.so"
