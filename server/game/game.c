/* game: one game's state below everything else of the game layer: freeing it, colours and
 * offences as players read them, the clocks' arithmetic and their JSON, a score and claims as
 * JSON, the pending challenges among the live games. See game.h. */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "vertex.h"

void game_release(struct game *g)
{
	if (g->started)
		referee_free(&g->ref);
	store_game_clear(&g->row);
	free(g->own_moves);
	free(g->obs);
	free(g);
}

static void on_timer_closed(uv_handle_t *h)
{
	game_release(h->data);
}

/* Free a game; one with a timer goes once the timer's handle has closed. */
struct game *game_alloc(void)
{
	struct game *g = calloc(1, sizeof *g);
	if (g) {
		g->rs = ruleset_default();
		g->first_col = BLACK; /* seed 000: the first player's column until the colours */
	}
	return g;
}

void game_free(struct game *g)
{
	if (!g)
		return;
	if (g->has_timer) {
		g->has_timer = false;
		uv_close((uv_handle_t *)&g->timer, on_timer_closed);
	} else {
		game_release(g);
	}
}

enum color game_color_of(const struct game *g, int64_t player_id)
{
	return player_id == g->row.black_id ? BLACK : player_id == g->row.white_id ? WHITE : EMPTY;
}

const char *game_color_name(enum color c)
{
	return c == BLACK ? "B" : "W";
}

/* An offence as players say it (messages and SGF comments; the wire `reason` keeps the code). */
const char *game_offence_text(enum offence o)
{
	switch (o) {
	case OFFENCE_OCCUPIED: return "the point is occupied";
	case OFFENCE_SUICIDE: return "suicide";
	case OFFENCE_SUPERKO: return "the move repeats a position (ko)";
	case OFFENCE_NOT_YOUR_TURN: return "a move out of turn";
	case OFFENCE_NO_PASS: return "a pass in the opening (seed 000, Art. 5.2)";
	default: return "illegal";
	}
}

/* ---- the live games of each player ---- */

#define GAME_LIST_INITIAL 4 /* a player's list's first capacity; doubles as it fills */

/* One player's live games, in the order they went live (so by id, as a restart loads them). */
struct game_list {
	size_t n, cap;
	struct game *g[];
};

static int list_add(struct server *srv, int64_t id, struct game *g)
{
	void **ref = idmap_ref(&srv->player_games, id);
	struct game_list *l = ref ? *ref : NULL;
	if (!l) {
		l = malloc(sizeof *l + GAME_LIST_INITIAL * sizeof l->g[0]);
		if (!l)
			return -1;
		l->n = 0;
		l->cap = GAME_LIST_INITIAL;
		if (idmap_put(&srv->player_games, id, l) < 0) {
			free(l);
			return -1;
		}
	} else if (l->n == l->cap) {
		struct game_list *nl = realloc(l, sizeof *nl + 2 * l->cap * sizeof nl->g[0]);
		if (!nl)
			return -1;
		nl->cap *= 2;
		*ref = l = nl;
	}
	l->g[l->n++] = g;
	return 0;
}

static void list_del(struct server *srv, int64_t id, const struct game *g)
{
	struct game_list *l = idmap_get(&srv->player_games, id);
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (l->g[i] == g) {
			memmove(&l->g[i], &l->g[i + 1], (l->n - i - 1) * sizeof l->g[0]);
			l->n--;
			break;
		}
	if (l->n == 0) {
		idmap_del(&srv->player_games, id);
		free(l);
	}
}

int game_index_add(struct server *srv, struct game *g)
{
	if (g->indexed[0])
		return 0;
	int64_t b = g->row.black_id, w = g->row.white_id;
	if (list_add(srv, b, g) < 0)
		return -1;
	if (w != b && list_add(srv, w, g) < 0) {
		list_del(srv, b, g);
		return -1;
	}
	g->indexed[0] = b;
	g->indexed[1] = w;
	return 0;
}

