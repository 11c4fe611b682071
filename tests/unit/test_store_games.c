/* Tests for server/store: games, moves and the move journal, warnings, the unfinished games
 * a restart reloads, transactions (group commit, rollback). Each test works on a fresh
 * database in its own mkdtemp directory (tests/support/store_fixture.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include "store.h"
#include "store_fixture.h"

/* ---- Games ---- */

START_TEST(test_game_round_trip)
{
	struct store_game g, got;
	int64_t id = 0;
	open_store();
	int64_t a = player("alice"), b = player("bob");
	game_fill(&g, a, b);
	ck_assert_int_eq(store_game_create(s, &g, &id), STORE_OK);
	ck_assert_int_gt(id, 0);
	g.id = id;
	ck_assert_int_eq(store_game_get(s, id, &got), STORE_OK);
	game_eq(&got, &g);
	store_game_clear(&got);
	ck_assert_ptr_null(got.clocks);

	/* The game ends: every mutable field changes. */
	snprintf(g.phase, sizeof g.phase, "ended");
	snprintf(g.result, sizeof g.result, "W+3.5");
	snprintf(g.reason, sizeof g.reason, "score");
	g.clocks = "{\"B\":{\"main_ms\":1},\"W\":{\"main_ms\":2}}";
	g.extra = NULL;
	g.warnings_b = 2;
	g.warnings_w = 1;
	g.ended_at = 1700003600.75;
	g.komi = 0.5;
	g.rated = false;
	g.black_id = b;
	g.white_id = a;
	ck_assert_int_eq(store_game_update(s, &g), STORE_OK);
	ck_assert_int_eq(store_game_get(s, id, &got), STORE_OK);
	game_eq(&got, &g);
	ck_assert_ptr_null(got.extra);
	store_game_clear(&got);

	/* Optional fields as none. */
	struct store_game h;
	game_fill(&h, a, b);
	h.time_control = h.rules = h.clocks = h.extra = NULL;
	h.challenger_id = h.tournament_id = 0;
	h.round = 0;
	h.start_at = 0;
	h.color_choice[0] = '\0';
	ck_assert_int_eq(store_game_create(s, &h, &h.id), STORE_OK);
	ck_assert_int_eq(store_game_get(s, h.id, &got), STORE_OK);
	game_eq(&got, &h);
	store_game_clear(&got);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM games WHERE tournament_id IS NULL AND "
			"challenger_id IS NULL AND start_at IS NULL AND color_choice IS NULL"), 1);

	ck_assert_int_eq(store_game_get(s, id + 100, &got), STORE_NOT_FOUND);
	g.id = id + 100;
	ck_assert_int_eq(store_game_update(s, &g), STORE_NOT_FOUND);
}
END_TEST

/* Open the store with alice (Black) and bob and store game_fill's game; *g gets its id. */
static int64_t stored_game(struct store_game *g)
{
	int64_t id = 0;
	open_store();
	int64_t a = player("alice"), b = player("bob");
	game_fill(g, a, b);
	ck_assert_int_eq(store_game_create(s, g, &id), STORE_OK);
	g->id = id;
	return id;
}

