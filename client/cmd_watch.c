/* client/cmd_watch: `tengen watch GAME`, a game's board and clocks after each move. See
 * commands.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_print.h"
#include "cli_run.h"
#include "commands.h"

/* ---- watch ---- */

static const char watch_usage[] =
	"usage: tengen [GLOBAL OPTIONS] watch GAME [--json]\n"
	"Observe a game: print the board and both clocks after each move, until the result.\n"
	"With --json, print the observe reply and then every event of the game, one per line.\n";

struct watch_ctx {
	json_int_t game;
	bool fetching;        /* a `game` request is out */
	bool ended;           /* game.end came */
	json_t *end;          /* the game.end event, printed after the last board */
	json_t *last_move;    /* the latest game.move event, printed with the board */
};

static void watch_print_move(const json_t *mv)
{
	if (!mv)
		return;
	printf("Move %lld: %s %s", (long long)json_integer_value(json_object_get(mv, "number")),
	       strcmp(cli_str_or(mv, "color", "?"), "B") == 0 ? "Black" : "White",
	       cli_str_or(mv, "vertex", "?"));
	size_t ncap = json_array_size(json_object_get(mv, "captures"));
	if (ncap)
		printf(", captures %zu", ncap);
	const char *forfeited = json_string_value(json_object_get(mv, "forfeited"));
	if (forfeited)
		printf(" (turn forfeited: %s)", forfeited);
	putchar('\n');
}

static void watch_finish(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	const json_t *e = x->end;
	cli_print_result(json_string_value(json_object_get(e, "result")),
			 json_string_value(json_object_get(e, "reason")),
			 json_object_get(e, "score"));
	cli_finish(c, CMD_EXIT_OK);
}

static void watch_game_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct watch_ctx *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	x->fetching = false;
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	watch_print_move(x->last_move);
	cli_print_board(g);
	const char *to_move = json_string_value(json_object_get(g, "to_move"));
	if (to_move && !x->ended)
		printf("%s to move\n", strcmp(to_move, "B") == 0 ? "Black" : "White");
	putchar('\n');
	fflush(stdout);
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

static void watch_observe_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct watch_ctx *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	const char *code = json_string_value(json_object_get(json_object_get(reply, "error"), "code"));
	if (c->opt->json) {
		cli_print_json(reply);
		if (!json_is_true(json_object_get(reply, "ok")))
			cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	if (code && strcmp(code, "conflict") == 0) {
		/* Over already: show the final position and the result. */
		uv_timer_stop(&c->timer);
		printf("Game %lld is over.\n", (long long)x->game);
		watch_fetch(c);
		return;
	}
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	printf("Watching game %lld: %s (Black) vs %s (White), %lldx%lld, komi %g, %s\n",
	       (long long)x->game, cli_str_or(g, "black", "?"), cli_str_or(g, "white", "?"),
	       (long long)json_integer_value(json_object_get(g, "size")),
	       (long long)json_integer_value(json_object_get(g, "size")),
	       json_number_value(json_object_get(g, "komi")), cli_str_or(g, "phase", "?"));
	cli_print_board(g);
	const char *to_move = json_string_value(json_object_get(g, "to_move"));
	if (to_move)
		printf("%s to move\n", strcmp(to_move, "B") == 0 ? "Black" : "White");
	putchar('\n');
	fflush(stdout);
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
		json_decref(x->last_move);
		x->last_move = json_incref(ev);
		watch_fetch(c);
	} else if (end) {
		x->ended = true;
		x->end = json_incref(ev);
		if (!x->fetching)
			watch_finish(c);
	} else if (strcmp(name, "game.warning") == 0) {
		printf("Warning to %s: %s (%lld warning(s))\n",
		       strcmp(cli_str_or(ev, "color", "?"), "B") == 0 ? "Black" : "White",
		       cli_str_or(ev, "reason", "?"),
		       (long long)json_integer_value(json_object_get(ev, "warnings")));
	} else if (strcmp(name, "game.counting") == 0) {
		puts("Both passed: counting (players mark dead stones).");
	} else if (strcmp(name, "game.paused") == 0) {
		printf("Paused by %s.\n", cli_str_or(ev, "by", "a director"));
	} else if (strcmp(name, "game.resume") == 0) {
		printf("Resumed%s%s; %s to move.\n", json_object_get(ev, "by") ? " by " : "",
		       cli_str_or(ev, "by", ""),
		       strcmp(cli_str_or(ev, "to_move", "?"), "B") == 0 ? "Black" : "White");
	} else if (strcmp(name, "game.begin") == 0) {
		puts("The game begins: Black's clock runs.");
	}
}

static void watch_start(struct cli *c)
{
	struct watch_ctx *x = c->ctx;
	c->no_timeout = false; /* the observe reply is bounded; events are not */
	cli_send(c, json_pack("{s:s, s:I}", "cmd", "observe", "game", x->game), watch_observe_reply);
	c->no_timeout = true;
}

int cmd_watch(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, &o, watch_usage, NULL, 0, NULL, pos, 1, &npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	struct watch_ctx x = {0};
	if (npos != 1) {
		fputs(watch_usage, stderr);
		return CMD_EXIT_USAGE;
	}
	if (cli_parse_id("GAME", pos[0], &x.game) != 0)
		return CMD_EXIT_USAGE;
	int status = cli_run(&o, o.user != NULL, watch_start, watch_event, &x);
	json_decref(x.end);
	json_decref(x.last_move);
	return status;
}