void game_index_del(struct server *srv, struct game *g)
{
	if (!g->indexed[0])
		return;
	list_del(srv, g->indexed[0], g);
	if (g->indexed[1] != g->indexed[0])
		list_del(srv, g->indexed[1], g);
	g->indexed[0] = g->indexed[1] = 0;
}

struct game *const *game_index_of(struct server *srv, int64_t id, size_t *n)
{
	const struct game_list *l = idmap_get(&srv->player_games, id);
	*n = l ? l->n : 0;
	return l ? l->g : NULL;
}

void game_index_free(struct server *srv)
{
	for (size_t i = 0; i < srv->player_games.cap; i++)
		if (srv->player_games.slots[i].key)
			free(srv->player_games.slots[i].val);
	idmap_free(&srv->player_games);
	for (size_t i = 0; i < srv->challenge_rate.cap; i++)
		if (srv->challenge_rate.slots[i].key)
			free(srv->challenge_rate.slots[i].val);
	idmap_free(&srv->challenge_rate);
}

/* A challenger's last GAMES_CHALLENGES_PER_WINDOW challenges, Unix seconds, a ring
 * (srv->challenge_rate): the limit holds in every window of GAMES_CHALLENGE_WINDOW_S seconds,
 * not per clock minute (a trial made 120 challenges in 20 s across a minute's turn). */
struct challenge_count {
	double at[GAMES_CHALLENGES_PER_WINDOW];
	unsigned n, next; /* how many of at[] are used; the oldest (the next to replace) */
};

int game_challenge_take(struct server *srv, int64_t id, double now)
{
	struct challenge_count *c = idmap_get(&srv->challenge_rate, id);
	if (!c) {
		if (!(c = calloc(1, sizeof *c)) || idmap_put(&srv->challenge_rate, id, c) < 0) {
			free(c);
			return -1;
		}
	}
	if (c->n < GAMES_CHALLENGES_PER_WINDOW) {
		c->at[c->n++] = now;
		return 0;
	}
	double oldest = c->at[c->next];
	if (now - oldest < GAMES_CHALLENGE_WINDOW_S) {
		int wait = (int)ceil(oldest + GAMES_CHALLENGE_WINDOW_S - now);
		return wait > 0 ? wait : 1;
	}
	c->at[c->next] = now;
	c->next = (c->next + 1) % GAMES_CHALLENGES_PER_WINDOW;
	return 0;
}

/* Pending challenges player `id` made (`sent`) or received. */
size_t game_pending_count(struct server *srv, int64_t id, bool sent)
{
	size_t n = 0, k;
	struct game *const *mine = game_index_of(srv, id, &k);
	for (size_t i = 0; i < k; i++) {
		const struct game *g = mine[i];
		if (g->ref.phase == PHASE_PENDING &&
		    (sent ? g->row.challenger_id == id
			  : g->row.challenger_id != id && game_color_of(g, id) != EMPTY))
			n++;
	}
	return n;
}

static int game_id_cmp(const void *a, const void *b)
{
	int64_t x = (*(struct game *const *)a)->id, y = (*(struct game *const *)b)->id;
	return x < y ? -1 : x > y;
}

/* The pending challenges of player `id`, sent and received, oldest first: a malloc'd array
 * (NULL when there are none or memory runs out) of *n games. */
struct game **game_pending_of(struct server *srv, int64_t id, size_t *n)
{
	size_t k = 0, cap = 0, m;
	struct game **a = NULL;
	struct game *const *mine = game_index_of(srv, id, &m);
	*n = 0;
	for (size_t i = 0; i < m; i++) {
		struct game *g = mine[i];
		if (g->ref.phase != PHASE_PENDING || game_color_of(g, id) == EMPTY)
			continue;
		if (k == cap) {
			cap = cap ? cap * 2 : 16;
			struct game **na = realloc(a, cap * sizeof *na);
			if (!na) {
				free(a);
				return NULL;
			}
			a = na;
		}
		a[k++] = g;
	}
	if (k)
		qsort(a, k, sizeof *a, game_id_cmp);
	*n = k;
	return a;
}

