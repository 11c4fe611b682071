/* td_sgf: `tengen td export T --format sgf -o DIR`: every ended game of a tournament (or of
 * one round) as an SGF file of its own in DIR, as the server writes it (`sgf`,
 * docs/protocol.md; FF[4], SGF's own specification). The games are listed with `games
 * {tournament}` (pages of TD_SGF_PAGE, docs/protocol.md "games"), then fetched one at a time. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cli_run.h"
#include "commands.h"
#include "td.h"

#define TD_SGF_PAGE 1000     /* games a listing page (the server's most) */
#define TD_SGF_PATH_MAX 4096 /* a file's path: the directory and "roundR-gameN.sgf" */

struct sgf_run {
	json_int_t tournament;
	long round;          /* 0: every round */
	const char *dir;
	json_t *todo;        /* [{id, round}]: the ended games to fetch, newest first (as listed) */
	size_t next;
	int written;
	json_t *live;        /* ids of games of those rounds not ended yet */
};

static void list_page(struct cli *c, json_int_t before);

/* The file of game `id` of round `round` in the directory: "round1-game7.sgf". */
static int sgf_path(const struct sgf_run *x, long long round, long long id, char *out, size_t n)
{
	int k = snprintf(out, n, "%s/round%lld-game%lld.sgf", x->dir, round, id);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

static void report(struct cli *c)
{
	struct sgf_run *x = c->ctx;
	printf("wrote %d SGF file%s to %s\n", x->written, x->written == 1 ? "" : "s", x->dir);
	if (json_array_size(x->live) > 0) {
		char ids[256] = "";
		size_t len = 0, i;
		json_t *v;
		json_array_foreach(x->live, i, v) {
			if (len + 24 >= sizeof ids) {
				snprintf(ids + len, sizeof ids - len, ", ...");
				break;
			}
			len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%lld", i ? ", " : "",
						(long long)json_integer_value(v));
		}
		cli_errorf("note: %zu game%s not ended yet, not written (%s)", json_array_size(x->live),
			   json_array_size(x->live) == 1 ? "" : "s", ids);
	}
	cli_finish(c, c->status);
}

static void fetch_next(struct cli *c);

static void sgf_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct cli *c = CLI_OF(arg);
	struct sgf_run *x = c->ctx;
	if (!reply)
		return; /* the session says why and ends the run */
	json_t *g = json_array_get(x->todo, json_array_size(x->todo) - 1 - x->next++);
	if (cli_reply_ok(c, reply)) { /* else said, the status is REFUSED: go on with the rest */
		char path[TD_SGF_PATH_MAX];
		const char *sgf = json_string_value(json_object_get(reply, "sgf"));
		long long id = (long long)json_integer_value(json_object_get(g, "id"));
		if (!sgf || sgf_path(x, (long long)json_integer_value(json_object_get(g, "round")), id,
				     path, sizeof path) != 0) {
			cli_errorf("game %lld: %s", id, !sgf ? "no record in the reply" :
				   "the directory's name is too long");
			cli_finish(c, CMD_EXIT_FAILURE);
			return;
		}
		FILE *f = fopen(path, "w");
		bool ok = f && fputs(sgf, f) >= 0;
		int err = errno;
		if (f && fclose(f) != 0 && ok) {
			ok = false;
			err = errno;
		}
		if (!ok) {
			cli_errorf("game %lld: cannot write %s: %s (%d file%s written before it)", id,
				   path, strerror(err), x->written, x->written == 1 ? "" : "s");
			cli_finish(c, CMD_EXIT_FAILURE);
			return;
		}
		x->written++;
	}
	fetch_next(c);
}

static void fetch_next(struct cli *c)
{
	struct sgf_run *x = c->ctx;
	if (x->next >= json_array_size(x->todo)) {
		report(c);
		return;
	}
	/* oldest first, as the games were played: the listing is newest first */
	json_t *g = json_array_get(x->todo, json_array_size(x->todo) - 1 - x->next);
	cli_send(c, json_pack("{s:s, s:O}", "cmd", "sgf", "game", json_object_get(g, "id")),
		 sgf_reply);
}

/* A game of the listing: one to fetch (ended, not called off), one still being played, or
 * neither (another round; a called-off game, which is in no round). */
static void take(struct sgf_run *x, const json_t *g)
{
	json_int_t round = json_integer_value(json_object_get(g, "round"));
	const char *phase = json_string_value(json_object_get(g, "phase"));
	const char *reason = json_string_value(json_object_get(g, "reason"));
	if (round < 1 || (x->round && round != x->round) || !phase)
		return;
	if (strcmp(phase, "ended") != 0) {
		json_array_append_new(x->live, json_integer(json_integer_value(json_object_get(g, "id"))));
		return;
	}
	if (reason && (strcmp(reason, "declined") == 0 || strcmp(reason, "expired") == 0))
		return; /* called off (td unpair, a pair edit): replaced by another game */
	json_array_append_new(x->todo, json_pack("{s:O, s:I}", "id", json_object_get(g, "id"),
						 "round", round));
}

static void list_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct cli *c = CLI_OF(arg);
	struct sgf_run *x = c->ctx;
	if (!reply)
		return;
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	size_t i;
	json_t *g;
	json_array_foreach(json_object_get(reply, "games"), i, g)
		take(x, g);
	json_t *next = json_object_get(reply, "next");
	if (json_is_integer(next)) {
		list_page(c, json_integer_value(next));
		return;
	}
	fetch_next(c);
}

static void list_page(struct cli *c, json_int_t before)
{
	struct sgf_run *x = c->ctx;
	json_t *req = json_pack("{s:s, s:I, s:i}", "cmd", "games", "tournament", x->tournament,
				"limit", TD_SGF_PAGE);
	if (req && before > 0)
		json_object_set_new(req, "before", json_integer(before));
	cli_send(c, req, list_reply);
}

static void start(struct cli *c)
{
	list_page(c, 0);
}

int td_sgf_run(const struct cli_opts *o, json_int_t tournament, long round, const char *dir)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		cli_errorf("td export: cannot make the directory %s: %s", dir, strerror(errno));
		return CMD_EXIT_FAILURE;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cli_errorf("td export: %s is not a directory (--format sgf writes a file per game "
			   "into -o DIR)", dir);
		return CMD_EXIT_USAGE;
	}
	struct sgf_run x = {.tournament = tournament, .round = round, .dir = dir,
			    .todo = json_array(), .live = json_array()};
	int r = CMD_EXIT_FAILURE;
	if (x.todo && x.live)
		r = cli_run(o, true, start, NULL, &x);
	else
		cli_errorf("out of memory");
	json_decref(x.todo);
	json_decref(x.live);
	return r;
}
