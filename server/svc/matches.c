/* matches: best-of-N pairings. See matches.h. */
#include <stdlib.h>
#include <string.h>
#include "bestof.h"
#include "director.h"
#include "games.h"
#include "log.h"
#include "panic.h"
#include "ruleset.h"
#include "svc_error.h"
#include "matches.h"

int matches_games(const struct tour *t)
{
	return tour_setting_int(t, "match_games", 0);
}

/* A game with its id, to put b's games in the order they were created. */
struct id_game {
	int64_t id;
	struct event_game g;
};

static int by_id(const void *x, const void *y)
{
	int64_t a = ((const struct id_game *)x)->id, b = ((const struct id_game *)y)->id;
	return a < b ? -1 : a > b;
}

/* b's games in creation order (the store lists them newest first): *ev is b's event with
 * its own games array (free ev->games), ids[k] the id of ev->games[k] (free it). -1: no
 * memory. */
static int chrono(const struct ev_build *b, struct event *ev, int64_t **ids)
{
	size_t n = (size_t)(b->ev.ngames > 0 ? b->ev.ngames : 1);
	struct id_game *x = calloc(n, sizeof *x);
	*ev = b->ev;
	ev->games = calloc(n, sizeof *ev->games);
	*ids = calloc(n, sizeof **ids);
	if (!x || !ev->games || !*ids) {
		free(x);
		free(ev->games);
		free(*ids);
		return -1;
	}
	for (int k = 0; k < b->ev.ngames; k++)
		x[k] = (struct id_game){b->game_ids[k], b->ev.games[k]};
	qsort(x, (size_t)b->ev.ngames, sizeof *x, by_id);
	for (int k = 0; k < b->ev.ngames; k++) {
		ev->games[k] = x[k].g;
		(*ids)[k] = x[k].id;
	}
	free(x);
	return 0;
}

static bool withdrawn_in(const struct event_player *p, int round)
{
	return p->withdrawn_before_start || (p->withdrawn_after && p->withdrawn_after < round);
}

/* Has game k a pair listed before it in round `round` (so its match was seen)? */
static bool pair_seen(const struct event *ev, int k, int round)
{
	const struct event_game *x = &ev->games[k];
	for (int j = 0; j < k; j++) {
		const struct event_game *y = &ev->games[j];
		if (y->round == round && ((y->black == x->black && y->white == x->white) ||
					  (y->black == x->white && y->white == x->black)))
			return true;
	}
	return false;
}

/* Create the next game(s) of the undecided match of a and b (a the first game's Black); a
 * withdrawn player's: forfeits until decided. Appends the pairings to pairs. Returns the games
 * created, or -1 (*e) when a game could not be created (none created before), stopping the
 * server if some were. */
static int next_of_match(struct server *srv, const struct tour *t, const struct ev_build *b,
			 const struct game_settings *gs, struct bestof *m, int a, int bb,
			 double start_at, int created, json_t *pairs, struct proto_error *e)
{
	int round = tour_round(t), n = 0;
	const struct event_player *pa = &b->ev.players[a], *pb = &b->ev.players[bb];
	bool out_a = withdrawn_in(pa, round + 1), out_b = withdrawn_in(pb, round + 1);
	do {
		bool a_black = bestof_a_black_next(m);
		const struct event_player *black = a_black ? pa : pb, *white = a_black ? pb : pa;
		int64_t gid = games_create_scheduled(srv, black->id, white->id, gs, 0, t->row.id, round,
						     tour_board(t) ? 0 : start_at);
		if (gid < 0) {
			if (created + n > 0)
				CORE_PANIC(srv->store, "what=match_game tournament=%lld round=%d",
					   (long long)t->row.id, round);
			return svc_fail(e, PROTO_ERR_INTERNAL, "round %d: a game could not be created",
					round);
		}
		n++;
		json_array_append_new(pairs, json_pack("{s:I, s:s, s:s, s:i, s:i}", "game",
			(json_int_t)gid, "black", black->name, "white", white->name, "handicap", 0,
			"match_game", m->games + 1));
		if (!out_a && !out_b)
			break;
		/* Art. 28: a withdrawn player's games are forfeits (both out: a double loss) */
		bool black_out = a_black ? out_a : out_b, white_out = a_black ? out_b : out_a;
		enum event_result r = black_out && white_out ? RESULT_DOUBLE_LOSS :
				      black_out ? RESULT_WHITE_FORFEIT_WIN : RESULT_BLACK_FORFEIT_WIN;
		games_set_result(srv, gid, r == RESULT_DOUBLE_LOSS ? ruleset_default()->result_void :
				 ruleset_default()->result_win(r == RESULT_BLACK_FORFEIT_WIN ? BLACK : WHITE,
							       RULESET_WIN_FORFEIT),
				 r == RESULT_DOUBLE_LOSS ? "double_forfeit" : "adjudicated", GAMES_UNRATED);
		if (bestof_record(m, r) != BESTOF_OK)
			break;
	} while (m->winner < 0);
	return n;
}

