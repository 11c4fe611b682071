/* ratings: see ratings.h. */
#include <stdlib.h>
#include <string.h>
#include "ratings.h"
#include "log.h"
#include "panic.h"
#include "rating.h"
#include "ruleset.h"
#include "tour.h"

/* Reasons of a game decided on the board (issue 7). */
static const char *const board_reasons[] = { "resignation", "time", "score", "warnings",
	"illegal", "adjudicated", NULL };

static void store_failed(struct server *srv, const char *what)
{
	log_msg(LOGL_ERROR, "ratings", "what=%s error=\"%s\"", what, store_errmsg(srv->store));
}

bool ratings_game_counts(const struct store_game *g, double *score_black)
{
	double score;
	bool board = false;
	if (!g->rated || strcmp(g->phase, "ended") != 0)
		return false;
	for (const char *const *r = board_reasons; *r; r++)
		if (strcmp(g->reason, *r) == 0)
			board = true;
	if (!board)
		return false;
	struct ruleset_result res;
	if (ruleset_find(tour_game_ruleset(g))->result_parse(g->result, &res) < 0)
		return false;
	/* a forfeit (B+F, W+F) was not played unless lost on the board by warnings or an
	 * illegal move: an admin's forfeit of a casual game, a director's of a tournament
	 * game, moves no rating (the h9 marks such a game `!`) */
	if (tour_unplayed_forfeit(&res, g->reason))
		return false;
	if (res.draw)
		score = 0.5;
	else if (res.winner == BLACK)
		score = 1;
	else if (res.winner == WHITE)
		score = 0;
	else
		return false; /* "Void" */
	if (score_black)
		*score_black = score;
	return true;
}

int ratings_rank_check(const char *rank, char out[STORE_RANK_SIZE])
{
	int v;
	char buf[RANK_STR_MAX];
	if (!rank || rank_parse(rank, &v) != RATING_OK || v < RANK_DECLARED_MIN || v > RANK_MAX ||
	    rank_format(v, buf, sizeof buf) != RATING_OK || strlen(buf) >= STORE_RANK_SIZE)
		return -1;
	memcpy(out, buf, strlen(buf) + 1);
	return 0;
}

/* The rank text of a rating ("5k", "5k?" while provisional); "" if it cannot be shown. */
static void rank_text(double rating, double rd, char out[RANK_STR_MAX])
{
	if (rating_to_rank(rating, rd, out, RANK_STR_MAX) != RATING_OK)
		out[0] = '\0';
}

/* ---- Rating one game ---- */

/* The player's stored rating, grown by the idle periods from their last rated game to `at`. */
static int before_game(const struct store_player *p, double at, struct rating *r)
{
	r->rating = p->rating;
	r->rd = p->rd;
	r->volatility = p->volatility;
	if (p->last_rated_at > 0 && at > p->last_rated_at)
		return rating_idle(r, (at - p->last_rated_at) / RATING_IDLE_PERIOD_SECONDS);
	return RATING_OK;
}

/* Write one player's new rating and its history row. */
static int write_change(struct server *srv, const struct store_player *p,
			const struct store_game *g, const struct rating *after)
{
	struct store_rating_change c = {
		.player_id = p->id, .game_id = g->id,
		.rating_before = p->rating, .rd_before = p->rd, .volatility_before = p->volatility,
		.rating = after->rating, .rd = after->rd, .volatility = after->volatility,
		.at = g->ended_at,
	};
	if (store_player_set_rated(srv->store, p->id, after->rating, after->rd, after->volatility,
				   g->ended_at) != STORE_OK ||
	    store_rating_change_add(srv->store, &c, NULL) != STORE_OK)
		CORE_PANIC(srv->store, "what=rating_change player=%lld game=%lld", (long long)p->id,
			   (long long)g->id);
	return 0;
}