/* ---- clocks ---- */

/* Does a turn's time run: the player to move's in play, or in the prediction rules' opening the
 * placer's (its placements are charged to the main clock: docs/rules.md, seed 000 Art. 5.2)? */
static bool turn_time_runs(const struct game *g)
{
	return g->started && !g->paused && g->cc.system != CLOCK_NONE &&
	       (g->ref.phase == PHASE_PLAYING || g->ref.phase == PHASE_OPENING);
}

bool game_clock_running(const struct game *g)
{
	return turn_time_runs(g) && g->ref.phase == PHASE_PLAYING;
}

/* ms the player to move had used this turn at `at` (fairclock_fair_ms time: the loop's stalls
 * are not counted); a time before the turn started counts as its start. */
int64_t game_turn_elapsed_at(const struct game *g, uint64_t at)
{
	return g->turn_used + (turn_time_runs(g) && at > g->turn_start ? (int64_t)(at - g->turn_start) : 0);
}

/* ms the player to move has used this turn. */
int64_t game_flag_grace_ms(const struct game *g, enum color col)
{
	return server_player_lag_ms(g->srv, col == BLACK ? g->row.black_id : g->row.white_id);
}

bool game_flag_fallen(const struct game *g, enum color col, struct clock_state *at)
{
	int64_t used = game_turn_elapsed(g);
	if (clock_peek(&g->cc, &g->clk[col], used, at) != CLOCK_FLAG)
		return false; /* the bare deadline not reached: no getsockopt */
	used -= game_flag_grace_ms(g, col);
	struct clock_state credited;
	return clock_peek(&g->cc, &g->clk[col], used > 0 ? used : 0, &credited) == CLOCK_FLAG;
}

int64_t game_turn_elapsed(const struct game *g)
{
	return game_turn_elapsed_at(g, fairclock_fair_ms(g->srv));
}

int64_t game_count_left_ms(const struct game *g)
{
	unsigned limit = g->srv->set.counting_timeout_s;
	if (g->ref.phase != PHASE_COUNTING || g->paused || !limit)
		return -1;
	uint64_t now = fairclock_fair_ms(g->srv), end = g->count_since + (uint64_t)limit * 1000;
	return end > now ? (int64_t)(end - now) : 0;
}

/* The player to move's clock starts (again) now. */
void game_turn_restart(struct game *g)
{
	g->turn_start = fairclock_fair_ms(g->srv);
	g->turn_used = 0;
	/* after a restart, a player not back yet: their clock waits (game_turn_hold) */
	enum color c = g->ref.board.to_move;
	if (g->hold_until > g->turn_start && (c == BLACK || c == WHITE) && !g->back[c])
		g->turn_start = g->hold_until;
}

void game_turn_hold(struct game *g, int64_t ms)
{
	if (ms <= 0)
		return;
	g->hold_until = fairclock_fair_ms(g->srv) + (uint64_t)ms;
	g->back[BLACK] = g->back[WHITE] = false;
	if (turn_time_runs(g))
		g->turn_start = g->hold_until;
}

int64_t game_turn_held_ms(const struct game *g)
{
	if (!g->srv || !turn_time_runs(g))
		return 0;
	uint64_t now = fairclock_fair_ms(g->srv);
	return g->turn_start > now ? (int64_t)(g->turn_start - now) : 0;
}

bool game_turn_release(struct game *g, enum color c)
{
	g->back[c] = true;
	if (c != g->ref.board.to_move || !game_turn_held_ms(g))
		return false;
	g->turn_start = fairclock_fair_ms(g->srv);
	return true;
}