int matches_next_games(struct server *srv, const struct tour *t, const struct ev_build *b,
		       double start_at, struct tournament_round *out, struct proto_error *e)
{
	int round = tour_round(t), n = matches_games(t), created = 0;
	struct game_settings gs;
	if (round < 1 || n == 0)
		return 0;
	struct event ev;
	int64_t *ids;
	if (tour_game_settings(t, &gs) < 0 || chrono(b, &ev, &ids) < 0)
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the tournament");
	free(ids);
	if (!start_at)
		start_at = server_now();
	json_t *pairs = json_array();
	for (int k = 0; k < ev.ngames; k++) {
		const struct event_game *x = &ev.games[k];
		struct bestof m;
		if (x->round != round || pair_seen(&ev, k, round))
			continue;
		int rc = bestof_replay(&ev, round, x->black, x->white, n, BESTOF_DRAW_REPLAY, &m);
		if (rc == BESTOF_ELIMIT)
			continue; /* no decision within the limit: the director decides a game */
		if (rc != BESTOF_OK) {
			int xb = x->black, xw = x->white; /* x points into ev.games, freed below */
			json_decref(pairs);
			free(ev.games);
			if (created > 0)
				CORE_PANIC(srv->store, "what=match_game tournament=%lld round=%d",
					   (long long)t->row.id, round);
			return svc_fail(e, PROTO_ERR_CONFLICT, "round %d: the games of %s and %s are not "
					"a best-of-%d match: %s", round, b->ev.players[xb].name,
					b->ev.players[xw].name, n, bestof_strerror(rc));
		}
		if (m.winner >= 0)
			continue;
		int c = next_of_match(srv, t, b, &gs, &m, x->black, x->white, start_at, created, pairs, e);
		if (c < 0) {
			json_decref(pairs);
			free(ev.games);
			return -1;
		}
		created += c;
	}
	free(ev.games);
	if (created == 0) {
		json_decref(pairs);
		return 0;
	}
	log_msg(LOGL_INFO, "match_games", "tournament=%lld round=%d games=%d", (long long)t->row.id,
		round, created);
	*out = (struct tournament_round){.round = round, .start_at = start_at, .continued = true,
					 .pairings = pairs, .byes = json_array()};
	return 1;
}

/* The match of x (x's round, its two players) in ev, its games in the order they were made
 * (as bestof_replay reads them): its winner (0 the first game's Black, 1 the other, -1
 * undecided) and in *after the id (ids[]) of a game made after it was decided, or 0. */