/* store_game_update_state: only the per-move columns are written, in one statement. */
START_TEST(test_game_update_state)
{
	struct store_game g, got;
	int64_t id = stored_game(&g);
	struct store_game want = g;
	snprintf(want.result, sizeof want.result, "B+R");
	snprintf(want.reason, sizeof want.reason, "resignation");
	want.clocks = "{\"B\":{\"main_ms\":5},\"W\":{\"main_ms\":6}}";
	want.extra = "{\"at_move\":3,\"passes\":0}";
	want.warnings_b = 1;
	want.warnings_w = 2;
	/* Other columns given differently are not written. */
	struct store_game upd = want;
	upd.komi = 99.5;
	upd.size = 19;
	snprintf(upd.phase, sizeof upd.phase, "ended");
	ck_assert_int_eq(store_game_update_state(s, &upd), STORE_OK);
	ck_assert_int_eq(store_game_get(s, id, &got), STORE_OK);
	game_eq(&got, &want);
	store_game_clear(&got);
	/* Bad JSON changes nothing; an unknown game is not found. */
	struct store_game bad = want;
	bad.extra = "{not json";
	bad.warnings_b = 7;
	ck_assert_int_eq(store_game_update_state(s, &bad), STORE_ERROR);
	ck_assert_int_eq(store_game_get(s, id, &got), STORE_OK);
	game_eq(&got, &want);
	store_game_clear(&got);
	bad = want;
	bad.id = id + 100;
	ck_assert_int_eq(store_game_update_state(s, &bad), STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_game_invalid)
{
	struct store_game g, got;
	int64_t id = stored_game(&g);

	struct store_game bad = g;
	snprintf(bad.phase, sizeof bad.phase, "paused");
	ck_assert_int_eq(store_game_update(s, &bad), STORE_ERROR);
	ck_assert_int_eq(store_game_create(s, &bad, NULL), STORE_ERROR);
	bad = g;
	snprintf(bad.color_choice, sizeof bad.color_choice, "red");
	ck_assert_int_eq(store_game_update(s, &bad), STORE_ERROR);
	bad = g;
	bad.clocks = "{not json";
	ck_assert_int_eq(store_game_update(s, &bad), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "CHECK"));
	bad = g;
	bad.white_id = bad.black_id;
	ck_assert_int_eq(store_game_update(s, &bad), STORE_ERROR);
	bad = g;
	bad.handicap = -1;
	ck_assert_int_eq(store_game_update(s, &bad), STORE_ERROR);
	bad = g;
	memset(bad.result, 'x', sizeof bad.result);
	ck_assert_int_eq(store_game_update(s, &bad), STORE_ERROR);

	/* Nothing changed. */
	ck_assert_int_eq(store_game_get(s, id, &got), STORE_OK);
	game_eq(&got, &g);
	store_game_clear(&got);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM games"), 1);
}
END_TEST

struct ids {
	int n;
	int64_t id[16];
};

static int on_game(void *ctx, const struct store_game *g)
{
	struct ids *ids = ctx;
	if (ids->n < 16)
		ids->id[ids->n] = g->id;
	ids->n++;
	return 0;
}

static struct ids list_before(const char *phase, int64_t player_id, int64_t tournament_id,
			      int limit, int64_t before)
{
	struct store_games_filter f = { phase, player_id, tournament_id, limit, before };
	struct ids ids = { 0 };
	ck_assert_int_eq(store_games_list(s, &f, on_game, &ids), STORE_OK);
	return ids;
}

static struct ids list(const char *phase, int64_t player_id, int64_t tournament_id, int limit)
{
	return list_before(phase, player_id, tournament_id, limit, 0);
}

/* Pages of `limit` games of a filter, each from below the last id of the one before, walk the
 * whole list (limit 0) once, in order, and end with a short or empty page. */
static void walk_pages(const char *phase, int64_t player_id, int64_t tournament_id, int limit)
{
	struct ids all = list(phase, player_id, tournament_id, 0), page;
	int seen = 0;
	int64_t before = 0;
	do {
		page = list_before(phase, player_id, tournament_id, limit, before);
		ck_assert_int_le(page.n, limit);
		for (int i = 0; i < page.n; i++, seen++) {
			ck_assert_int_lt(seen, all.n);
			ck_assert_int_eq(page.id[i], all.id[seen]);
		}
		if (page.n)
			before = page.id[page.n - 1];
	} while (page.n == limit);
	ck_assert_int_eq(seen, all.n);
}