void game_control_from_time(const struct proto_time *t, struct clock_control *cc)
{
	static const enum clock_system sys[] = {
		[PROTO_TIME_NONE] = CLOCK_NONE, [PROTO_TIME_ABSOLUTE] = CLOCK_ABSOLUTE,
		[PROTO_TIME_BYOYOMI] = CLOCK_BYOYOMI, [PROTO_TIME_CANADIAN] = CLOCK_CANADIAN,
		[PROTO_TIME_FISCHER] = CLOCK_FISCHER};
	memset(cc, 0, sizeof *cc);
	cc->system = sys[t->system];
	cc->main_ms = t->main_ms;
	cc->periods = t->periods;
	cc->period_ms = t->period_ms;
	cc->stones = t->stones;
	cc->carry = t->carry;
	cc->increment_ms = t->increment_ms;
	cc->max_ms = t->max_ms;
}

static json_t *clock_state_json(const struct clock_control *cc, const struct clock_state *s)
{
	unsigned f = clock_fields(cc->system);
	json_t *o = json_object();
	if (f & CLOCK_F_MAIN)
		json_object_set_new(o, "main_ms", json_integer(s->main_ms));
	if (f & CLOCK_F_PERIODS)
		json_object_set_new(o, "periods", json_integer(s->periods));
	if (f & CLOCK_F_PERIOD)
		json_object_set_new(o, "period_ms", json_integer(s->period_ms));
	if (f & CLOCK_F_STONES)
		json_object_set_new(o, "stones", json_integer(s->stones));
	return o;
}

void game_clock_state_from(const json_t *o, struct clock_state *s)
{
	json_t *v;
	if ((v = json_object_get(o, "main_ms")))
		s->main_ms = json_integer_value(v);
	if ((v = json_object_get(o, "periods")))
		s->periods = (int)json_integer_value(v);
	if ((v = json_object_get(o, "period_ms")))
		s->period_ms = json_integer_value(v);
	if ((v = json_object_get(o, "stones")))
		s->stones = (int)json_integer_value(v);
}

/* A move row's clock fields, in their order (game_move_clocks_text). */
static const unsigned move_clock_fields[4] = {CLOCK_F_MAIN, CLOCK_F_PERIODS, CLOCK_F_PERIOD,
					       CLOCK_F_STONES};
/* The longest text: 8 numbers of up to 20 characters, each after its separator, "]", NUL. */
_Static_assert(GAME_MOVE_CLOCKS_MAX >= 8 * 21 + 2, "GAME_MOVE_CLOCKS_MAX too small");

void game_move_clocks_text(const struct game *g, char out[GAME_MOVE_CLOCKS_MAX])
{
	unsigned f = clock_fields(g->cc.system);
	size_t n = 0;
	out[0] = '\0';
	if (g->cc.system == CLOCK_NONE)
		return;
	for (int c = BLACK; c <= WHITE; c++) {
		const struct clock_state *s = &g->clk[c];
		long long v[4] = {s->main_ms, s->periods, s->period_ms, s->stones};
		for (int k = 0; k < 4; k++)
			if (f & move_clock_fields[k])
				n += (size_t)snprintf(out + n, GAME_MOVE_CLOCKS_MAX - n, "%c%lld",
						      n ? ',' : '[', v[k]);
	}
	snprintf(out + n, GAME_MOVE_CLOCKS_MAX - n, "]");
}

