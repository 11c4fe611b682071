/* client/cmd_watch: `tengen watch GAME`, a live board in the terminal. See commands.h.
 *
 * It observes the game and, after each move, prints the move (captures, a forfeited turn),
 * then the board with the last move marked, the captures so far, both clocks and the warnings.
 * Other events (warnings, counting, each side's dead-stone claim, resumption, pauses) print as
 * they come, but never ahead of a move still waiting for its board: lines are queued while a
 * board is being fetched and printed after it, so the order is the server's. On a terminal a
 * status line under the board shows both clocks, the one of the side to move counting down.
 * A dropped connection is retried (as the bridge does) and the game read again.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_print.h"
#include "cli_run.h"
#include "commands.h"

#define WATCH_TICK_MS 1000 /* the status line's clocks are redrawn this often (a terminal) */
#define WATCH_LINE_MAX 4096 /* bytes of one queued line */

static const char watch_usage[] =
	"usage: tengen [GLOBAL OPTIONS] watch GAME [--json]\n"
	"Observe a game: the board after each move (the last move in parentheses), captures,\n"
	"both clocks, warnings and the dead-stone claims, until the result; a dropped\n"
	"connection is retried. With --json, print the observe reply and then every event of the\n"
	"game, one per line (for a game that is over: its game object, as `game` gives it).\n";

struct watch_ctx {
	json_int_t game;
	bool fetching;        /* a `game` request is out */
	bool ended;           /* game.end came */
	json_t *end;          /* the game.end event, printed after the last board */
	json_t *queued;       /* lines (strings) waiting for the board being fetched */
	json_t *shown;        /* the game object last printed (for the ticking clocks) */
	uint64_t shown_at;    /* uv_now when it came */
	bool tty;             /* stdout is a terminal: keep a status line */
	bool status_on;       /* the status line is on the screen */
	uv_timer_t tick;
	bool tick_init;
	json_int_t last_number; /* the latest game.move's number */
};

static const char *color_name(const char *c)
{
	return c && strcmp(c, "B") == 0 ? "Black" : c && strcmp(c, "W") == 0 ? "White" : "?";
}

/* ---- output: the status line, and lines kept in order ---- */

static void status_clear(struct watch_ctx *x)
{
	if (x->status_on)
		fputs("\r\033[K", stdout);
	x->status_on = false;
}