START_TEST(test_games_list)
{
	struct store_game g;
	struct ids ids = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("bob"), c = player("carol");
	int64_t g1 = game_new(a, b, "playing");
	int64_t g2 = game_new(b, c, "ended");
	int64_t g3 = game_new(c, a, "playing");
	game_fill(&g, a, c);
	g.tournament_id = 0;
	int64_t g4 = 0;
	ck_assert_int_eq(store_game_create(s, &g, &g4), STORE_OK);

	ck_assert_int_eq(store_games_list(s, NULL, on_game, &ids), STORE_OK);
	ck_assert_int_eq(ids.n, 4);
	ck_assert_int_eq(ids.id[0], g4); /* newest first */
	ck_assert_int_eq(ids.id[3], g1);

	ids = list("playing", 0, 0, 0);
	ck_assert_int_eq(ids.n, 3);
	ck_assert_int_eq(ids.id[0], g4);
	ck_assert_int_eq(ids.id[1], g3);
	ck_assert_int_eq(ids.id[2], g1);
	ids = list(NULL, b, 0, 0);
	ck_assert_int_eq(ids.n, 2);
	ck_assert_int_eq(ids.id[0], g2);
	ck_assert_int_eq(ids.id[1], g1);
	ids = list("ended", b, 0, 0);
	ck_assert_int_eq(ids.n, 1);
	ck_assert_int_eq(ids.id[0], g2);
	ids = list(NULL, 0, 7, 0);
	ck_assert_int_eq(ids.n, 3);
	ids = list(NULL, a, 7, 0);
	ck_assert_int_eq(ids.n, 2);
	ids = list("playing", a, 7, 0);
	ck_assert_int_eq(ids.n, 2);
	ck_assert_int_eq(ids.id[0], g3);
	ids = list(NULL, 0, 8, 0);
	ck_assert_int_eq(ids.n, 0);
	ids = list(NULL, 0, 0, 2);
	ck_assert_int_eq(ids.n, 2);
	ck_assert_int_eq(ids.id[1], g3);
	ids = list("playing", a, 0, 1);
	ck_assert_int_eq(ids.n, 1);
	ck_assert_int_eq(ids.id[0], g4);
}
END_TEST

/* The keyset cursor `before`, in each statement variant (any, phase, player, tournament). */
START_TEST(test_games_pages)
{
	open_store();
	int64_t a = player("alice"), b = player("bob"), c = player("carol");
	int64_t g[9];
	static const char *const phase[] = { "playing", "ended", "ended" };
	for (int i = 0; i < 9; i++)
		g[i] = i % 4 == 3 ? game_new(c, b, phase[i % 3]) : game_new(i % 2 ? a : b,
									  i % 2 ? b : a, phase[i % 3]);
	struct ids ids = list_before(NULL, 0, 0, 3, g[5]);
	ck_assert_int_eq(ids.n, 3);
	ck_assert_int_eq(ids.id[0], g[4]);
	ck_assert_int_eq(ids.id[2], g[2]);
	ids = list_before(NULL, a, 0, 0, g[5]); /* a plays g0, g1, g2, g4 below g5 */
	ck_assert_int_eq(ids.n, 4);
	ck_assert_int_eq(ids.id[0], g[4]);
	ck_assert_int_eq(ids.id[3], g[0]);
	ids = list_before("ended", b, 0, 1, g[5]);
	ck_assert_int_eq(ids.n, 1);
	ck_assert_int_eq(ids.id[0], g[4]);
	ids = list_before(NULL, c, 7, 0, g[7]);
	ck_assert_int_eq(ids.n, 1);
	ck_assert_int_eq(ids.id[0], g[3]);
	ck_assert_int_eq(list_before(NULL, 0, 0, 0, g[0]).n, 0);
	ck_assert_int_eq(list_before(NULL, b, 0, 5, 1).n, 0);
	ck_assert_int_eq(list_before(NULL, 0, 0, 0, g[8] + 100).n, 9);
	for (int limit = 1; limit <= 4; limit++) {
		walk_pages(NULL, 0, 0, limit);
		walk_pages("ended", 0, 0, limit);
		walk_pages(NULL, a, 0, limit);
		walk_pages(NULL, b, 0, limit);
		walk_pages("ended", b, 0, limit);
		walk_pages(NULL, 0, 7, limit);
		walk_pages("playing", a, 7, limit);
	}
	struct store_games_filter f = { NULL, 0, 0, 0, -1 };
	ids.n = 0;
	ck_assert_int_eq(store_games_list(s, &f, on_game, &ids), STORE_ERROR);
	ck_assert_int_eq(ids.n, 0);
}
END_TEST

/* ---- Moves ---- */

