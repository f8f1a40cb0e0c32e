#!/usr/bin/env bash
# The browser build (`bash scripts/setup.sh web`): Debian's emscripten compiles core, controller, ui and the
# page (app/web) into build-web/ (index.html, .js, .wasm, .data), which any static web server serves as it is
# (scripts/serve-web.sh). Dear ImGui 1.86 comes from Debian's source package into .deps/web/imgui (git-ignored,
# fetched once). Needs a deb-src entry for Debian's archive: added (bookworm, main) when apt has none.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"

packages=(emscripten cmake ninja-build g++ nlohmann-json3-dev libcli11-dev libstb-dev fonts-dejavu-core dpkg-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-web: installing ${missing[*]}"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

imgui=.deps/web/imgui
if [ ! -f "$imgui/imgui.cpp" ]; then
  if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    echo "setup-web: adding a deb-src entry for Debian's bookworm main (apt-get source imgui needs one)"
    printf '%s\n' 'Types: deb-src' 'URIs: http://deb.debian.org/debian' 'Suites: bookworm bookworm-updates' \
      'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' |
      $sudo_cmd tee /etc/apt/sources.list.d/debian-src.sources >/dev/null
    $sudo_cmd apt-get update -q
  fi
  rm -rf .deps/web && mkdir -p .deps/web
  (cd .deps/web && apt-get source --download-only imgui=1.86+ds-1 >/dev/null 2>&1 &&
     dpkg-source -x imgui_1.86+ds-1.dsc imgui >/dev/null)
fi

# The trace-point generator runs at build time: built for this machine, not for the browser.
tool=build-web/host/ws_gen_trace_points
mkdir -p build-web/host
sources=(app/core/tools/gen_trace_points.cpp app/core/trace/trace_points_scan.cpp)
if [ ! -x "$tool" ] || [ "${sources[0]}" -nt "$tool" ] || [ "${sources[1]}" -nt "$tool" ]; then
  g++ -std=c++17 -O1 -Iapp/core "${sources[@]}" -o "$tool"
fi

# Rebuilds of the same sources come from ccache, as the desktop build's do: emcc runs its clang through it.
if command -v ccache >/dev/null 2>&1; then export EM_COMPILER_WRAPPER=ccache; fi
# Debian's emcc needs acorn from Debian's node modules when node itself comes from elsewhere.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
emcmake cmake -S . -B build-web/cmake -G Ninja -DCMAKE_BUILD_TYPE=MinSizeRel \
  -DWS_IMGUI_SOURCE_DIR="$PWD/$imgui" -DWS_HOST_GEN_TRACE_POINTS="$PWD/$tool" -DWS_WEB_OUT="$PWD/build-web" >/dev/null
cmake --build build-web/cmake -j "$(nproc)" --target warpscope_web
for f in build-web/index.{html,js,wasm,data}; do echo "setup-web: $f $(stat -c %s "$f") bytes"; done
echo "setup-web: built build-web/ (serve it with: bash scripts/serve-web.sh)"
