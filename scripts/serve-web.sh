#!/usr/bin/env bash
# Serves the browser build (build-web/, made by `bash scripts/setup.sh web`) on http://localhost:PORT/
# (default 8000) with Python's static file server; open that address in a browser (Chromium, Firefox).
set -euo pipefail
cd "$(dirname "$0")/../build-web"
port="${1:-8000}"
[ -f index.html ] || { echo "serve-web: no build-web/index.html: run bash scripts/setup.sh web first" >&2; exit 1; }
echo "serve-web: http://localhost:$port/ (lesson and scene by address: ?lesson=epita&scene=4)"
exec python3 -m http.server "$port" --bind 127.0.0.1