/* A line of text, printed now, or after the board being fetched. */
static void say(struct watch_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct watch_ctx *x, const char *fmt, ...)
{
	char line[WATCH_LINE_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (x->fetching) {
		json_array_append_new(x->queued, json_string(line));
		return;
	}
	status_clear(x);
	puts(line);
}

static void flush_queued(struct watch_ctx *x)
{
	size_t i;
	json_t *v;
	status_clear(x);
	json_array_foreach(x->queued, i, v)
		puts(json_string_value(v));
	json_array_clear(x->queued);
}

/* ---- the board ---- */

/* A clock `elapsed_ms` later (the side to move): main time first, then the period. */
static json_t *clock_later(const json_t *clock, int64_t elapsed_ms)
{
	json_t *c = json_deep_copy(clock);
	if (!c || elapsed_ms <= 0)
		return c;
	int64_t main_ms = json_integer_value(json_object_get(c, "main_ms"));
	int64_t used = elapsed_ms < main_ms ? elapsed_ms : main_ms;
	json_object_set_new(c, "main_ms", json_integer(main_ms - used));
	const json_t *pm = json_object_get(c, "period_ms");
	if (elapsed_ms > used && json_is_integer(pm)) {
		int64_t left = json_integer_value(pm) - (elapsed_ms - used);
		json_object_set_new(c, "period_ms", json_integer(left > 0 ? left : 0));
	}
	return c;
}

/* "Black (X) alice: 9:58 + 3x0:30, 1 warning" for colour `c` of game g, `elapsed_ms` into
 * the turn of the side to move. */
static void format_side(const json_t *g, const char *c, int64_t elapsed_ms, char *out, size_t n)
{
	const json_t *clock = json_object_get(json_object_get(g, "clocks"), c);
	const char *to_move = json_string_value(json_object_get(g, "to_move"));
	json_t *now = clock_later(clock, to_move && strcmp(to_move, c) == 0 ? elapsed_ms : 0);
	char cb[64];
	cli_format_clock(now, cb, sizeof cb);
	json_decref(now);
	long long w = (long long)json_integer_value(json_object_get(json_object_get(g, "warnings"), c));
	snprintf(out, n, "%s (%s) %s: %s%s%s", color_name(c), strcmp(c, "B") == 0 ? "X" : "O",
		 cli_str_or(g, strcmp(c, "B") == 0 ? "black" : "white", "?"), cb,
		 w ? w == 1 ? ", 1 warning" : ", 2 warnings" : "",
		 to_move && strcmp(to_move, c) == 0 ? " (to move)" : "");
}

/* Stones each side captured: the other's stones played (handicap stones included) less those
 * on the board. */
static void captures(const json_t *g, int *by_black, int *by_white)
{
	int played[2] = {(int)json_integer_value(json_object_get(g, "handicap")), 0};
	if (played[0] < 2)
		played[0] = 0; /* a handicap of one places no stone */
	size_t i;
	const json_t *m;
	json_array_foreach(json_object_get(g, "moves"), i, m) {
		const char *v = json_string_value(json_object_get(m, "vertex"));
		if (v && strcmp(v, "pass") != 0)
			played[strcmp(cli_str_or(m, "color", "B"), "B") == 0 ? 0 : 1]++;
	}
	int on[2] = {0, 0};
	json_array_foreach(json_object_get(g, "board"), i, m)
		for (const char *p = json_string_value(m); p && *p; p++)
			on[0] += *p == 'X', on[1] += *p == 'O';
	*by_white = played[0] - on[0];
	*by_black = played[1] - on[1];
}

/* The board, GTP style (letters above and below, numbers both sides), the last move in
 * parentheses as GNU Go's showboard marks it. */
static void print_board(const json_t *g)
{
	const json_t *board = json_object_get(g, "board");
	int size = (int)json_integer_value(json_object_get(g, "size"));
	if (size < 1 || size > (int)strlen(CLI_COLUMNS) || !json_is_array(board))
		return;
	const json_t *moves = json_object_get(g, "moves");
	const char *last = json_string_value(json_object_get(
		json_array_get(moves, json_array_size(moves) - 1), "vertex"));
	int lx = -1, ly = -1;
	if (last && strcmp(last, "pass") != 0) {
		const char *col = strchr(CLI_COLUMNS, last[0] & ~0x20);
		lx = col ? (int)(col - CLI_COLUMNS) : -1;
		ly = size - atoi(last + 1);
	}
	char cols[2 * 26 + 8] = "   ";
	for (int x = 0; x < size; x++)
		snprintf(cols + 3 + 2 * x, sizeof cols - 3 - 2 * (size_t)x, " %c", CLI_COLUMNS[x]);
	puts(cols);
	for (int r = 0; r < size; r++) {
		const char *row = json_string_value(json_array_get(board, (size_t)r));
		printf("%3d", size - r);
		for (int x = 0; x < size; x++) {
			char open = r == ly && x == lx ? '(' : r == ly && x == lx + 1 ? ')' : ' ';
			printf("%c%c", open, row && (int)strlen(row) > x ? row[x] : '?');
		}
		printf("%c%d\n", r == ly && lx == size - 1 ? ')' : ' ', size - r);
	}
	puts(cols);
	if (json_is_true(json_object_get(g, "nigiri")))
		return; /* a pending challenge: no colours, clocks or captures yet */
	int bb, bw;
	captures(g, &bb, &bw);
	char sb[160], sw[160];
	format_side(g, "B", 0, sb, sizeof sb);
	format_side(g, "W", 0, sw, sizeof sw);
	printf("%s   %s\nCaptures: Black %d, White %d\n", sb, sw, bb, bw);
	const char *tm = json_string_value(json_object_get(g, "to_move"));
	json_int_t held = json_integer_value(json_object_get(g, "held_ms"));
	if (json_is_true(json_object_get(g, "paused")))
		puts("Paused by a director: no clock runs (Art. 14).");
	else if (held > 0 && tm)
		printf("The server restarted: %s's clock waits for them to log in again (at most %lld s "
		       "more, Art. 14).\n", cli_str_or(g, strcmp(tm, "B") == 0 ? "black" : "white", "?"),
		       (long long)((held + 999) / 1000));
}

/* The status line: both clocks as they run now (a terminal, a game with clocks in play). */
static void tick_cb(uv_timer_t *t)
{
	struct cli *c = t->data;
	struct watch_ctx *x = c->ctx;
	const json_t *g = x->shown;
	if (!g || x->fetching || c->done || json_is_null(json_object_get(g, "clocks")) ||
	    strcmp(cli_str_or(g, "phase", ""), "playing") != 0)
		return;
	int64_t elapsed = (int64_t)(uv_now(&c->loop) - x->shown_at);
	/* a paused clock stands; one held after a restart (held_ms) waits for its player */
	elapsed = json_is_true(json_object_get(g, "paused")) ? 0
		: elapsed - (int64_t)json_integer_value(json_object_get(g, "held_ms"));
	if (elapsed < 0)
		elapsed = 0;
	char sb[160], sw[160];
	format_side(g, "B", elapsed, sb, sizeof sb);
	format_side(g, "W", elapsed, sw, sizeof sw);
	printf("\r\033[K%s   %s", sb, sw);
	x->status_on = true;
	fflush(stdout);
}

/* ---- the game read from the server ---- */

static void watch_finish(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	const json_t *e = x->end;
	flush_queued(x);
	cli_print_result(json_string_value(json_object_get(e, "result")),
			 json_string_value(json_object_get(e, "reason")),
			 json_object_get(e, "score"));
	cli_finish(c, CMD_EXIT_OK);
}

static void show_game(struct cli *c, const json_t *g)
{
	struct watch_ctx *x = c->ctx;
	status_clear(x);
	print_board(g);
	putchar('\n');
	json_decref(x->shown);
	x->shown = json_deep_copy(g);
	x->shown_at = uv_now(&c->loop);
}

static void watch_fetch(struct cli *c);

static void watch_game_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct watch_ctx *x = c->ctx;
	(void)s;
	x->fetching = false;
	if (!reply)
		return; /* the connection dropped: read again once it is back */
	if (c->opt->json) { /* a game that is over (the observe reply was a conflict) */
		if (cli_reply_ok(c, reply))
			cli_print_json(reply);
		cli_finish(c, c->status);
		return;
	}
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	show_game(c, g);
	flush_queued(x);
	fflush(stdout);
	if (!x->ended && x->last_number > (json_int_t)json_array_size(json_object_get(g, "moves"))) {
		watch_fetch(c); /* a move came while this board was on its way */
		return;
	}
	if (x->ended) {
		watch_finish(c);
		return;
	}
	/* A game that ended before we could observe it. */
	if (strcmp(cli_str_or(g, "phase", ""), "ended") == 0) {
		cli_print_result(json_string_value(json_object_get(g, "result")),
				 json_string_value(json_object_get(g, "reason")),
				 json_object_get(g, "score"));
		cli_finish(c, CMD_EXIT_OK);
	}
}

