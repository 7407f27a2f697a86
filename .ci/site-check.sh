#!/usr/bin/env bash
# Browser check of the built course site (see tests/course/site/browser_check.js for what it checks).
#
#   bash .ci/site-check.sh            # after `mkdocs build --strict` (builds it itself if needed)
#
# Then runs the browser check on a fixture with the legibility defects put back (it must fail
# there): tests/course/site/test_site_browser.py, which needs pytest in PYTHON.
#
# Installs what it needs, idempotently: Debian's `chromium` (apt-get) and the npm packages of
# package-lock.json (`npm ci`: playwright-core, and mermaid + iframe-worker which the site bundles).
# Env: PYTHON (interpreter with mkdocs, default python3), SITE_SHOTS (screenshot folder,
# default /tmp/site-shots), SITE_PORT (default: a free port).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
SHOTS=${SITE_SHOTS:-/tmp/site-shots}

if ! command -v chromium >/dev/null 2>&1; then
  echo "site-check: installing chromium (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# The Chinese edition (zh/) is measured with real glyphs: without a CJK font Chromium draws boxes.
if ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  echo "site-check: installing a Chinese font (apt-get)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null
fi

if [ ! -f node_modules/playwright-core/package.json ] || [ ! -f node_modules/mermaid/dist/mermaid.min.js ] \
   || [ ! -f node_modules/iframe-worker/shim/index.js ]; then
  echo "site-check: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

# The site must have been built with the bundled assets; build it if not (or if it is missing).
if [ ! -f site/index.html ] || [ ! -f site/assets/vendor/mermaid.min.js ]; then
  echo "site-check: building the site (mkdocs build --strict)"
  NO_MKDOCS_2_WARNING=1 "$PYTHON" -m mkdocs build --strict -q
fi

# Nothing in the built pages and styles may load from another host (plain <a href> links are fine).
# The build's hook already fails on this; check the output too.
EXTERNAL='<(script|img|iframe|source|audio|video)[^>]*src=["'"'"']?(https?:)?//|<link[^>]*href=["'"'"']?(https?:)?//|import\(["'"'"'](https?:)?//|url\(["'"'"']?(https?:)?//'
if grep -rqE "$EXTERNAL" site --include='*.html' --include='*.css'; then
  echo "site-check: the built site loads something from another host:"
  grep -rnoE ".{0,40}($EXTERNAL).{0,60}" site --include='*.html' --include='*.css' | head -20
  exit 1
fi

PORT=${SITE_PORT:-$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
"$PYTHON" -m http.server "$PORT" --bind 127.0.0.1 -d site >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  "$PYTHON" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/index.html')" 2>/dev/null && break
  sleep 0.1
done

mkdir -p "$SHOTS"
node tests/course/site/browser_check.js --site site --base "http://127.0.0.1:$PORT" --shots "$SHOTS"

# The check itself: on a fixture page with each defect of issue #25 put back it must fail, and pass
# on the same page as the site renders it (tests/course/site/test_site_browser.py; here it may not
# skip: Chromium and the npm packages are installed above).
MINIAGENT_REQUIRE_BROWSER=1 "$PYTHON" -m pytest -q -p no:cacheprovider tests/course/site/test_site_browser.py
