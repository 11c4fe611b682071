# scripts/deps.sh: sourced by scripts/check and scripts/demo. Installs the Debian packages
# tengen needs to build and test, if any is missing (as root, or through sudo).
TENGEN_DEPS="autoconf automake libtool pkg-config make gcc libuv1-dev libsqlite3-dev libjansson-dev libsodium-dev check gnugo sqlite3 python3 clang libclang-rt-14-dev libwebsockets-dev libwebsockets-evlib-uv"

deps_install() {
	local missing="" p
	for p in $TENGEN_DEPS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	echo "== installing:$missing"
	local sudo=""
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null || { echo "need root or sudo to install:$missing" >&2; return 1; }
		sudo="sudo"
	fi
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq $missing >/dev/null \
		|| { echo "apt-get install failed:$missing" >&2; return 1; }
}