static int match_state(const struct event *ev, const int64_t *ids, const struct event_game *x,
		       int n, int64_t *after)
{
	struct bestof m;
	bool begun = false;
	*after = 0;
	for (int k = 0; k < ev->ngames; k++) {
		const struct event_game *y = &ev->games[k];
		if (y->round != x->round || !((y->black == x->black && y->white == x->white) ||
					      (y->black == x->white && y->white == x->black)))
			continue;
		if (!begun)
			begun = bestof_init(&m, n, BESTOF_DRAW_REPLAY, true) == BESTOF_OK;
		if (!begun)
			return -1;
		if (m.winner >= 0) {
			*after = ids[k];
			break;
		}
		if (y->result == RESULT_NONE || bestof_record(&m, y->result) != BESTOF_OK)
			break; /* unplayed yet, or past what a match can hold: not this check's */
	}
	return begun ? m.winner : -1;
}

int matches_result_fits(struct server *srv, const struct tour *t, int64_t game,
			const char *result, const char *reason, struct proto_error *e)
{
	int n = matches_games(t), rc = 0, k0 = -1;
	if (n == 0)
		return 0;
	struct ev_build b;
	struct event ev;
	int64_t *ids;
	if (tour_ev_build(srv, t, &b) < 0)
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the tournament");
	if (chrono(&b, &ev, &ids) < 0) {
		tour_ev_free(&b);
		return svc_fail(e, PROTO_ERR_INTERNAL, "out of memory");
	}
	for (int k = 0; k < ev.ngames && k0 < 0; k++)
		if (ids[k] == game)
			k0 = k;
	if (k0 >= 0) {
		int64_t after_then, after;
		const struct event_game *x = &ev.games[k0];
		int then = match_state(&ev, ids, x, n, &after_then);
		struct store_game as = {0}; /* the result as the standings would read it */
		snprintf(as.phase, sizeof as.phase, "ended");
		snprintf(as.result, sizeof as.result, "%s", result);
		snprintf(as.reason, sizeof as.reason, "%s", reason ? reason : "adjudicated");
		ev.games[k0].result = tour_result_of(&as);
		int now = match_state(&ev, ids, x, n, &after);
		const char *pa = b.ev.players[x->black].name, *pb = b.ev.players[x->white].name;
		if (now >= 0 && after)
			rc = svc_fail(e, PROTO_ERR_CONFLICT, "with %s, game %lld would decide the "
				      "best-of-%d match of %s and %s before game %lld, which was "
				      "paired because it was still open: a match game's result can "
				      "change only where the match goes on as it did", result,
				      (long long)game, n, pa, pb, (long long)after);
		else if (then >= 0 && now < 0 && x->round < tour_round(t))
			rc = svc_fail(e, PROTO_ERR_CONFLICT, "with %s, game %lld would leave the "
				      "best-of-%d match of %s and %s of round %d undecided, and round "
				      "%d was paired from it: a match game's result can change only "
				      "where the match goes on as it did", result, (long long)game, n,
				      pa, pb, x->round, x->round + 1);
	}
	free(ev.games);
	free(ids);
	tour_ev_free(&b);
	return rc;
}

int matches_reduce(const struct tour *t, struct ev_build *b)
{
	int n = matches_games(t), nout = 0;
	if (n == 0)
		return 0;
	size_t cap = (size_t)(b->ev.ngames > 0 ? b->ev.ngames : 1);
	struct event ev;
	int64_t *cids;
	if (chrono(b, &ev, &cids) < 0)
		return -1;
	struct event_game *g = calloc(cap, sizeof *g);
	int64_t *ids = calloc(cap, sizeof *ids);
	if (!g || !ids || bestof_reduce(&ev, n, BESTOF_DRAW_REPLAY, g, &nout) != BESTOF_OK) {
		free(g);
		free(ids);
		free(ev.games);
		free(cids);
		return -1;
	}
	for (int i = 0; i < nout; i++) /* each match's first game */
		for (int k = 0; k < ev.ngames; k++) {
			const struct event_game *x = &ev.games[k];
			if (x->round == g[i].round && x->black == g[i].black && x->white == g[i].white) {
				ids[i] = cids[k];
				break;
			}
		}
	free(ev.games);
	free(cids);
	free(b->ev.games);
	free(b->game_ids);
	b->ev.games = g;
	b->game_ids = ids;
	b->ev.ngames = nout;
	return 0;
}
