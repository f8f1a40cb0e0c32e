#!/usr/bin/env bash
# Mesa's software OpenGL (llvmpipe) for the GPU machine, which has only NVIDIA's driver: where a CUDA kernel
# faulted on the only GPU, warpscope's picture draws with Mesa instead (issue 24, docs/device/gl-after-fault.md).
# Debian 12's packages, extracted, cut to what EGL's software device needs and split in two parts, each
# carried by its own device call (with the tree, one call's carry stays under the device tool's 64 MiB):
#
#   bash scripts/device-mesa.sh prepare   here: apt-get download, extract, xz, split into .mesa-a/ .mesa-b/
#                                         .mesa-c/ (git-ignored; about 50 MB; xz -9e takes minutes on 2 cores)
#   carry [".mesa-a"], then [".mesa-b"], then [".mesa-c"]  (the parts stay on the warm machine)
#   bash scripts/device-mesa.sh install   there: joins the parts into /tmp/ws-mesa, writes its EGL vendor file
#   source <(bash scripts/device-mesa.sh env)   the variables that let glvnd's EGL list Mesa beside NVIDIA
set -euo pipefail
cd "$(dirname "$0")/.."
MESA=/tmp/ws-mesa
case "${1:-}" in
  prepare)
    work=$(mktemp -d)
    (cd "$work" && apt-get download libegl-mesa0 libgl1-mesa-dri libglapi-mesa libgbm1 libllvm15 libz3-4 \
        libsensors5 libdrm2 libdrm-amdgpu1 libwayland-server0 libwayland-client0 libxshmfence1 libelf1 libedit2 \
        libxml2 libicu72 libxcb-randr0 libxcb-dri3-0 libxcb-present0 libxcb-sync1 libxcb-xfixes0 libxcb-dri2-0 \
        libxcb-shm0 libx11-xcb1 libxxf86vm1 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 libdrm-intel1 \
        libdrm-nouveau2 libdrm-radeon1 libpciaccess0 >/dev/null)
    mkdir -p "$work/root" "$work/bundle/lib/dri"
    for f in "$work"/*.deb; do dpkg -x "$f" "$work/root"; done
    lib="$work/root/usr/lib/x86_64-linux-gnu"
    cp -L "$lib/dri/swrast_dri.so" "$work/bundle/lib/dri/"
    for f in "$lib"/*.so.[0-9]* "$work"/root/lib/x86_64-linux-gnu/*.so.[0-9]*; do
      [ -e "$f" ] && cp -L "$f" "$work/bundle/lib/"
    done
    rm -rf .mesa-a .mesa-b .mesa-c && mkdir -p .mesa-a .mesa-b .mesa-c
    tar -C "$work/bundle" -cf - . | xz -9e -T"$(nproc)" > "$work/mesa.tar.xz"
    split -b 23M -d "$work/mesa.tar.xz" "$work/part."
    # Up to three parts (Debian's updates grew the archive past two once, and the third was lost): each part
    # in its own folder, its count beside the first, so install refuses a partial set.
    parts=$(ls "$work"/part.* | wc -l)
    [ "$parts" -le 3 ] || { echo "device-mesa: $parts parts of 23 MB: more than three carries" >&2; exit 1; }
    echo "$parts" > .mesa-a/count
    i=0
    for d in .mesa-a .mesa-b .mesa-c; do
      [ -f "$work/part.0$i" ] && mv "$work/part.0$i" "$d/"
      i=$((i + 1))
    done
    rm -rf "$work"
    du -sh .mesa-a .mesa-b .mesa-c
    ;;
  install)
    parts=$(cat .mesa-a/count 2>/dev/null || echo 2)
    files=()
    i=0
    for d in .mesa-a .mesa-b .mesa-c; do
      [ "$i" -lt "$parts" ] && files+=("$d/part.0$i")
      i=$((i + 1))
    done
    for f in "${files[@]}"; do
      [ -f "$f" ] || { echo "device-mesa: carry .mesa-a, .mesa-b and .mesa-c first (no $f)" >&2; exit 2; }
    done
    rm -rf "$MESA" && mkdir -p "$MESA/egl_vendor.d"
    cat "${files[@]}" | xz -d | tar -C "$MESA" -xf -
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s/lib/libEGL_mesa.so.0"}}\n' "$MESA" \
      > "$MESA/egl_vendor.d/50_mesa.json"
    echo "device-mesa: Mesa in $MESA ($(du -sh "$MESA" | cut -f1))"
    ;;
  env)
    [ -d "$MESA/lib" ] || exit 0
    dirs=$MESA/egl_vendor.d
    for d in /etc/glvnd/egl_vendor.d /usr/share/glvnd/egl_vendor.d; do [ -d "$d" ] && dirs="$d:$dirs"; done
    echo "export __EGL_VENDOR_LIBRARY_DIRS=$dirs"
    echo "export LIBGL_DRIVERS_PATH=$MESA/lib/dri"
    echo "export LD_LIBRARY_PATH=\${LD_LIBRARY_PATH:+\$LD_LIBRARY_PATH:}$MESA/lib"
    ;;
  *) echo "usage: $0 prepare|install|env" >&2; exit 2 ;;
esac