/* Rate game *g (which counts, Black scoring score_black) from the players' stored values. */
static int rate_game(struct server *srv, const struct store_game *g, double score_black)
{
	struct store_player b, w;
	struct rating rb, rw;
	int rc;
	if (g->ended_at <= 0) {
		log_msg(LOGL_WARN, "ratings", "game=%lld ended without ended_at: not rated",
			(long long)g->id);
		return 0;
	}
	if (store_player_by_id(srv->store, g->black_id, &b) != STORE_OK ||
	    store_player_by_id(srv->store, g->white_id, &w) != STORE_OK) {
		store_failed(srv, "players of game");
		return -1;
	}
	int handicap = g->handicap > RATING_HANDICAP_MAX ? RATING_HANDICAP_MAX : g->handicap;
	if ((rc = before_game(&b, g->ended_at, &rb)) != RATING_OK ||
	    (rc = before_game(&w, g->ended_at, &rw)) != RATING_OK ||
	    (rc = rating_update_handicap(&rb, &rw, score_black, handicap)) != RATING_OK) {
		log_msg(LOGL_ERROR, "ratings", "game=%lld error=\"%s\"", (long long)g->id,
			rating_strerror(rc));
		return -1;
	}
	if (write_change(srv, &b, g, &rb) < 0 || write_change(srv, &w, g, &rw) < 0)
		return -1;
	return 0;
}

/* ---- game.end ---- */

/* 1 if either player of *g has been rated at or after g's ended_at, 0 if not, -1 on error. */
static int later_games(struct server *srv, const struct store_game *g)
{
	struct store_player b, w;
	if (store_player_by_id(srv->store, g->black_id, &b) != STORE_OK ||
	    store_player_by_id(srv->store, g->white_id, &w) != STORE_OK) {
		store_failed(srv, "players of game");
		return -1;
	}
	return b.last_rated_at >= g->ended_at || w.last_rated_at >= g->ended_at;
}

struct event_ctx {
	const struct store_game *g;
	json_t *ratings;
};

static int add_event_change(void *ctx, const struct store_rating_change *c)
{
	struct event_ctx *e = ctx;
	char rank[RANK_STR_MAX];
	const char *color = c->player_id == e->g->black_id ? "B"
			  : c->player_id == e->g->white_id ? "W" : NULL;
	if (!color)
		return 0;
	rank_text(c->rating, c->rd, rank);
	json_object_set_new(e->ratings, color, json_pack("{s:f, s:f, s:f, s:f, s:s}", "before",
		c->rating_before, "after", c->rating, "rd_before", c->rd_before, "rd", c->rd, "rank",
		rank));
	return 0;
}

int ratings_game_ended(struct server *srv, int64_t game_id, json_t *end_event)
{
	struct store_game g;
	double score;
	int rc = 0;
	size_t changed = 0;
	server_txn(srv);
	if (store_game_get(srv->store, game_id, &g) != STORE_OK) {
		store_failed(srv, "game");
		return -1;
	}
	struct event_ctx e = { &g, json_object() };
	if (store_rating_changes_of_game(srv->store, game_id, add_event_change, &e) != STORE_OK) {
		store_failed(srv, "changes of game");
		rc = -1;
		goto out;
	}
	changed = json_object_size(e.ratings);
	if (changed > 0) {
		rc = ratings_recompute(srv, game_id); /* a changed result */
	} else if (ratings_game_counts(&g, &score)) {
		/* A result given to an old game (e.g. a forfeit turned into a win) after either
		 * player's later rated games: those must be replayed after it. */
		if ((rc = later_games(srv, &g)) > 0)
			rc = ratings_recompute(srv, game_id);
		else if (rc == 0)
			rc = rate_game(srv, &g, score);
	} else {
		goto out;
	}
	if (rc < 0)
		goto out;
	json_object_clear(e.ratings);
	if (store_rating_changes_of_game(srv->store, game_id, add_event_change, &e) != STORE_OK) {
		store_failed(srv, "changes of game");
		rc = -1;
		goto out;
	}
	if (end_event && json_object_size(e.ratings) > 0)
		json_object_set(end_event, "ratings", e.ratings);
	log_msg(LOGL_INFO, "rated", "game=%lld", (long long)game_id);
out:
	json_decref(e.ratings);
	store_game_clear(&g);
	return rc;
}