static void watch_fetch(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	if (x->fetching)
		return;
	x->fetching = true;
	cli_send(c, json_pack("{s:s, s:I}", "cmd", "game", "game", x->game), watch_game_reply);
}


/* The first line of watch: the players and settings. A prediction-rules game (docs/protocol.md
 * "Prediction ruleset") has no colours before the predictions are shown (first and second
 * player then) and no komi (the bar, once known). */
static void watch_header(const struct watch_ctx *x, const json_t *g)
{
	long long size = (long long)json_integer_value(json_object_get(g, "size"));
	const json_t *bar = json_object_get(g, "bar");
	bool prediction = json_is_string(json_object_get(g, "first"));
	printf("Watching game %lld: ", (long long)x->game);
	if (prediction && !json_is_string(json_object_get(g, "black")))
		printf("%s (first) vs %s (second)", cli_str_or(g, "first", "?"),
		       cli_str_or(g, "second", "?"));
	else if (json_is_true(json_object_get(g, "nigiri"))) /* pending: colours drawn at accept */
		printf("%s vs %s (colours %s)", cli_str_or(g, "black", "?"), cli_str_or(g, "white", "?"),
		       strcmp(cli_str_or(g, "phase", ""), "ended") == 0 ? "never drawn: called off"
									 : "by nigiri at accept");
	else
		printf("%s (Black) vs %s (White)", cli_str_or(g, "black", "?"),
		       cli_str_or(g, "white", "?"));
	printf(", %lldx%lld, ", size, size);
	if (prediction && json_is_object(bar))
		printf("prediction rules, bar %s+%g", cli_str_or(bar, "color", "?"),
		       json_number_value(json_object_get(bar, "margin")));
	else if (prediction)
		printf("prediction rules, no bar yet");
	else {
		/* the komi counted with (effective_komi: komi + n for n >= 2 handicap stones), as
		 * the count at the end says it (the header said 0.5, the end 3.5) */
		double k = json_number_value(json_object_get(g, "komi"));
		json_t *ek = json_object_get(g, "effective_komi");
		if (json_is_number(ek) && json_number_value(ek) != k)
			printf("komi %g (%g + %g for the handicap stones)", json_number_value(ek), k,
			       json_number_value(ek) - k);
		else
			printf("komi %g", k);
	}
	printf(", %s\n", cli_str_or(g, "phase", "?"));
}
static void watch_observe_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct watch_ctx *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	uv_timer_stop(&c->timer);
	const char *code = json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
	if (code && strcmp(code, "conflict") == 0) {
		/* Over already: the final position and the result (--json: the game object). */
		if (!c->opt->json)
			printf("Game %lld is over.\n", (long long)x->game);
		watch_fetch(c);
		return;
	}
	if (c->opt->json) {
		cli_print_json(reply);
		if (!json_is_true(json_object_get(reply, "ok")))
			cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	watch_header(x, g);
	show_game(c, g);
	if (strcmp(cli_str_or(g, "phase", ""), "counting") == 0)
		puts("Counting: each side names the dead stones.");
	flush_queued(x);
	fflush(stdout);
}

