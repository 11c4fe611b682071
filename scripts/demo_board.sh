# scripts/demo_board.sh: the over-the-board event of `scripts/demo --venue board`, sourced by
# scripts/demo once its server and director are up (it uses the demo's tg, td, json, $out,
# $tengen, $system, $players, $rounds, $size, $komi, $time_spec). Players sit at real boards:
# none of them logs in; after each round is paired, the director enters the round's results
# from a file (`tengen td results`), as a director does with the result slips.

# The time SPEC of `tengen td create --time` as the protocol's time object (JSON).
time_json() {
	python3 - "$1" <<'EOF'
import json, re, sys
def secs(v):
    m = re.fullmatch(r"([0-9.]+)([smh]?)", v)
    if not m:
        sys.exit("bad time value: " + v)
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]
spec = sys.argv[1]
kind, _, rest = spec.partition(":")
if kind == "none":
    t = {"system": "none"}
elif kind == "absolute":
    t = {"system": "absolute", "main_s": secs(rest)}
elif kind == "byoyomi":
    main, per = rest.split("/")
    n, p = per.split("x")
    t = {"system": "byoyomi", "main_s": secs(main), "periods": int(n), "period_s": secs(p)}
elif kind == "canadian":
    main, stones, p = rest.split("/")
    t = {"system": "canadian", "main_s": secs(main), "stones": int(stones), "period_s": secs(p)}
elif kind == "fischer":
    main, inc = rest.split("+")
    t = {"system": "fischer", "main_s": secs(main), "increment_s": secs(inc.split("/")[0])}
else:
    sys.exit("bad time spec: " + spec)
print(json.dumps(t))
EOF
}

board_event() {
	local surnames=(lee novak garcia mueller kim durand rossi smith tanaka berg nagy silva
		moreau weber costa jansen)
	local ranks=(4d 3d 2d 1d 1k 2k 3k 4k 5k 6k 7k 8k 9k 10k 11k 12k)
	local i name tid title="Demo board $system ${size}x$size" r
	names=()
	echo "== $players players at real boards (accounts that never log in):"
	for i in $(seq "$players"); do
		name=${surnames[$(( (i - 1) % 16 ))]}
		[ "$i" -gt 16 ] && name="$name$i"
		tg --user "$name" register --rank "${ranks[$(( (i - 1) % 16 ))]}" >/dev/null
		names+=("$name")
		printf '   %-10s %s\n' "$name" "${ranks[$(( (i - 1) % 16 ))]}"
	done

	# venue "board": games at real boards (no clocks or lateness on the server). A server
	# without venues ignores the field: its games are then scheduled online, and the
	# director's results end them all the same.
	tid=$(tg --user director call tournament.create name="$title" system="$system" \
		rounds="$rounds" size="$size" komi="$komi" time="$(time_json "$time_spec")" \
		venue=board place="FR,Lyon" | json 'd["tournament"]')
	local venue_set
	venue_set=$(tg call tournament.get tournament="$tid" |
		json 'd["tournament"]["settings"].get("venue", "")')
	if [ "$venue_set" != board ]; then
		echo "   note: this tengend does not know venue \"board\" (ignored): its games are" \
			"scheduled online; the director's results end them"
	fi
	td register "$tid" "${names[@]}" >/dev/null
	echo "== tournament $tid: $title, $rounds rounds, komi $komi, time $time_spec, venue board"

	for r in $(seq "$rounds"); do
		echo
		echo "== round $r"
		if ! td start "$tid" --json >"$out/.start" 2>&1; then
			if grep -q "cannot pair" "$out/.start"; then
				echo "  (no more rounds can be paired)"
				break
			fi
			cat "$out/.start" >&2
			exit 1
		fi
		# The result slips: the stronger player (by rank, first in the list) wins 2 games in
		# 3; round 2 has a forfeit, round 3 a double loss (both absent; Swiss, McMahon).
		python3 - "$r" "$out/.start" "$system" "${names[@]}" >"$out/round-$r.results" <<'EOF'
import json, random, sys
rnd, start, system = int(sys.argv[1]), json.load(open(sys.argv[2])), sys.argv[3]
names = sys.argv[4:]
random.seed(1000 + rnd)
print("# round %d: GAME RESULT, from the result slips" % rnd)
for k, p in enumerate(start["pairings"]):
    b, w = p["black"], p["white"]
    stronger_black = names.index(b) < names.index(w)
    black_wins = (random.random() < 2 / 3) == stronger_black
    if rnd == 2 and k == 0:
        res = "B+F" if black_wins else "W+F"
    elif rnd == 3 and k == 1 and system in ("swiss", "mcmahon"):
        res = "double_loss"
    elif random.random() < 0.5:
        res = ("B+" if black_wins else "W+") + "R"
    else:
        res = ("B+" if black_wins else "W+") + "%g" % (random.randrange(0, 20) + 0.5)
    print("%d %s   # %s (B) - %s (W)" % (p["game"], res, b, w))
EOF
		sed -i 's/   #.*$//' "$out/round-$r.results"
		td results "$out/round-$r.results" >"$out/.results" 2>&1 ||
			{ cat "$out/.results" >&2; exit 1; }
		tg pairings "$tid" "$r" | sed 's/^/  /'
	done
	rm -f "$out/.start" "$out/.results"

	echo
	echo "== final standings"
	tg standings "$tid" | sed 's/^/  /'
	echo
	echo "== cross-table"
	td crosstable "$tid" | sed 's/^/  /'
	local f
	for f in h9 html; do
		td export "$tid" --format "$f" -o "$out/tournament-$tid.$f" >/dev/null 2>"$out/.export" ||
			{ cat "$out/.export" >&2; exit 1; }
	done
	rm -f "$out/.export"
	echo
	echo "== done"
	echo "   results entered:      $out/round-*.results"
	echo "   results table (h9):   $out/tournament-$tid.h9"
	echo "   printable page:       $out/tournament-$tid.html"
	echo "   server log:           $out/tengend.log"
}
