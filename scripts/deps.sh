# scripts/deps.sh: sourced by scripts/check and scripts/demo. Installs the Debian packages
# tengen needs to build and test, if any is missing (as root, or through sudo).
TENGEN_DEPS="autoconf automake libtool pkg-config make gcc libuv1-dev libsqlite3-dev libjansson-dev libsodium-dev check gnugo sqlite3 python3 clang libclang-rt-14-dev libwebsockets-dev libwebsockets-evlib-uv chromium nodejs npm"
# Java (java and javac) for the h9 test against OpenGotha's importer (tests/tools/H9Check.java):
# installed only where no javac is on the PATH (any JDK 11 or later will do).
TENGEN_JAVA_DEPS="default-jdk-headless"
# The browser tests (tests/web/run.sh) drive chromium with playwright-core from npm, installed
# from the committed package-lock.json into tests/web/node_modules (never committed).
TENGEN_WEB_TESTS="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)/tests/web"

# npm ci in tests/web unless playwright-core is there already.
deps_web() {
	[ -n "${TENGEN_DEPS_NO_WEB:-}" ] && return 0 # scripts/demo: no browser tests to run
	[ -d "$TENGEN_WEB_TESTS/node_modules/playwright-core" ] && return 0
	echo "== npm ci in tests/web"
	(cd "$TENGEN_WEB_TESTS" && npm ci --no-audit --no-fund >/dev/null) \
		|| echo "npm ci failed in $TENGEN_WEB_TESTS: the browser tests will be skipped" >&2
	return 0
}

deps_install() {
	local missing="" p
	for p in $TENGEN_DEPS; do
		# a node and npm from elsewhere (NodeSource's nodejs holds its own npm) will do
		case "$p" in nodejs) command -v node >/dev/null && continue ;; npm) command -v npm >/dev/null && continue ;; esac
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	command -v javac >/dev/null 2>&1 || missing="$missing $TENGEN_JAVA_DEPS"
	[ -z "$missing" ] && { deps_web; return; }
	echo "== installing:$missing"
	local sudo=""
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { echo "need root or sudo to install:$missing" >&2; return 1; }
		sudo="sudo"
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq $missing >/dev/null \
		|| { echo "apt-get install failed:$missing" >&2; return 1; }
	deps_web
}