/* ---- events ---- */

static void say_move(struct watch_ctx *x, const json_t *mv)
{
	char caps[WATCH_LINE_MAX / 2] = "";
	size_t n = json_array_size(json_object_get(mv, "captures"));
	if (n) {
		size_t len = (size_t)snprintf(caps, sizeof caps, ", captures %zu:", n);
		size_t i;
		const json_t *v;
		json_array_foreach(json_object_get(mv, "captures"), i, v)
			if (len < sizeof caps)
				len += (size_t)snprintf(caps + len, sizeof caps - len, " %s",
							json_string_value(v));
	}
	const char *forfeited = json_string_value(json_object_get(mv, "forfeited"));
	say(x, "Move %lld: %s %s%s%s%s%s", (long long)json_integer_value(json_object_get(mv, "number")),
	    color_name(json_string_value(json_object_get(mv, "color"))), cli_str_or(mv, "vertex", "?"),
	    caps, forfeited ? " (turn forfeited: " : "", forfeited ? forfeited : "",
	    forfeited ? ")" : "");
}

static void say_claim(struct watch_ctx *x, const json_t *ev)
{
	const json_t *stones = json_object_get(ev, "stones");
	char list[WATCH_LINE_MAX / 2] = "";
	size_t len = 0, i;
	const json_t *v;
	json_array_foreach(stones, i, v)
		if (len < sizeof list)
			len += (size_t)snprintf(list + len, sizeof list - len, " %s", json_string_value(v));
	if (json_array_size(stones) == 0)
		say(x, "%s claims every stone alive.", color_name(cli_str_or(ev, "color", "?")));
	else
		say(x, "%s claims dead:%s", color_name(cli_str_or(ev, "color", "?")), list);
}