/* ---- Recompute ---- */

struct replay_ctx {
	struct server *srv;
	int rc;
	size_t games;
};

static int replay_game(void *ctx, const struct store_game *g)
{
	struct replay_ctx *r = ctx;
	double score;
	if (!ratings_game_counts(g, &score))
		return 0;
	if (rate_game(r->srv, g, score) < 0) {
		r->rc = -1;
		return 1;
	}
	r->games++;
	return 0;
}

/* The earliest `at` among a game's rating changes. */
static int earliest_change(void *ctx, const struct store_rating_change *c)
{
	double *at = ctx;
	if (*at <= 0 || c->at < *at)
		*at = c->at;
	return 0;
}

int ratings_recompute(struct server *srv, int64_t from_game_id)
{
	double at = 0;
	int64_t id = 0;
	server_txn(srv);
	if (from_game_id) {
		struct store_game g;
		double hist_at = 0;
		if (store_game_get(srv->store, from_game_id, &g) != STORE_OK ||
		    store_rating_changes_of_game(srv->store, from_game_id, earliest_change,
						 &hist_at) != STORE_OK) {
			store_failed(srv, "recompute from game");
			return -1;
		}
		at = g.ended_at;
		store_game_clear(&g);
		if (hist_at > 0 && (at <= 0 || hist_at < at))
			at = hist_at;
		if (at <= 0)
			return 0; /* not ended and never rated: nothing depends on it */
		id = from_game_id;
	}
	if (store_ratings_rewind(srv->store, at, id) != STORE_OK)
		CORE_PANIC(srv->store, "what=ratings_rewind from_game=%lld", (long long)from_game_id);
	struct replay_ctx r = { srv, 0, 0 };
	if (store_rated_games(srv->store, at, id, replay_game, &r) != STORE_OK) {
		store_failed(srv, "rated games");
		return -1;
	}
	if (r.rc == 0)
		log_msg(LOGL_INFO, "ratings_recompute", "from_game=%lld games=%zu",
			(long long)from_game_id, r.games);
	return r.rc;
}

/* ---- Accounts ---- */

int ratings_declare_rank(struct server *srv, int64_t player_id, const char *rank)
{
	char canon[STORE_RANK_SIZE];
	int v;
	struct rating r;
	if (ratings_rank_check(rank, canon) < 0 || rank_parse(canon, &v) != RATING_OK ||
	    rating_init_rank(&r, v) != RATING_OK)
		return -2;
	server_txn(srv);
	enum store_rc rc = store_player_set_start(srv->store, player_id, canon, r.rating, r.rd,
						  r.volatility);
	if (rc == STORE_CONFLICT || rc == STORE_NOT_FOUND) { /* rated already, or no such player */
		/* the client's refusal (conflict), not the server's fault: not an error line */
		log_msg(LOGL_DEBUG, "ratings", "what=declared_rank player=%lld refused=\"%s\"",
			(long long)player_id, store_errmsg(srv->store));
		return -1;
	}
	if (rc != STORE_OK)
		CORE_PANIC(srv->store, "what=declared_rank player=%lld", (long long)player_id);
	return 0;
}

/* Player `id`'s name as views show it: an entrant's (no account) as the director entered it
 * (its full name), anyone else's account name `name` (docs/protocol.md, tournament.register
 * `entrant`: the account name of an entrant is internal). */
static const char *shown_name(struct server *srv, int64_t id, const char *name,
			      struct store_profile *prof)
{
	if (store_profile_get(srv->store, id, prof) == STORE_OK && prof->entrant && prof->full_name[0])
		return prof->full_name;
	return name;
}