int game_clocks_parse(const struct clock_control *cc, const char *text, struct clock_state *b,
		      struct clock_state *w)
{
	json_t *j = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;
	int rc = -1;
	if (json_is_object(j)) {
		game_clock_state_from(json_object_get(j, "B"), b);
		game_clock_state_from(json_object_get(j, "W"), w);
		rc = 0;
	} else if (json_is_array(j)) {
		unsigned f = clock_fields(cc->system);
		size_t per = 0, i = 0;
		for (int k = 0; k < 4; k++)
			per += (f & move_clock_fields[k]) != 0;
		rc = per && json_array_size(j) == 2 * per ? 0 : -1;
		for (size_t k = 0; rc == 0 && k < 2 * per; k++)
			if (!json_is_integer(json_array_get(j, k)))
				rc = -1;
		for (int c = 0; rc == 0 && c < 2; c++) {
			struct clock_state *s = c == 0 ? b : w;
			for (int k = 0; k < 4; k++) {
				if (!(f & move_clock_fields[k]))
					continue;
				json_int_t v = json_integer_value(json_array_get(j, i++));
				if (k == 0)
					s->main_ms = v;
				else if (k == 1)
					s->periods = (int)v;
				else if (k == 2)
					s->period_ms = v;
				else
					s->stones = (int)v;
			}
		}
	}
	json_decref(j);
	return rc;
}

/* Who is who under the prediction rules (seed 000): here, below game_predict_state.c, since the
 * clocks below need the opening's placer. */
enum color game_role_col(const struct game *g, enum predict_role role)
{
	return role == PREDICT_FIRST ? g->first_col : color_other(g->first_col);
}

enum predict_role game_col_role(const struct game *g, enum color col)
{
	return col == g->first_col ? PREDICT_FIRST : PREDICT_SECOND;
}

/* Art. 5.2: the first player places stones 1 and 4, the second stones 2 and 3. */
enum predict_role game_predict_placer(const struct game *g)
{
	size_t k = board_moves(&g->ref.board);
	return k == 1 || k == 2 ? PREDICT_SECOND : PREDICT_FIRST;
}

/* {"B": clock, "W": clock}: as committed, or (live) with the running clock as of now. NULL
 * for a game without clocks. */
json_t *game_clocks_json(const struct game *g, bool live)
{
	if (g->cc.system == CLOCK_NONE)
		return json_null();
	json_t *o = json_object();
	/* The running clock: the player to move's, in the prediction rules' opening the placer's. */
	bool opening = g->started && g->ref.phase == PHASE_OPENING;
	enum color running = opening ? game_role_col(g, game_predict_placer(g)) : g->ref.board.to_move;
	for (int c = BLACK; c <= WHITE; c++) {
		struct clock_state st = g->clk[c];
		/* The running clock as of now; while paused, as of the pause. */
		if (live && g->started && (g->ref.phase == PHASE_PLAYING || opening) &&
		    running == (enum color)c)
			clock_peek(&g->cc, &g->clk[c], game_turn_elapsed(g), &st);
		json_object_set_new(o, c == BLACK ? "B" : "W", clock_state_json(&g->cc, &st));
	}
	return o;
}

/* ---- JSON views ---- */

json_t *game_score_json(const struct score *s)
{
	return json_pack("{s:f, s:f, s:f}", "black", s->black, "white", s->white, "komi", s->komi);
}

json_t *game_points_json(const struct game *g, const bool *set)
{
	json_t *a = json_array();
	char v[VERTEX_MAX_LEN];
	const struct board *b = &g->ref.board;
	for (int p = 0; p < b->stride * b->stride; p++)
		if (set[p])
			json_array_append_new(a, json_string(vertex_format(b, p, v)));
	return a;
}

json_t *game_claims_json(const struct game *g, enum color c)
{
	return game_points_json(g, g->ref.dead[c]);
}

const char *game_handicap_placement(const struct game *g)
{
	return g->free_handicap ? "free" : "fixed";
}

json_t *game_handicap_stones_json(const struct game *g)
{
	if (!g->free_handicap)
		return NULL;
	json_t *a = json_array();
	char v[VERTEX_MAX_LEN];
	const struct referee *r = &g->ref;
	for (int i = 0; g->started && !r->placing && i < r->handicap; i++)
		json_array_append_new(a, json_string(vertex_format(&r->board, r->free_pts[i], v)));
	return a;
}
