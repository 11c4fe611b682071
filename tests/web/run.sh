#!/bin/sh
# tests/web/run.sh: tengen's pages in a real browser (make check). Headless Chromium (Debian's
# `chromium`) driven by playwright-core (npm, installed by scripts/deps.sh: `npm ci` here);
# tests/web/web.test.mjs starts its own tengend with --http. Screenshots go to
# $abs_top_builddir/tests/web/shots. Exit 77 (SKIP) when chromium, node or the npm packages
# are missing.
here=$(cd "$(dirname "$0")" && pwd)
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ] || ! command -v node >/dev/null 2>&1; then
	echo "SKIP: needs $chromium and node (scripts/deps.sh installs them)"
	exit 77
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
	echo "SKIP: no playwright-core in $here/node_modules (scripts/deps.sh runs npm ci there)"
	exit 77
fi
export CHROMIUM="$chromium"
export TENGEN_WEB_ROOT="${TENGEN_WEB_ROOT:-$here/../../web}"
export TENGEN_SHOTS="${abs_top_builddir:-.}/tests/web/shots"
mkdir -p "$TENGEN_SHOTS"
exec node "$here/web.test.mjs"