static void watch_event(struct cli *c, json_t *ev)
{
	struct watch_ctx *x = c->ctx;
	const char *name = json_string_value(json_object_get(ev, "event"));
	if (!name || json_integer_value(json_object_get(ev, "game")) != x->game)
		return;
	bool end = strcmp(name, "game.end") == 0;
	if (c->opt->json) {
		cli_print_json(ev);
		if (end)
			cli_finish(c, CMD_EXIT_OK);
		return;
	}
	if (strcmp(name, "game.move") == 0) {
		x->last_number = json_integer_value(json_object_get(ev, "number"));
		say_move(x, ev);
		watch_fetch(c); /* the lines after it wait for its board */
	} else if (end) {
		x->ended = true;
		x->end = json_incref(ev);
		if (!x->fetching)
			watch_finish(c);
	} else if (strcmp(name, "game.warning") == 0) {
		long long n = (long long)json_integer_value(json_object_get(ev, "warnings"));
		const char *why = cli_str_or(ev, "reason", "?");
		/* the referee's reasons in words (a director's warning carries its own text) */
		if (!json_is_true(json_object_get(ev, "by_director")))
			why = strcmp(why, "not_your_turn") == 0 ? "a move out of turn (Art. 17.2)" :
			      strcmp(why, "superko") == 0 ? "a repeated position, the ko retaken (Art. 18.3)" : why;
		say(x, "Warning to %s: %s (%lld of 2%s)", color_name(cli_str_or(ev, "color", "?")),
		    why, n, n >= 2 ? ": the game is lost" : "");
	} else if (strcmp(name, "game.counting") == 0) {
		say(x, "Both passed: counting; each side names the dead stones.");
	} else if (strcmp(name, "game.dead") == 0) {
		say_claim(x, ev);
	} else if (strcmp(name, "game.paused") == 0) {
		say(x, "Paused by %s.", cli_str_or(ev, "by", "a director"));
	} else if (strcmp(name, "game.resume") == 0) {
		if (strcmp(cli_str_or(ev, "reason", ""), "returned") == 0)
			say(x, "%s is back after the server's restart: their clock runs again; %s to move.",
			    cli_str_or(ev, "by", "?"), color_name(cli_str_or(ev, "to_move", "?")));
		else if (json_object_get(ev, "by"))
			say(x, "Resumed by %s; %s to move.", cli_str_or(ev, "by", ""),
			    color_name(cli_str_or(ev, "to_move", "?")));
		else
			say(x, "The claims differ: play resumes (Art. 21.4); %s to move.",
			    color_name(cli_str_or(ev, "to_move", "?")));
		watch_fetch(c);
	} else if (strcmp(name, "game.begin") == 0) {
		say(x, "The game begins: Black's clock runs.");
	} else if (strcmp(name, "game.handicap") == 0) {
		char list[WATCH_LINE_MAX / 2] = "";
		size_t len = 0, i;
		const json_t *v;
		json_array_foreach(json_object_get(ev, "stones"), i, v)
			if (len < sizeof list)
				len += (size_t)snprintf(list + len, sizeof list - len, " %s",
							json_string_value(v));
		say(x, "Black places the handicap stones:%s; White to move.", list);
		watch_fetch(c);
	}
}

/* ---- running ---- */

static void watch_start(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	if (x->tty && !x->tick_init) {
		uv_timer_init(&c->loop, &x->tick);
		x->tick.data = c;
		x->tick_init = true;
		uv_timer_start(&x->tick, tick_cb, WATCH_TICK_MS, WATCH_TICK_MS);
	}
	x->fetching = false; /* a fetch out before a reconnect was answered NULL */
	c->no_timeout = false; /* the observe reply is bounded; events are not */
	cli_send(c, json_pack("{s:s, s:I}", "cmd", "observe", "game", x->game), watch_observe_reply);
	c->no_timeout = true;
}

static void watch_reconnected(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	status_clear(x);
	if (!c->opt->json)
		printf("Reconnected; reading game %lld again.\n", (long long)x->game);
	watch_start(c);
}

static void watch_stop(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	status_clear(x);
	if (x->tick_init)
		uv_close((uv_handle_t *)&x->tick, NULL);
	x->tick_init = false;
}

int cmd_watch(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, watch_usage, NULL, 0, NULL, pos, 1, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	struct watch_ctx x = {.queued = json_array(), .tty = isatty(STDOUT_FILENO) == 1};
	if (npos != 1) {
		fputs(watch_usage, stderr);
		json_decref(x.queued);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("GAME", pos[0], &x.game) != 0) {
		json_decref(x.queued);
		return CMD_EXIT_USAGE;
	}
	struct cli_reconnect rc = {.on_reconnect = watch_reconnected, .on_stop = watch_stop};
	int status = cli_run_reconnecting(&o, o.user != NULL, watch_start, watch_event, &x, &rc);
	json_decref(x.end);
	json_decref(x.queued);
	json_decref(x.shown);
	return status;
}