START_TEST(test_moves)
{
	struct store_move m;
	struct moves_seen ms = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("bob");
	int64_t g = game_new(a, b, "playing");
	int64_t other = game_new(b, a, "playing");

	move_fill(&m, 2, "Q16");
	m.clocks = "{\"W\":{\"main_ms\":5}}";
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	move_fill(&m, 1, "D4");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	move_fill(&m, 3, "pass");
	snprintf(m.forfeit, sizeof m.forfeit, "superko");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	move_fill(&m, 1, "C3");
	ck_assert_int_eq(store_move_add(s, other, &m), STORE_OK);

	/* A duplicate number is a conflict and changes nothing. */
	move_fill(&m, 2, "K10");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_CONFLICT);
	/* Bad input. */
	move_fill(&m, 0, "K10");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_ERROR);
	move_fill(&m, 4, "K10");
	m.color = 'X';
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_ERROR);
	move_fill(&m, 4, "");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_ERROR);
	move_fill(&m, 4, "K10");
	m.clocks = "[";
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_ERROR);

	ck_assert_int_eq(store_moves_get(s, g, on_move, &ms), STORE_OK);
	ck_assert_int_eq(ms.n, 3);
	ck_assert_int_eq(ms.numbers[0], 1);
	ck_assert_int_eq(ms.numbers[1], 2);
	ck_assert_int_eq(ms.numbers[2], 3);
	ck_assert_str_eq(ms.last_forfeit, "superko");
	ck_assert_str_eq(ms.last_clocks, "(null)");
	ck_assert_int_eq(ms.last_color, 'B');
	ck_assert_int_eq(raw_int("SELECT count(*) FROM " ALL_MOVES " WHERE vertex = 'Q16' AND number = 2 "
			"AND color = 'W' AND clocks = '{\"W\":{\"main_ms\":5}}' AND forfeit IS NULL"), 1);
	ck_assert_int_eq(moves_count(other), 1);
	ck_assert_int_eq(moves_count(other + 100), 0);
}
END_TEST

static int stop_early(void *ctx, const struct store_move *m)
{
	int *n = ctx;
	(*n)++;
	return 1;
}

static int nested(void *ctx, const struct store_move *m)
{
	struct moves_seen inner = { 0 };
	int *rc = ctx;
	*rc = store_moves_get(s, 1, on_move, &inner);
	return 0;
}

START_TEST(test_moves_callbacks)
{
	struct store_move m;
	int n = 0, rc = -1;
	open_store();
	int64_t g = game_new(player("alice"), player("bob"), "playing");
	ck_assert_int_eq(g, 1);
	for (int i = 1; i <= 3; i++) {
		move_fill(&m, i, "A1");
		ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	}
	ck_assert_int_eq(store_moves_get(s, g, stop_early, &n), STORE_OK);
	ck_assert_int_eq(n, 1);
	ck_assert_int_eq(store_moves_get(s, g, nested, &rc), STORE_OK);
	ck_assert_int_eq(rc, STORE_ERROR);
	ck_assert_int_eq(moves_count(g), 3); /* usable again afterwards */
}
END_TEST

/* ---- Warnings ---- */

struct warns {
	int n;
	struct store_warning w[4];
};

static int on_warning(void *ctx, const struct store_warning *w)
{
	struct warns *ws = ctx;
	if (ws->n < 4)
		ws->w[ws->n] = *w;
	ws->n++;
	return 0;
}

START_TEST(test_warnings)
{
	struct store_warning w = { 0 };
	struct warns ws = { 0 };
	int64_t id1 = 0, id2 = 0;
	open_store();
	int64_t g = game_new(player("alice"), player("bob"), "playing");
	w.color = 'W';
	snprintf(w.reason, sizeof w.reason, "not_your_turn");
	w.number = 12;
	w.at = 1700000012.5;
	ck_assert_int_eq(store_warning_add(s, g, &w, &id1), STORE_OK);
	w.color = 'B';
	snprintf(w.reason, sizeof w.reason, "disturbing the opponent");
	w.number = 0;
	w.at = 1700000100;
	w.by_director = 1;
	ck_assert_int_eq(store_warning_add(s, g, &w, &id2), STORE_OK);
	ck_assert_int_gt(id2, id1);
	w.color = 'x';
	ck_assert_int_eq(store_warning_add(s, g, &w, NULL), STORE_ERROR);

	ck_assert_int_eq(store_warnings_get(s, g, on_warning, &ws), STORE_OK);
	ck_assert_int_eq(ws.n, 2);
	ck_assert_int_eq(ws.w[0].id, id1);
	ck_assert_int_eq(ws.w[0].color, 'W');
	ck_assert_str_eq(ws.w[0].reason, "not_your_turn");
	ck_assert_int_eq(ws.w[0].number, 12);
	ck_assert_double_eq(ws.w[0].at, 1700000012.5);
	ck_assert_int_eq(ws.w[1].color, 'B');
	ck_assert_int_eq(ws.w[1].number, 0);
	ck_assert_str_eq(ws.w[1].reason, "disturbing the opponent");
	ck_assert_int_eq(raw_int("SELECT count(*) FROM warnings WHERE number IS NULL"), 1);
	/* who gave it (migration 0009); a row without it (an older tengend's) reads -1 */
	ck_assert_int_eq(ws.w[0].by_director, 0);
	ck_assert_int_eq(ws.w[1].by_director, 1);
	raw_exec("UPDATE warnings SET by_director = NULL");
	ws.n = 0;
	ck_assert_int_eq(store_warnings_get(s, g, on_warning, &ws), STORE_OK);
	ck_assert_int_eq(ws.w[0].by_director, -1);
	ck_assert_int_eq(ws.w[1].by_director, -1);
}
END_TEST

