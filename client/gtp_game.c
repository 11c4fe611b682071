/* client/gtp_game: the bridge's games, their lookup and lifetime, and its log lines. See
 * gtp.h. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gtp.h"
#include "ruleset.h"

struct bridge *gtp_bridge;

/* ---- logging ---- */

void gtp_say(const struct bridge *br, const char *fmt, ...)
{
	char stamp[16];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%H:%M:%S", &tm);
	fprintf(stderr, "%s tengen gtp [%s]: ", stamp, br->user ? br->user : "?");
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

/* ---- games: lookup, lifetime ---- */

struct game *gtp_find_game(struct bridge *br, json_int_t id)
{
	for (struct game *g = br->games; g; g = g->next)
		if (g->id == id)
			return g;
	return NULL;
}

struct game *gtp_new_game(struct bridge *br, json_int_t id)
{
	struct game *g = calloc(1, sizeof *g);
	if (!g) {
		gtp_say(br, "game %lld: out of memory", (long long)id);
		return NULL;
	}
	g->br = br;
	g->id = id;
	g->size = 19;
	strcpy(g->phase, "playing");
	uv_timer_init(br->loop, &g->closer);
	g->closer.data = g;
	g->next = br->games;
	br->games = g;
	br->ngames++;
	return g;
}

static void game_freed(uv_handle_t *h)
{
	struct game *g = h->data;
	free(g->moves);
	free(g->eng_moves);
	json_decref(g->time);
	json_decref(g->clocks);
	json_decref(g->their_dead);
	gtp_log_close_game(g);
	free(g);
}

bool gtp_ended_lately(const struct bridge *br, json_int_t id)
{
	int n = br->nended < GTP_ENDED_RING ? br->nended : GTP_ENDED_RING;
	for (int k = 0; k < n; k++)
		if (br->ended[k] == id)
			return true;
	return false;
}

void gtp_forget_ended(struct bridge *br, json_int_t id)
{
	for (int k = 0; k < GTP_ENDED_RING; k++)
		if (br->ended[k] == id)
			br->ended[k] = 0;
}

void gtp_free_game(struct game *g)
{
	struct bridge *br = g->br;
	br->ended[br->nended++ % GTP_ENDED_RING] = g->id;
	if (br->nended >= 2 * GTP_ENDED_RING)
		br->nended -= GTP_ENDED_RING;
	for (struct game **pp = &br->games; *pp; pp = &(*pp)->next)
		if (*pp == g) {
			*pp = g->next;
			br->ngames--;
			break;
		}
	engine_close(g->eng);
	g->eng = NULL;
	uv_close((uv_handle_t *)&g->closer, game_freed);
}

int gtp_push_move(struct move **arr, int *n, int *cap, char color, const char *vertex)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 64;
		struct move *m = realloc(*arr, (size_t)nc * sizeof *m);
		if (!m)
			return -1;
		*arr = m;
		*cap = nc;
	}
	struct move *m = &(*arr)[(*n)++];
	m->color = color;
	snprintf(m->vertex, sizeof m->vertex, "%s", vertex);
	return 0;
}

/* ---- a game's start and end in the log ---- */

void gtp_log_result(struct game *g, const char *result, const char *reason)
{
	const char *outcome = "";
	struct ruleset_result res; /* the prediction rules' texts include the Chinese ones */
	const struct ruleset *rs = g->prediction ? &ruleset_prediction : ruleset_default();
	if (result && rs->result_parse(result, &res) == 0 && res.winner != EMPTY)
		outcome = (res.winner == BLACK ? 'B' : 'W') == g->color ? ", won" : ", lost";
	/* a scheduled tournament game that ended "declined" was called off (its round taken
	 * back: docs/protocol.md, tournament.unpair), not declined by anyone */
	if (g->start_at > 0 && reason && strcmp(reason, "declined") == 0 && !(result && *result)) {
		gtp_say(g->br, "game %lld called off (the director took its round back) as %s "
			"against %s", (long long)g->id, g->color == 'B' ? "Black" : "White",
			g->opponent);
		return;
	}
	gtp_say(g->br, "game %lld ended: %s (%s) as %s against %s%s", (long long)g->id,
		result && *result ? result : "no result", reason && *reason ? reason : "?",
		g->color == 'B' ? "Black" : "White", g->opponent, outcome);
}

void gtp_announce(struct game *g)
{
	if (g->announced)
		return;
	g->announced = true;
	const char *sys = json_string_value(json_object_get(g->time, "system"));
	/* a scheduled game is paired now and begins at its start time (Art. 22.4) */
	char when[48] = "started";
	if (strcmp(g->phase, "scheduled") == 0 && g->start_at > 0) {
		time_t t = (time_t)g->start_at;
		struct tm tm;
		localtime_r(&t, &tm);
		strftime(when, sizeof when, "paired (starts at %H:%M:%S)", &tm);
	}
	gtp_say(g->br, "game %lld %s: %s as %s against %s, %dx%d, komi %g, handicap %d, "
		"time %s", (long long)g->id, when, g->br->user, g->color == 'B' ? "Black" : g->color == 'W'
		? "White" : g->first ? "first player (prediction rules)" : "second player (prediction rules)",
		g->opponent, g->size, g->size, g->komi, g->handicap, sys ? sys : "none");
}
