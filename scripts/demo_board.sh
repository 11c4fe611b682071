# scripts/demo_board.sh: the over-the-board event of `scripts/demo --venue board`, sourced by
# scripts/demo once its server and director are up (it uses the demo's tg, td, json, $out,
# $tengen, $system, $players, $rounds, $size, $komi, $time_spec). Players sit at real boards:
# they have no accounts (entrants imported from a CSV list); after each round is paired, the director enters the round's results
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
	# Entrants without accounts, as a director has them from the registration desk: a CSV
	# player list ("Surname Firstname", rank, country, club, EGD PIN) imported with td import.
	# Some names have diacritics: UTF-8 in the list, the HTML and the CSV, ASCII in the h9.
	local surnames=(Lee Novák García Müller Kim Durand Rossi Smith Tanaka Berg Nagy Silva
		Moreau Weber Costa Jansen)
	local firsts=(Ann Petr Lucia Hans Minho Claire Marco John Yuki Erik Zsofia Pedro Luc Anna
		Rui Sanne)
	local countries=(GB CZ ES DE KR FR IT GB JP SE HU PT FR DE PT NL)
	local clubs=(Lond Prag Madr Berl Seou Lyon Roma Manc Toky Stoc Buda Lisb Pari Hamb Port Amst)
	local ranks=(4d 3d 2d 1d 1k 2k 3k 4k 5k 6k 7k 8k 9k 10k 11k 12k)
	local i k name tid title="Demo board $system ${size}x$size" r
	names=()
	echo "name,rank,country,club,egd_pin" >"$out/players.csv"
	for i in $(seq "$players"); do
		k=$(( (i - 1) % 16 ))
		name="${surnames[$k]} ${firsts[$k]}"
		[ "$i" -gt 16 ] && name="${surnames[$k]}-$i ${firsts[$k]}"
		names+=("$name")
		printf '%s,%s,%s,%s,%d\n' "$name" "${ranks[$k]}" "${countries[$k]}" "${clubs[$k]}" \
			$(( 12000000 + i )) >>"$out/players.csv"
	done

	# venue "board": games at real boards (no clocks or lateness on the server); the
	# director pairs each round and enters its results.
	tid=$(tg --user director call tournament.create name="$title" system="$system" \
		rounds="$rounds" size="$size" komi="$komi" time="$(time_json "$time_spec")" \
		venue=board place="FR,Lyon" | json 'd["tournament"]')
	td import "$tid" "$out/players.csv" >"$out/.import" 2>&1 || { cat "$out/.import" >&2; exit 1; }
	rm -f "$out/.import"
	echo "== tournament $tid: $title, $rounds rounds, komi $komi, time $time_spec, venue board"
	echo "== $players players at real boards, no accounts (imported from $out/players.csv):"
	td players "$tid" | sed 's/^/   /'

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
		# 3; round 2 has a forfeit, round 3 a double loss (both absent; Swiss, McMahon),
		# round 4 a jigo.
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
    elif rnd == 4 and k == 1:
        res = "jigo"
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
	echo "== final standings (the tournament named by its name)"
	tg standings "$title" | sed 's/^/  /'
	echo
	echo "== cross-table"
	td crosstable "$tid" | sed 's/^/  /'
	local f
	for f in h9 html; do
		td export "$tid" --format "$f" -o "$out/tournament-$tid.$f" >/dev/null 2>"$out/.export" ||
			{ cat "$out/.export" >&2; exit 1; }
	done
	rm -f "$out/.export"
	h9_opengotha "$out/tournament-$tid.h9"
	echo
	echo "== done"
	echo "   results entered:      $out/round-*.results"
	echo "   results table (h9):   $out/tournament-$tid.h9"
	echo "   printable page:       $out/tournament-$tid.html"
	echo "   server log:           $out/tengend.log"
}

# With TENGEN_OPENGOTHA_DIR (the directory of opengotha.jar and jhall.jar) and a JDK: have
# OpenGotha's own h9 importer (tests/tools/H9Check.java) read FILE, and fail unless it reads
# every player and every game with a result (a double loss is no game in h9).
h9_opengotha() {
	local dir=${TENGEN_OPENGOTHA_DIR:-} cp classes got want np ng
	if [ -z "$dir" ] || [ ! -r "$dir/opengotha.jar" ] || ! command -v javac >/dev/null; then
		echo "   (h9 not read by OpenGotha: set TENGEN_OPENGOTHA_DIR and install a JDK)"
		return 0
	fi
	classes="$out/.h9check"
	mkdir -p "$classes"
	cp="$dir/opengotha.jar:$dir/jhall.jar:$classes"
	javac -cp "$cp" -d "$classes" "$top/tests/tools/H9Check.java" >&2 || exit 1
	got=$(java -Djava.awt.headless=true -cp "$cp" H9Check "$1" "$rounds" 2>&1) ||
		{ echo "$got" >&2; exit 1; }
	rm -rf "$classes"
	np=$(grep -c '^player ' <<<"$got" || true)
	ng=$(grep -c '^game ' <<<"$got" || true)
	want=$(cat "$out"/round-*.results | grep -v '^#' | grep -vc 'double_loss' || true)
	echo
	echo "== OpenGotha's h9 importer read $np players (of $players) and $ng games (of $want)"
	grep '^player ' <<<"$got" | head -3 | sed 's/^/   /'
	[ "$np" = "$players" ] && [ "$ng" = "$want" ] ||
		{ echo "scripts/demo: OpenGotha did not read the whole h9:" >&2; echo "$got" >&2; exit 1; }
}