/* ---- Restart ---- */

struct unfinished {
	int n;
	int64_t id[8];
	size_t moves[8];
	int last_number[8];
};

static int on_unfinished(void *ctx, const struct store_game *g, const struct store_move *m,
		size_t n)
{
	struct unfinished *u = ctx;
	if (u->n < 8) {
		u->id[u->n] = g->id;
		u->moves[u->n] = n;
		u->last_number[u->n] = n ? m[n - 1].number : 0;
	}
	u->n++;
	/* The listing runs in one transaction of its own, so the callback cannot open one. */
	ck_assert(store_in_transaction(s));
	ck_assert_int_eq(store_begin(s), STORE_ERROR);
	/* A restart may end games while listing them. */
	struct store_game e = *g;
	snprintf(e.phase, sizeof e.phase, "ended");
	ck_assert_int_eq(store_game_update(s, &e), STORE_OK);
	return 0;
}

START_TEST(test_unfinished)
{
	struct store_move m;
	struct unfinished u = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("bob");
	int64_t g1 = game_new(a, b, "playing");
	int64_t g2 = game_new(a, b, "ended");
	int64_t g3 = game_new(b, a, "counting");
	int64_t g4 = game_new(b, a, "pending");
	int64_t g5 = game_new(b, a, "scheduled");
	for (int i = 1; i <= 5; i++) {
		move_fill(&m, i, "B2");
		m.clocks = "{}";
		ck_assert_int_eq(store_move_add(s, g1, &m), STORE_OK);
		ck_assert_int_eq(store_move_add(s, g2, &m), STORE_OK);
		if (i <= 2)
			ck_assert_int_eq(store_move_add(s, g3, &m), STORE_OK);
	}
	ck_assert_int_eq(store_games_unfinished(s, on_unfinished, &u), STORE_OK);
	ck_assert_int_eq(u.n, 4);
	ck_assert_int_eq(u.id[0], g1);
	ck_assert_int_eq(u.moves[0], 5);
	ck_assert_int_eq(u.last_number[0], 5);
	ck_assert_int_eq(u.id[1], g3);
	ck_assert_int_eq(u.moves[1], 2);
	ck_assert_int_eq(u.id[2], g4);
	ck_assert_int_eq(u.moves[2], 0);
	ck_assert_int_eq(u.id[3], g5);
	ck_assert(!store_in_transaction(s)); /* committed at the end */
	(void)g2;
	/* The callback ended them all. */
	memset(&u, 0, sizeof u);
	ck_assert_int_eq(store_games_unfinished(s, on_unfinished, &u), STORE_OK);
	ck_assert_int_eq(u.n, 0);
}
END_TEST

/* ---- Transactions ---- */