json_t *ratings_player_brief(struct server *srv, int64_t player_id)
{
	struct store_profile prof;
	struct store_player p;
	char rank[RANK_STR_MAX];
	enum store_rc rc = store_player_by_id(srv->store, player_id, &p);
	if (rc != STORE_OK) {
		if (rc != STORE_NOT_FOUND)
			store_failed(srv, "player brief");
		return NULL;
	}
	rank_text(p.rating, p.rd, rank);
	return json_pack("{s:s, s:f, s:f, s:s}", "name", shown_name(srv, player_id, p.name, &prof),
			 "rating", p.rating, "rd", p.rd, "rank", rank);
}

static int add_leader(void *ctx, const struct store_leaderboard_row *row)
{
	json_t *arr = ctx;
	char rank[RANK_STR_MAX];
	const struct store_player *p = &row->player;
	rank_text(p->rating, p->rd, rank);
	json_array_append_new(arr, json_pack("{s:s, s:s, s:f, s:f, s:i, s:o}", "name", p->name,
		"rank", rank, "rating", p->rating, "rd", p->rd, "games", row->games, "last_played",
		row->last_played > 0 ? json_real(row->last_played) : json_null()));
	return 0;
}

json_t *ratings_leaderboard(struct server *srv, enum store_leaderboard_sort sort, int limit)
{
	json_t *arr = json_array();
	if (store_leaderboard(srv->store, sort, limit, add_leader, arr) != STORE_OK) {
		store_failed(srv, "leaderboard");
		json_decref(arr);
		return NULL;
	}
	return arr;
}

/* ---- Profile ---- */

struct history_ctx {
	json_t *arr;
	size_t total;
};

static int add_history(void *ctx, const struct store_rating_change *c)
{
	struct history_ctx *h = ctx;
	h->total++;
	json_array_append_new(h->arr, json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "game",
		(json_int_t)c->game_id, "at", c->at, "rating_before", c->rating_before, "rating",
		c->rating, "rd_before", c->rd_before, "rd", c->rd));
	if (json_array_size(h->arr) > RATINGS_HISTORY_MAX)
		json_array_remove(h->arr, 0);
	return 0;
}

struct recent_ctx {
	struct server *srv;
	int64_t player_id;
	json_t *arr;
	int rc;
};

static int add_recent(void *ctx, const struct store_game *g)
{
	struct recent_ctx *r = ctx;
	struct store_player opp;
	struct store_profile prof;
	bool black = g->black_id == r->player_id;
	int64_t opp_id = black ? g->white_id : g->black_id;
	if (store_player_by_id(r->srv->store, opp_id, &opp) != STORE_OK) {
		r->rc = -1;
		return 1;
	}
	json_array_append_new(r->arr, json_pack("{s:I, s:s, s:s, s:o, s:o, s:b, s:o}", "id",
		(json_int_t)g->id, "opponent", shown_name(r->srv, opp_id, opp.name, &prof), "color", black ? "B" : "W", "result",
		g->result[0] ? json_string(g->result) : json_null(), "reason",
		g->reason[0] ? json_string(g->reason) : json_null(), "rated", g->rated, "ended_at",
		g->ended_at > 0 ? json_real(g->ended_at) : json_null()));
	return 0;
}

int ratings_profile(struct server *srv, const struct store_player *p, json_t *profile)
{
	struct history_ctx h = { json_array(), 0 };
	struct recent_ctx r = { srv, p->id, json_array(), 0 };
	struct store_games_filter f = { "ended", p->id, 0, RATINGS_RECENT_GAMES, 0 };
	int rc = 0;
	if (store_rating_history(srv->store, p->id, add_history, &h) != STORE_OK ||
	    store_games_list(srv->store, &f, add_recent, &r) != STORE_OK || r.rc < 0) {
		store_failed(srv, "profile");
		rc = -1;
	} else {
		json_t *player = json_object_get(profile, "player");
		if (json_is_object(player))
			json_object_set_new(player, "games", json_integer((json_int_t)h.total));
		json_object_set(profile, "history", h.arr);
		json_object_set(profile, "recent_games", r.arr);
		json_object_set_new(profile, "tournaments", json_array()); /* the caller's to fill */
	}
	json_decref(h.arr);
	json_decref(r.arr);
	return rc;
}
