#!/bin/sh
# tests/unit/layering.sh: the daemon's layers, checked from its object files (issue 14).
#
# A symbol defined in one object file of server/ and used by another is a dependency of the
# second on the first. Two rules (docs/architecture.md):
#   1. no two files depend on each other in a loop, directly or through others;
#   2. calls only point down the layers:
#        main (5) -> transport, cmd (4) -> svc (3) -> game (2) -> core (1) -> store (0)
#      a file may use a file of its own folder or of a lower layer, nothing else (transport
#      and cmd share a rank but not each other: lines reach cmd through a callback main.c
#      sets). Upward needs (a game ended, a player logged in) go through hooks main.c wires.
# Usage: tests/unit/layering.sh [BUILDDIR] (default: $abs_top_builddir, or .). Exit 0 or 1.
set -u
build=${1:-${abs_top_builddir:-.}}
# The objects of the daemon's library (as archived now: a stale object of a removed file in the
# build tree does not count) and of its main.
lib="$build/server/libserver.a"
[ -f "$lib" ] || { echo "layering: $lib not found (build first)"; exit 1; }
objs=$(for m in $(ar t "$lib") $(cd "$build/server" && ls *main.o 2>/dev/null); do
	case "$m" in *migrations_sql*) continue ;; esac
	find "$build/server" -name "$m"
done | sort -u)
[ -n "$objs" ] || { echo "layering: no object files under $build/server (build first)"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/layering.XXXXXX")
trap 'rm -rf "$work"' EXIT

# name OBJ: the module's name, its folder and file without the automake prefix ("game/live").
name() {
	rel=${1#"$build/server/"}
	dir=$(dirname "$rel")
	base=$(basename "$rel" .o)
	base=${base#*_a-}
	base=${base#tengend-}
	if [ "$dir" = . ]; then echo "$base"; else echo "$dir/$base"; fi
}

for o in $objs; do
	n=$(name "$o")
	nm -g --defined-only "$o" | awk -v n="$n" 'NF == 3 { print $3, n }' >>"$work/defs"
	nm -u "$o" | awk -v n="$n" '{ print $NF, n }' >>"$work/uses"
done
# edges: "user provider symbols", one line per pair of files (symbols joined by commas).
awk 'NR == FNR { def[$1] = $2; next }
	($1 in def) && def[$1] != $2 { k = $2 " " def[$1]; v = (k in e) ? e[k] "," $1 : $1; e[k] = v }
	END { for (k in e) print k, e[k] }' "$work/defs" "$work/uses" | sort >"$work/edges"

rank() {
	case "$1" in
	store/*) echo 0 ;; core/*) echo 1 ;; game/*) echo 2 ;; svc/*) echo 3 ;;
	transport/* | cmd/*) echo 4 ;; *) echo 5 ;;
	esac
}

rc=0
# Rule 2: each edge points to the same folder or a lower layer.
while read -r from to sym; do
	fd=$(dirname "$from"); td=$(dirname "$to")
	[ "$fd" = "$td" ] && continue
	if [ "$(rank "$from")" -le "$(rank "$to")" ]; then
		echo "layering: $from uses $to, not a lower layer: $sym"
		rc=1
	fi
done <"$work/edges"

# Rule 1: no loop among files (tsort reports one and fails).
awk '{ print $1, $2 }' "$work/edges" | sort -u >"$work/pairs"
if ! tsort "$work/pairs" >/dev/null 2>"$work/tsort.err"; then
	echo "layering: a loop of dependencies among these files:"
	grep -v 'input contains a loop' "$work/tsort.err" | sed 's/^tsort: /  /'
	rc=1
fi

nfiles=$(echo "$objs" | wc -l)
nedges=$(wc -l <"$work/pairs")
if [ $rc -eq 0 ]; then
	echo "layering: $nfiles object files, $nedges dependencies between them: no loop, all point down"
fi
exit $rc