START_TEST(test_rollback)
{
	struct store_player p;
	struct store_game g;
	struct store_move m;
	open_store();
	int64_t a = player("alice");
	ck_assert(!store_in_transaction(s));
	ck_assert_int_eq(store_begin(s), STORE_OK);
	ck_assert(store_in_transaction(s));
	int64_t b = player("bob");
	int64_t gid = game_new(a, b, "playing");
	move_fill(&m, 1, "D4");
	ck_assert_int_eq(store_move_add(s, gid, &m), STORE_OK);
	ck_assert_int_eq(store_player_set_role(s, "alice", "admin"), STORE_OK);
	ck_assert_int_eq(store_game_get(s, gid, &g), STORE_OK); /* visible inside */
	store_game_clear(&g);
	ck_assert_int_eq(store_rollback(s), STORE_OK);
	ck_assert(!store_in_transaction(s));

	ck_assert_int_eq(store_player_by_name(s, "bob", &p), STORE_NOT_FOUND);
	ck_assert_int_eq(store_game_get(s, gid, &g), STORE_NOT_FOUND);
	ck_assert_int_eq(moves_count(gid), 0);
	ck_assert_int_eq(store_player_by_name(s, "alice", &p), STORE_OK);
	ck_assert_str_eq(p.role, "player");
	ck_assert_int_eq(raw_int("SELECT count(*) FROM players"), 1);
	ck_assert_int_eq(store_rollback(s), STORE_OK); /* none open: nothing to undo */
}
END_TEST

START_TEST(test_group_commit)
{
	struct store_move m;
	struct moves_seen ms = { 0 };
	char clocks[64];
	open_store();
	int64_t g = game_new(player("alice"), player("bob"), "playing");
	ck_assert_int_eq(store_commit(s), STORE_ERROR); /* none open */
	ck_assert_int_eq(store_begin(s), STORE_OK);
	ck_assert_int_eq(store_begin(s), STORE_ERROR); /* already open */
	for (int i = 1; i <= GROUP_MOVES; i++) {
		move_fill(&m, i, i % 7 ? "C3" : "pass");
		snprintf(clocks, sizeof clocks, "{\"B\":{\"main_ms\":%d}}", 600000 - i);
		m.clocks = clocks;
		ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	}
	/* A failed write inside the group undoes only itself. */
	move_fill(&m, 1, "D4");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_CONFLICT);
	ck_assert(store_in_transaction(s));
	/* Another connection sees nothing before the commit... */
	ck_assert_int_eq(raw_int("SELECT count(*) FROM " ALL_MOVES), 0);
	ck_assert_int_eq(store_commit(s), STORE_OK);
	ck_assert(!store_in_transaction(s));
	/* ...and everything after. */
	ck_assert_int_eq(raw_int("SELECT count(*) FROM " ALL_MOVES), GROUP_MOVES);
	ck_assert_int_eq(store_moves_get(s, g, on_move, &ms), STORE_OK);
	ck_assert_int_eq(ms.n, GROUP_MOVES);
	for (int i = 0; i < GROUP_MOVES; i++)
		ck_assert_int_eq(ms.numbers[i], i + 1);
	ck_assert_str_eq(ms.last_clocks, "{\"B\":{\"main_ms\":599500}}");

	/* Autocommit writes after the group. */
	move_fill(&m, GROUP_MOVES + 1, "pass");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM " ALL_MOVES), GROUP_MOVES + 1);
}
END_TEST

/* Migration 0005: moves are written to the journal and folded into moves in batches; a game's
 * moves are read from both, and a (game, number) is refused wherever it already is. */
static void add_moves(int64_t g, int from, int to)
{
	struct store_move m;
	for (int i = from; i <= to; i++) {
		move_fill(&m, i, "C3");
		ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	}
}

static void assert_numbers(int64_t g, const int *want, int n)
{
	struct moves_seen ms = { 0 };
	ck_assert_int_eq(store_moves_get(s, g, on_move, &ms), STORE_OK);
	ck_assert_int_eq(ms.n, n);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(ms.numbers[i], want[i]);
}

/* store_changes (the reply cache's generation, cmd/dispatch.c): a move's journal row and the
 * alive mark leave it, a game row's update moves it, and so does a rollback (it may have undone
 * rows a cached reply showed). */
START_TEST(test_changes)
{
	struct store_game row;
	open_store();
	int64_t a = player("alice"), b = player("bob");
	int64_t g = game_new(a, b, "playing");
	uint64_t c0 = store_changes(s);
	add_moves(g, 1, 3);
	ck_assert_uint_eq(store_changes(s), c0);
	ck_assert_int_eq(store_alive_set(s, 12.5), STORE_OK);
	ck_assert_uint_eq(store_changes(s), c0);
	ck_assert_int_eq(store_game_get(s, g, &row), STORE_OK);
	row.warnings_b = 1;
	ck_assert_int_eq(store_game_update(s, &row), STORE_OK);
	store_game_clear(&row);
	uint64_t c1 = store_changes(s);
	ck_assert_uint_gt(c1, c0);
	ck_assert_int_eq(store_begin(s), STORE_OK);
	ck_assert_int_eq(store_rollback(s), STORE_OK);
	ck_assert_uint_gt(store_changes(s), c1);
}
END_TEST

START_TEST(test_move_journal)
{
	struct store_move m;
	int folded = -1;
	open_store();
	int64_t a = player("alice"), b = player("bob");
	int64_t g = game_new(a, b, "playing"), h = game_new(b, a, "playing");
	add_moves(g, 1, 3);
	add_moves(h, 1, 1);
	ck_assert_int_eq(store_journal_rows(s), 4);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 4);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves"), 0);

	ck_assert_int_eq(store_journal_fold(s, &folded), STORE_OK);
	ck_assert_int_eq(folded, 4);
	ck_assert_int_eq(store_journal_rows(s), 0);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 0);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM moves WHERE game_id = "
				 "(SELECT min(id) FROM games)"), 3);
	ck_assert_int_eq(store_journal_fold(s, &folded), STORE_OK); /* nothing to fold */
	ck_assert_int_eq(folded, 0);

	/* Folded and journal rows read as one list in number order. */
	add_moves(g, 5, 6);
	ck_assert_int_eq(store_journal_rows(s), 2);
	assert_numbers(g, (const int[]){ 1, 2, 3, 5, 6 }, 5);

	/* Taken numbers: a folded one, a journal one; a free one below the folded highest is not. */
	move_fill(&m, 2, "D4");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_CONFLICT);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "already has move 2"));
	move_fill(&m, 6, "D4");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_CONFLICT);
	move_fill(&m, 4, "D4");
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_OK);
	assert_numbers(g, (const int[]){ 1, 2, 3, 4, 5, 6 }, 6);
	ck_assert_int_eq(store_journal_fold(s, &folded), STORE_OK);
	ck_assert_int_eq(folded, 3);
	move_fill(&m, 4, "D4"); /* folded after it was seen free: the cached highest number moved */
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_CONFLICT);

	/* A rolled-back move leaves no key behind. */
	ck_assert_int_eq(store_begin(s), STORE_OK);
	add_moves(g, 7, 8);
	ck_assert_int_eq(store_journal_fold(s, NULL), STORE_ERROR); /* not inside a transaction */
	ck_assert_int_eq(store_rollback(s), STORE_OK);
	add_moves(g, 7, 7);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 1);

	/* Foreign keys and checks are on again after a fold. */
	ck_assert_int_eq(store_journal_fold(s, NULL), STORE_OK);
	move_fill(&m, 1, "D4");
	ck_assert_int_eq(store_move_add(s, g + 100, &m), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "FOREIGN KEY"));
	move_fill(&m, 9, "D4");
	m.clocks = "{";
	ck_assert_int_eq(store_move_add(s, g, &m), STORE_ERROR);

	/* What a run leaves in the journal (a kill -9) is folded when the store opens. */
	add_moves(h, 2, 4);
	store_close(s);
	s = NULL;
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 3);
	open_store();
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 0);
	assert_numbers(h, (const int[]){ 1, 2, 3, 4 }, 4);
	move_fill(&m, 4, "D4");
	ck_assert_int_eq(store_move_add(s, h, &m), STORE_CONFLICT);

	/* A fold that fails changes nothing: a journal row that collides with a folded one (written
	 * behind the store's back) stays and the store goes on. A read gives the moves table's row
	 * of that number once (a journal key whose number moves has is taken for a row a fold
	 * moved while the game was read), and the other rows. */
	add_moves(h, 5, 5);
	raw_exec("INSERT INTO move_journal (game_id, number, color, vertex, at) "
		 "SELECT game_id, 1, 'B', 'A1', 0 FROM moves WHERE number = 4 AND vertex = 'C3' "
		 "AND game_id <> (SELECT min(id) FROM games)");
	ck_assert_int_eq(store_journal_fold(s, &folded), STORE_CONFLICT);
	ck_assert_int_eq(folded, 0);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "fold the move journal"));
	ck_assert(!store_in_transaction(s));
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 2);
	assert_numbers(h, (const int[]){ 1, 2, 3, 4, 5 }, 5);
	move_fill(&m, 1, "D4");
	ck_assert_int_eq(store_move_add(s, g + 100, &m), STORE_ERROR); /* keys on again */
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "FOREIGN KEY"));
	add_moves(h, 6, 6);
}
END_TEST

/* SQLite itself may roll back the whole open transaction (here a trigger's RAISE(ROLLBACK);
 * also after an interrupt, a full disk or an I/O error): the moves written in it are gone and
 * their numbers free again, whether or not the caller then calls store_rollback. */
START_TEST(test_move_journal_lost_transaction)
{
	struct store_warning w = { .color = 'B', .number = 1, .at = 1700000000.0 };
	open_store();
	int64_t g = game_new(player("alice"), player("bob"), "playing");
	raw_exec("CREATE TRIGGER boom BEFORE INSERT ON warnings BEGIN "
		 "SELECT RAISE(ROLLBACK, 'boom'); END");
	for (int call_rollback = 0; call_rollback < 2; call_rollback++) {
		ck_assert_int_eq(store_begin(s), STORE_OK);
		add_moves(g, 1, 2);
		ck_assert_int_eq(store_warning_add(s, g, &w, NULL), STORE_ERROR);
		ck_assert(!store_in_transaction(s));
		if (call_rollback)
			ck_assert_int_eq(store_rollback(s), STORE_OK);
		ck_assert_int_eq(moves_count(g), 0);
		add_moves(g, 1, 1); /* not "already has move 1" */
		ck_assert_int_eq(store_journal_rows(s), 1);
		ck_assert_int_eq(store_journal_fold(s, NULL), STORE_OK);
		raw_exec("DELETE FROM moves");
	}
}
END_TEST

START_TEST(test_foreign_keys)
{
	struct store_game g;
	struct store_move m;
	struct store_warning w = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("bob");
	game_fill(&g, a, b + 100);
	ck_assert_int_eq(store_game_create(s, &g, NULL), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "FOREIGN KEY"));
	game_fill(&g, a, b);
	g.challenger_id = b + 100;
	ck_assert_int_eq(store_game_create(s, &g, NULL), STORE_ERROR);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM games"), 0);

	move_fill(&m, 1, "D4");
	ck_assert_int_eq(store_move_add(s, 42, &m), STORE_ERROR);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "FOREIGN KEY"));
	w.color = 'B';
	ck_assert_int_eq(store_warning_add(s, 42, &w, NULL), STORE_ERROR);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM " ALL_MOVES), 0);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM warnings"), 0);

	/* Inside a group the failure undoes only itself. */
	ck_assert_int_eq(store_begin(s), STORE_OK);
	int64_t gid = game_new(a, b, "playing");
	ck_assert_int_eq(store_move_add(s, gid + 1, &m), STORE_ERROR);
	ck_assert(store_in_transaction(s));
	ck_assert_int_eq(store_move_add(s, gid, &m), STORE_OK);
	ck_assert_int_eq(store_commit(s), STORE_OK);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM " ALL_MOVES), 1);
}
END_TEST

static Suite *store_suite(void)
{
	Suite *su = suite_create("store_games");
	TCase *tc = tcase_create("store_games");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_game_round_trip);
	tcase_add_test(tc, test_game_update_state);
	tcase_add_test(tc, test_game_invalid);
	tcase_add_test(tc, test_games_list);
	tcase_add_test(tc, test_games_pages);
	tcase_add_test(tc, test_moves);
	tcase_add_test(tc, test_changes);
	tcase_add_test(tc, test_moves_callbacks);
	tcase_add_test(tc, test_warnings);
	tcase_add_test(tc, test_unfinished);
	tcase_add_test(tc, test_rollback);
	tcase_add_test(tc, test_group_commit);
	tcase_add_test(tc, test_foreign_keys);
	tcase_add_test(tc, test_move_journal);
	tcase_add_test(tc, test_move_journal_lost_transaction);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(store_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
