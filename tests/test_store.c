/* Tests for server/store: migrations, transactions, players, games, moves, warnings, ratings,
 * tournaments. Each test works on a fresh database in its own mkdtemp directory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include "store.h"

extern const char *const store_migrations[];

#define GROUP_MOVES 500 /* moves written in one group-commit transaction */

static char dir[64];
static char path[128];
static struct store *s;

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/tengen-store-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/tengen.db", dir);
	s = NULL;
}

static void teardown(void)
{
	char f[160];
	store_close(s);
	s = NULL;
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	for (size_t i = 0; i < sizeof suffix / sizeof *suffix; i++) {
		snprintf(f, sizeof f, "%s%s", path, suffix[i]);
		unlink(f);
	}
	rmdir(dir);
}

static void open_store(void)
{
	char err[STORE_ERR_MAX] = "";
	enum store_rc rc = store_open(path, &s, err, sizeof err);
	ck_assert_msg(rc == STORE_OK, "store_open: %d %s", rc, err);
	ck_assert_ptr_nonnull(s);
}

/* A value from the database through a connection of its own (not the store's). */
static int raw_int(const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int v = -1;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

/* Every move row: the folded ones and the journal's (migration 0005). */
#define ALL_MOVES "(SELECT * FROM moves UNION ALL SELECT game_id, number, color, vertex, " \
	"forfeit, clocks, at FROM move_journal)"

static void raw_exec(const char *sql)
{
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static int64_t player(const char *name)
{
	int64_t id = 0;
	ck_assert_int_eq(store_player_create(s, name, "$argon2id$v=19$fakehash", "player", &id),
			STORE_OK);
	ck_assert_int_gt(id, 0);
	return id;
}

/* A game with every field set. */
static void game_fill(struct store_game *g, int64_t black, int64_t white)
{
	memset(g, 0, sizeof *g);
	g->black_id = black;
	g->white_id = white;
	g->size = 13;
	g->komi = 6.5;
	g->handicap = 2;
	g->rated = true;
	g->time_control = "{\"system\":\"byoyomi\",\"main_s\":600,\"periods\":3,\"period_s\":30}";
	g->rules = "{\"ko\":\"positional\",\"illegal\":\"lose\"}";
	snprintf(g->phase, sizeof g->phase, "playing");
	g->challenger_id = white;
	snprintf(g->color_choice, sizeof g->color_choice, "white");
	g->tournament_id = 7;
	g->round = 3;
	g->start_at = 1700000000.25;
	g->created_at = 1699999000.5;
	g->clocks = "{\"B\":{\"main_ms\":600000},\"W\":{\"main_ms\":599000}}";
	g->warnings_b = 1;
	g->warnings_w = 0;
	g->extra = "{\"dead\":{\"B\":[\"D4\"]}}";
}

static void game_eq(const struct store_game *a, const struct store_game *b)
{
	ck_assert_int_eq(a->id, b->id);
	ck_assert_int_eq(a->black_id, b->black_id);
	ck_assert_int_eq(a->white_id, b->white_id);
	ck_assert_int_eq(a->size, b->size);
	ck_assert_double_eq(a->komi, b->komi);
	ck_assert_int_eq(a->handicap, b->handicap);
	ck_assert_int_eq(a->rated, b->rated);
	ck_assert_pstr_eq(a->time_control, b->time_control);
	ck_assert_pstr_eq(a->rules, b->rules);
	ck_assert_str_eq(a->phase, b->phase);
	ck_assert_str_eq(a->result, b->result);
	ck_assert_str_eq(a->reason, b->reason);
	ck_assert_int_eq(a->challenger_id, b->challenger_id);
	ck_assert_str_eq(a->color_choice, b->color_choice);
	ck_assert_int_eq(a->tournament_id, b->tournament_id);
	ck_assert_int_eq(a->round, b->round);
	ck_assert_double_eq(a->start_at, b->start_at);
	ck_assert_double_eq(a->created_at, b->created_at);
	ck_assert_double_eq(a->ended_at, b->ended_at);
	ck_assert_pstr_eq(a->clocks, b->clocks);
	ck_assert_int_eq(a->warnings_b, b->warnings_b);
	ck_assert_int_eq(a->warnings_w, b->warnings_w);
	ck_assert_pstr_eq(a->extra, b->extra);
}

static int64_t game_new(int64_t black, int64_t white, const char *phase)
{
	struct store_game g;
	int64_t id = 0;
	game_fill(&g, black, white);
	snprintf(g.phase, sizeof g.phase, "%s", phase);
	ck_assert_int_eq(store_game_create(s, &g, &id), STORE_OK);
	ck_assert_int_gt(id, 0);
	return id;
}

static void move_fill(struct store_move *m, int number, const char *vertex)
{
	memset(m, 0, sizeof *m);
	m->number = number;
	m->color = number % 2 ? 'B' : 'W';
	snprintf(m->vertex, sizeof m->vertex, "%s", vertex);
	m->at = 1700000000.0 + number;
}

/* Collects moves: numbers in order, count. */
struct moves_seen {
	int n;
	int numbers[GROUP_MOVES + 8];
	char last_forfeit[STORE_REASON_SIZE];
	char last_clocks[128];
	char last_color;
};

static int on_move(void *ctx, const struct store_move *m)
{
	struct moves_seen *ms = ctx;
	if (ms->n < (int)(sizeof ms->numbers / sizeof *ms->numbers))
		ms->numbers[ms->n] = m->number;
	ms->n++;
	snprintf(ms->last_forfeit, sizeof ms->last_forfeit, "%s", m->forfeit);
	snprintf(ms->last_clocks, sizeof ms->last_clocks, "%s", m->clocks ? m->clocks : "(null)");
	ms->last_color = m->color;
	return 0;
}

static int moves_count(int64_t game)
{
	struct moves_seen ms = { 0 };
	ck_assert_int_eq(store_moves_get(s, game, on_move, &ms), STORE_OK);
	return ms.n;
}

/* ---- Database ---- */

START_TEST(test_create_reopen)
{
	int n = 0;
	while (store_migrations[n])
		n++;
	ck_assert_int_ge(n, 1);
	ck_assert_int_eq(store_schema_version(), n);

	open_store();
	int64_t id = player("alice");
	store_close(s);
	s = NULL;
	ck_assert_int_eq(raw_int("PRAGMA user_version"), n);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM sqlite_master WHERE name = 'games'"), 1);

	/* Reopening applies nothing again (a rerun CREATE TABLE would fail) and keeps the data. */
	open_store();
	struct store_player p;
	ck_assert_int_eq(store_player_by_id(s, id, &p), STORE_OK);
	ck_assert_str_eq(p.name, "alice");
	store_close(s);
	s = NULL;
	ck_assert_int_eq(raw_int("PRAGMA user_version"), n);
}
END_TEST

START_TEST(test_refuse_newer)
{
	char err[STORE_ERR_MAX] = "";
	struct store *t = (struct store *)err; /* store_open must set it to NULL */
	open_store();
	store_close(s);
	s = NULL;
	raw_exec("PRAGMA user_version = 99");
	ck_assert_int_eq(store_open(path, &t, err, sizeof err), STORE_ERROR);
	ck_assert_ptr_null(t);
	ck_assert_msg(strstr(err, "newer") != NULL, "message: %s", err);
	ck_assert_int_eq(raw_int("PRAGMA user_version"), 99);
}
END_TEST

START_TEST(test_open_bad_path)
{
	char err[STORE_ERR_MAX] = "";
	ck_assert_int_eq(store_open("/nonexistent-dir/x/y.db", &s, err, sizeof err), STORE_ERROR);
	ck_assert_ptr_null(s);
	ck_assert_int_gt(strlen(err), 0);
	/* An in-memory database (no WAL possible) is accepted. */
	ck_assert_int_eq(store_open(":memory:", &s, err, sizeof err), STORE_OK);
	ck_assert_int_eq(store_player_create(s, "alice", "h", "player", NULL), STORE_OK);
}
END_TEST

START_TEST(test_wal)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	open_store();
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "wal");
	sqlite3_finalize(st);
	sqlite3_close(db);
	char wal[160];
	snprintf(wal, sizeof wal, "%s-wal", path);
	ck_assert_int_eq(access(wal, F_OK), 0);
}
END_TEST

/* ---- Players ---- */

START_TEST(test_player_create)
{
	struct store_player p;
	int64_t id = 0, id2 = 0;
	double now = (double)time(NULL);
	open_store();
	ck_assert_int_eq(store_player_create(s, "Alice", "hash1", "player", &id), STORE_OK);
	ck_assert_int_eq(store_player_create(s, "aLICE", "hash2", "player", &id2), STORE_CONFLICT);
	ck_assert_int_eq(id2, 0);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "taken"));
	ck_assert_int_eq(store_player_create(s, "Bob", "hash3", "admin", &id2), STORE_OK);
	ck_assert_int_ne(id, id2);

	ck_assert_int_eq(store_player_by_name(s, "ALICE", &p), STORE_OK);
	ck_assert_int_eq(p.id, id);
	ck_assert_str_eq(p.name, "Alice");
	ck_assert_str_eq(p.pwhash, "hash1");
	ck_assert_str_eq(p.role, "player");
	ck_assert_double_eq(p.rating, 1500);
	ck_assert_double_eq(p.rd, 350);
	ck_assert_double_eq(p.volatility, 0.06);
	ck_assert_str_eq(p.rank, "");
	ck_assert_double_ge(p.created_at, now - 5);
	ck_assert_double_le(p.created_at, now + 5);

	ck_assert_int_eq(store_player_by_id(s, id2, &p), STORE_OK);
	ck_assert_str_eq(p.name, "Bob");
	ck_assert_str_eq(p.role, "admin");
	ck_assert_int_eq(store_player_by_id(s, id2 + 100, &p), STORE_NOT_FOUND);
	ck_assert_int_eq(store_player_by_name(s, "carol", &p), STORE_NOT_FOUND);

	/* Bad input changes nothing. */
	ck_assert_int_eq(store_player_create(s, "carol", "h", "king", NULL), STORE_ERROR);
	ck_assert_int_eq(store_player_create(s, "", "h", "player", NULL), STORE_ERROR);
	ck_assert_int_eq(store_player_create(s, "abcdefghijabcdefghijabcdefghijabc", "h", "player",
			NULL), STORE_ERROR);
	ck_assert_int_eq(store_player_create(s, "carol", "", "player", NULL), STORE_ERROR);
	ck_assert_int_eq(store_player_by_name(s, "carol", &p), STORE_NOT_FOUND);
	ck_assert_int_eq(store_player_create(s, "abcdefghijabcdefghijabcdefghijab", "h", "td",
			NULL), STORE_OK);
}
END_TEST

START_TEST(test_player_role)
{
	struct store_player p;
	open_store();
	player("alice");
	ck_assert_int_eq(store_player_set_role(s, "ALICE", "td"), STORE_OK);
	ck_assert_int_eq(store_player_by_name(s, "alice", &p), STORE_OK);
	ck_assert_str_eq(p.role, "td");
	ck_assert_int_eq(store_player_set_role(s, "alice", "admin"), STORE_OK);
	ck_assert_int_eq(store_player_set_role(s, "alice", "king"), STORE_ERROR);
	ck_assert_int_eq(store_player_by_name(s, "alice", &p), STORE_OK);
	ck_assert_str_eq(p.role, "admin");
	ck_assert_int_eq(store_player_set_role(s, "nobody", "td"), STORE_NOT_FOUND);
}
END_TEST

struct names {
	int n;
	char name[4][STORE_NAME_MAX + 1];
};

static int on_player(void *ctx, const struct store_player *p)
{
	struct names *ns = ctx;
	if (ns->n < 4)
		snprintf(ns->name[ns->n], sizeof ns->name[0], "%s", p->name);
	ns->n++;
	return 0;
}

START_TEST(test_player_rating)
{
	struct store_player p;
	struct names ns = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("bob");
	player("carol");
	ck_assert_int_eq(store_player_set_rating(s, b, 1712.5, 80.25, 0.059), STORE_OK);
	ck_assert_int_eq(store_player_set_rating(s, a, 1400, 90, 0.06), STORE_OK);
	ck_assert_int_eq(store_player_set_rating(s, b + 100, 1, 1, 1), STORE_NOT_FOUND);
	ck_assert_int_eq(store_player_by_id(s, b, &p), STORE_OK);
	ck_assert_double_eq(p.rating, 1712.5);
	ck_assert_double_eq(p.rd, 80.25);
	ck_assert_double_eq(p.volatility, 0.059);
	ck_assert_int_eq(store_players_list(s, on_player, &ns), STORE_OK);
	ck_assert_int_eq(ns.n, 3);
	ck_assert_str_eq(ns.name[0], "bob");
	ck_assert_str_eq(ns.name[1], "carol");
	ck_assert_str_eq(ns.name[2], "alice");
}
END_TEST

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

static struct ids list(const char *phase, int64_t player_id, int64_t tournament_id, int limit)
{
	struct store_games_filter f = { phase, player_id, tournament_id, limit };
	struct ids ids = { 0 };
	ck_assert_int_eq(store_games_list(s, &f, on_game, &ids), STORE_OK);
	return ids;
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
	 * behind the store's back) stays, is read, and the store goes on. */
	add_moves(h, 5, 5);
	raw_exec("INSERT INTO move_journal (game_id, number, color, vertex, at) "
		 "SELECT game_id, 1, 'B', 'A1', 0 FROM moves WHERE number = 4 AND vertex = 'C3' "
		 "AND game_id <> (SELECT min(id) FROM games)");
	ck_assert_int_eq(store_journal_fold(s, &folded), STORE_CONFLICT);
	ck_assert_int_eq(folded, 0);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "fold the move journal"));
	ck_assert(!store_in_transaction(s));
	ck_assert_int_eq(raw_int("SELECT count(*) FROM move_journal"), 2);
	ck_assert_int_eq(moves_count(h), 6);
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

/* ---- Ratings (migration 0002) ---- */

/* An ended game between black and white at `ended_at` (0: none). */
static int64_t ended_game(int64_t black, int64_t white, double ended_at, const char *result,
		const char *reason, bool rated)
{
	struct store_game g;
	int64_t id = 0;
	game_fill(&g, black, white);
	snprintf(g.phase, sizeof g.phase, "ended");
	snprintf(g.result, sizeof g.result, "%s", result);
	snprintf(g.reason, sizeof g.reason, "%s", reason);
	g.rated = rated;
	g.ended_at = ended_at;
	ck_assert_int_eq(store_game_create(s, &g, &id), STORE_OK);
	return id;
}

/* A rating change of `player` by `game`: before = (before, 300, 0.06), after = (after, 200,
 * 0.05); and the player's stored rating set to the after values. */
static void change(int64_t player, int64_t game, double at, double before, double after)
{
	struct store_rating_change c = { 0, player, game, before, 300, 0.06, after, 200, 0.05, at };
	int64_t id = 0;
	ck_assert_int_eq(store_rating_change_add(s, &c, &id), STORE_OK);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(store_player_set_rated(s, player, after, 200, 0.05, at), STORE_OK);
}

struct changes_seen {
	int n;
	int64_t game[8], player[8];
	double rating[8], at[8];
};

static int on_change(void *ctx, const struct store_rating_change *c)
{
	struct changes_seen *cs = ctx;
	if (cs->n < 8) {
		cs->game[cs->n] = c->game_id;
		cs->player[cs->n] = c->player_id;
		cs->rating[cs->n] = c->rating;
		cs->at[cs->n] = c->at;
	}
	cs->n++;
	return 0;
}

START_TEST(test_rating_start)
{
	struct store_player p;
	open_store();
	int64_t a = player("alice"), b = player("bob");
	ck_assert_int_eq(store_player_by_id(s, a, &p), STORE_OK);
	ck_assert_double_eq(p.rating_start, 1500);
	ck_assert_double_eq(p.rd_start, 350);
	ck_assert_double_eq(p.volatility_start, 0.06);
	ck_assert_double_eq(p.last_rated_at, 0);
	ck_assert_str_eq(p.rank, "");

	ck_assert_int_eq(store_player_set_start(s, a, "3k", 1836.5, 250, 0.06), STORE_OK);
	ck_assert_int_eq(store_player_by_id(s, a, &p), STORE_OK);
	ck_assert_str_eq(p.rank, "3k");
	ck_assert_double_eq(p.rating, 1836.5);
	ck_assert_double_eq(p.rd, 250);
	ck_assert_double_eq(p.rating_start, 1836.5);
	ck_assert_double_eq(p.rd_start, 250);
	ck_assert_double_eq(p.volatility_start, 0.06);
	ck_assert_int_eq(store_player_set_start(s, b + 100, "3k", 1, 1, 1), STORE_NOT_FOUND);
	ck_assert_int_eq(store_player_set_start(s, b, "123456789", 1, 1, 1), STORE_ERROR);

	/* Once rated, the start is history: refused, nothing changed. */
	int64_t g = ended_game(b, a, 1000, "B+R", "resignation", true);
	change(b, g, 1000, 1500, 1600);
	ck_assert_int_eq(store_player_set_start(s, b, "1d", 1960, 250, 0.06), STORE_CONFLICT);
	ck_assert_int_eq(store_player_by_id(s, b, &p), STORE_OK);
	ck_assert_double_eq(p.rating, 1600);
	ck_assert_double_eq(p.rating_start, 1500);
	ck_assert_double_eq(p.last_rated_at, 1000);
	ck_assert_str_eq(p.rank, "");
}
END_TEST

START_TEST(test_rating_history)
{
	struct changes_seen cs = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("bob"), c = player("carol");
	int64_t g1 = ended_game(a, b, 2000, "B+R", "resignation", true);
	int64_t g2 = ended_game(c, a, 1000, "W+T", "time", true);
	change(a, g1, 2000, 1520, 1540);
	change(b, g1, 2000, 1500, 1480);
	change(a, g2, 1000, 1500, 1520);
	/* One change per player per game; a valid player, game and RD. */
	struct store_rating_change dup = { 0, a, g1, 1, 1, 0.06, 1, 1, 0.06, 2000 };
	ck_assert_int_eq(store_rating_change_add(s, &dup, NULL), STORE_CONFLICT);
	dup.game_id = g2 + 100;
	ck_assert_int_eq(store_rating_change_add(s, &dup, NULL), STORE_ERROR);
	dup.game_id = g2;
	dup.player_id = c;
	dup.rd = 0;
	ck_assert_int_eq(store_rating_change_add(s, &dup, NULL), STORE_ERROR);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM rating_history"), 3);

	/* A player's history is in rating order (at), not insertion order. */
	ck_assert_int_eq(store_rating_history(s, a, on_change, &cs), STORE_OK);
	ck_assert_int_eq(cs.n, 2);
	ck_assert_int_eq(cs.game[0], g2);
	ck_assert_double_eq(cs.rating[0], 1520);
	ck_assert_int_eq(cs.game[1], g1);
	ck_assert_double_eq(cs.at[1], 2000);
	memset(&cs, 0, sizeof cs);
	ck_assert_int_eq(store_rating_changes_of_game(s, g1, on_change, &cs), STORE_OK);
	ck_assert_int_eq(cs.n, 2);
	ck_assert_int_eq(cs.player[0], a);
	ck_assert_int_eq(cs.player[1], b);
	memset(&cs, 0, sizeof cs);
	ck_assert_int_eq(store_rating_history(s, c, on_change, &cs), STORE_OK);
	ck_assert_int_eq(cs.n, 0);
	ck_assert_int_eq(store_player_set_rated(s, c + 100, 1, 1, 1, 1), STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_ratings_rewind)
{
	struct store_player p;
	open_store();
	int64_t a = player("alice"), b = player("bob"), c = player("carol");
	ck_assert_int_eq(store_player_set_start(s, c, "2d", 2000, 250, 0.06), STORE_OK);
	int64_t g1 = ended_game(a, b, 1000, "B+R", "resignation", true);
	int64_t g2 = ended_game(b, c, 2000, "W+R", "resignation", true);
	int64_t g3 = ended_game(a, c, 2000, "B+T", "time", true);
	change(a, g1, 1000, 1500, 1600);
	change(b, g1, 1000, 1500, 1400);
	change(b, g2, 2000, 1400, 1350);
	change(c, g2, 2000, 2000, 2050);
	change(a, g3, 2000, 1600, 1650);
	change(c, g3, 2000, 2050, 2010);

	/* From g2 on (g3 ends at the same time with a higher id): everyone goes back. */
	ck_assert_int_eq(store_ratings_rewind(s, 2000, g2), STORE_OK);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM rating_history"), 2);
	ck_assert_int_eq(store_player_by_id(s, a, &p), STORE_OK);
	ck_assert_double_eq(p.rating, 1600);
	ck_assert_double_eq(p.rd, 200);
	ck_assert_double_eq(p.last_rated_at, 1000);
	ck_assert_int_eq(store_player_by_id(s, b, &p), STORE_OK);
	ck_assert_double_eq(p.rating, 1400);
	ck_assert_int_eq(store_player_by_id(s, c, &p), STORE_OK);
	ck_assert_double_eq(p.rating, 2000);
	ck_assert_double_eq(p.rd, 250);
	ck_assert_double_eq(p.volatility, 0.06);
	ck_assert_double_eq(p.last_rated_at, 0);

	/* Everything: back to the starting values. */
	ck_assert_int_eq(store_ratings_rewind(s, 0, 0), STORE_OK);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM rating_history"), 0);
	ck_assert_int_eq(store_player_by_id(s, a, &p), STORE_OK);
	ck_assert_double_eq(p.rating, 1500);
	ck_assert_double_eq(p.rd, 350);
	ck_assert_double_eq(p.last_rated_at, 0);
}
END_TEST

struct games_seen {
	int n;
	int64_t id[8];
	int64_t write_player; /* if set, the callback writes (a rating) */
};

static int on_rated_game(void *ctx, const struct store_game *g)
{
	struct games_seen *gs = ctx;
	if (gs->n < 8)
		gs->id[gs->n] = g->id;
	gs->n++;
	if (gs->write_player)
		ck_assert_int_eq(store_player_set_rated(s, gs->write_player, 1700, 100, 0.06,
				g->ended_at), STORE_OK);
	return 0;
}

START_TEST(test_rated_games)
{
	struct games_seen gs = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("bob");
	int64_t g1 = ended_game(a, b, 3000, "B+R", "resignation", true);
	int64_t g2 = ended_game(a, b, 1000, "W+3.5", "score", true);
	ended_game(a, b, 1500, "B+R", "resignation", false);   /* unrated */
	ended_game(a, b, 0, "Void", "declined", true);          /* no ended_at */
	game_new(a, b, "playing");
	int64_t g3 = ended_game(a, b, 3000, "Void", "double_forfeit", true);
	ck_assert_int_eq(store_rated_games(s, 0, 0, on_rated_game, &gs), STORE_OK);
	ck_assert_int_eq(gs.n, 3);
	ck_assert_int_eq(gs.id[0], g2);
	ck_assert_int_eq(gs.id[1], g1);
	ck_assert_int_eq(gs.id[2], g3);
	/* From a position; the callback may write. */
	memset(&gs, 0, sizeof gs);
	gs.write_player = a;
	ck_assert_int_eq(store_rated_games(s, 3000, g1 + 1, on_rated_game, &gs), STORE_OK);
	ck_assert_int_eq(gs.n, 1);
	ck_assert_int_eq(gs.id[0], g3);
	ck_assert_int_eq(raw_int("SELECT rating FROM players WHERE name = 'alice'"), 1700);
}
END_TEST

struct board_seen {
	int n;
	char name[4][STORE_NAME_MAX + 1];
	int games[4];
	double last_played[4];
	bool pwhash_blank;
};

static int on_row(void *ctx, const struct store_leaderboard_row *r)
{
	struct board_seen *bs = ctx;
	if (bs->n < 4) {
		snprintf(bs->name[bs->n], sizeof bs->name[0], "%s", r->player.name);
		bs->games[bs->n] = r->games;
		bs->last_played[bs->n] = r->last_played;
	}
	bs->pwhash_blank = bs->pwhash_blank && r->player.pwhash[0] == '\0';
	bs->n++;
	return 0;
}

START_TEST(test_leaderboard)
{
	struct board_seen bs = { 0 };
	open_store();
	int64_t a = player("alice"), b = player("Bob"), c = player("carol");
	int64_t g1 = ended_game(a, b, 1000, "B+R", "resignation", true);
	change(a, g1, 1000, 1500, 1400);
	change(b, g1, 1000, 1500, 1600);
	int64_t g2 = ended_game(b, a, 2000, "0", "score", true);
	change(a, g2, 2000, 1400, 1450);
	change(b, g2, 2000, 1600, 1550);
	ended_game(c, a, 5000, "Void", "declined", false);  /* not played */
	ended_game(c, a, 4000, "W+F", "lateness", true);    /* not played on the board */

	bs.pwhash_blank = true;
	ck_assert_int_eq(store_leaderboard(s, STORE_SORT_RATING, 10, on_row, &bs), STORE_OK);
	ck_assert_int_eq(bs.n, 3);
	ck_assert_str_eq(bs.name[0], "Bob");
	ck_assert_str_eq(bs.name[1], "carol");
	ck_assert_str_eq(bs.name[2], "alice");
	ck_assert_int_eq(bs.games[0], 2);
	ck_assert_int_eq(bs.games[1], 0);
	ck_assert_double_eq(bs.last_played[2], 2000);
	ck_assert_double_eq(bs.last_played[1], 0);
	ck_assert(bs.pwhash_blank);

	memset(&bs, 0, sizeof bs);
	ck_assert_int_eq(store_leaderboard(s, STORE_SORT_NAME, 10, on_row, &bs), STORE_OK);
	ck_assert_str_eq(bs.name[0], "alice");
	ck_assert_str_eq(bs.name[1], "Bob");
	ck_assert_str_eq(bs.name[2], "carol");
	memset(&bs, 0, sizeof bs);
	ck_assert_int_eq(store_leaderboard(s, STORE_SORT_GAMES, 2, on_row, &bs), STORE_OK);
	ck_assert_int_eq(bs.n, 2);
	ck_assert_str_eq(bs.name[0], "Bob");
	ck_assert_str_eq(bs.name[1], "alice");
	memset(&bs, 0, sizeof bs);
	ck_assert_int_eq(store_leaderboard(s, STORE_SORT_LAST_PLAYED, 10, on_row, &bs), STORE_OK);
	ck_assert_str_eq(bs.name[0], "alice");
	ck_assert_str_eq(bs.name[1], "Bob");
	ck_assert_str_eq(bs.name[2], "carol");
	ck_assert_int_eq(store_leaderboard(s, STORE_SORT_NAME, 0, on_row, &bs), STORE_ERROR);
	ck_assert_int_eq(store_leaderboard(s, (enum store_leaderboard_sort)99, 5, on_row, &bs),
			STORE_ERROR);
}
END_TEST

/* A version-1 database (players only) gains the rating columns with their defaults. */
START_TEST(test_migrate_from_v1)
{
	struct store_player p;
	char sql[256];
	raw_exec(store_migrations[0]);
	snprintf(sql, sizeof sql, "INSERT INTO players (name, pwhash, rating, rd) VALUES "
			"('old', 'h', 1610, 90); PRAGMA user_version = 1");
	raw_exec(sql);
	open_store();
	ck_assert_int_eq(store_player_by_name(s, "old", &p), STORE_OK);
	ck_assert_double_eq(p.rating, 1610);
	ck_assert_double_eq(p.rating_start, 1500);
	ck_assert_double_eq(p.rd_start, 350);
	ck_assert_double_eq(p.last_rated_at, 0);
	ck_assert_int_eq(raw_int("PRAGMA user_version"), store_schema_version());
	ck_assert_int_eq(raw_int("SELECT count(*) FROM sqlite_master WHERE name = 'tournaments'"),
			1);
}
END_TEST

/* ---- Tournaments (migration 0003) ---- */

struct tournaments_seen {
	int n;
	int64_t id[4];
	char name[4][STORE_TOURNAMENT_NAME_MAX + 1];
	char state[4][64];
};

static int on_tournament(void *ctx, const struct store_tournament *t)
{
	struct tournaments_seen *ts = ctx;
	if (ts->n < 4) {
		ts->id[ts->n] = t->id;
		snprintf(ts->name[ts->n], sizeof ts->name[0], "%s", t->name);
		snprintf(ts->state[ts->n], sizeof ts->state[0], "%s", t->state);
	}
	ts->n++;
	/* Callbacks may write. */
	ck_assert_int_eq(store_tournament_update(s, t->id, "{\"seen\":true}"), STORE_OK);
	return 0;
}

START_TEST(test_tournaments)
{
	struct store_tournament t;
	struct tournaments_seen ts = { 0 };
	int64_t id = 0, id2 = 0;
	char name[STORE_TOURNAMENT_NAME_MAX + 2];
	open_store();
	ck_assert_int_eq(store_tournament_create(s, "Spring Cup", "mcmahon",
			"{\"rounds\":5,\"players\":[]}", &id), STORE_OK);
	ck_assert_int_gt(id, 0);
	ck_assert_int_eq(store_tournament_create(s, "spring cup", "swiss", "{}", NULL),
			STORE_CONFLICT);
	ck_assert_ptr_nonnull(strstr(store_errmsg(s), "taken"));
	ck_assert_int_eq(store_tournament_create(s, "Bad", "swiss", "{not json", NULL), STORE_ERROR);
	ck_assert_int_eq(store_tournament_create(s, "", "swiss", "{}", NULL), STORE_ERROR);
	memset(name, 'x', sizeof name - 1);
	name[sizeof name - 1] = '\0';
	ck_assert_int_eq(store_tournament_create(s, name, "swiss", "{}", NULL), STORE_ERROR);
	ck_assert_int_eq(store_tournament_create(s, "NoSystem", "", "{}", NULL), STORE_ERROR);
	ck_assert_int_eq(store_tournament_create(s, "NoState", "swiss", NULL, NULL), STORE_ERROR);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM tournaments"), 1);

	ck_assert_int_eq(store_tournament_get(s, id, &t), STORE_OK);
	ck_assert_int_eq(t.id, id);
	ck_assert_str_eq(t.name, "Spring Cup");
	ck_assert_str_eq(t.system, "mcmahon");
	ck_assert_str_eq(t.state, "{\"rounds\":5,\"players\":[]}");
	ck_assert(t.created_at > 1.6e9);
	store_tournament_clear(&t);
	ck_assert_ptr_null(t.state);
	ck_assert_int_eq(store_tournament_get(s, id + 100, &t), STORE_NOT_FOUND);
	ck_assert_ptr_null(t.state);
	ck_assert_int_eq(store_tournament_by_name(s, "SPRING CUP", &t), STORE_OK);
	ck_assert_int_eq(t.id, id);
	store_tournament_clear(&t);

	ck_assert_int_eq(store_tournament_update(s, id, "{\"rounds\":5,\"round\":1}"), STORE_OK);
	ck_assert_int_eq(store_tournament_update(s, id, "[oops"), STORE_ERROR);
	ck_assert_int_eq(store_tournament_update(s, id + 100, "{}"), STORE_NOT_FOUND);
	ck_assert_int_eq(store_tournament_get(s, id, &t), STORE_OK);
	ck_assert_str_eq(t.state, "{\"rounds\":5,\"round\":1}");
	store_tournament_clear(&t);

	ck_assert_int_eq(store_tournament_create(s, "Autumn", "swiss", "[1]", &id2), STORE_OK);
	ck_assert_int_eq(store_tournaments_list(s, on_tournament, &ts), STORE_OK);
	ck_assert_int_eq(ts.n, 2);
	ck_assert_int_eq(ts.id[0], id);
	ck_assert_str_eq(ts.name[1], "Autumn");
	ck_assert_str_eq(ts.state[1], "[1]");
	ck_assert_int_eq(store_tournament_get(s, id2, &t), STORE_OK);
	ck_assert_str_eq(t.state, "{\"seen\":true}");
	store_tournament_clear(&t);

	/* Survives a reopen. */
	store_close(s);
	s = NULL;
	open_store();
	ck_assert_int_eq(store_tournament_get(s, id, &t), STORE_OK);
	ck_assert_str_eq(t.name, "Spring Cup");
	store_tournament_clear(&t);
}
END_TEST

static Suite *store_suite(void)
{
	Suite *su = suite_create("store");
	TCase *tc = tcase_create("store");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_create_reopen);
	tcase_add_test(tc, test_refuse_newer);
	tcase_add_test(tc, test_open_bad_path);
	tcase_add_test(tc, test_wal);
	tcase_add_test(tc, test_player_create);
	tcase_add_test(tc, test_player_role);
	tcase_add_test(tc, test_player_rating);
	tcase_add_test(tc, test_game_round_trip);
	tcase_add_test(tc, test_game_update_state);
	tcase_add_test(tc, test_game_invalid);
	tcase_add_test(tc, test_games_list);
	tcase_add_test(tc, test_moves);
	tcase_add_test(tc, test_moves_callbacks);
	tcase_add_test(tc, test_warnings);
	tcase_add_test(tc, test_unfinished);
	tcase_add_test(tc, test_rollback);
	tcase_add_test(tc, test_group_commit);
	tcase_add_test(tc, test_foreign_keys);
	tcase_add_test(tc, test_move_journal);
	tcase_add_test(tc, test_move_journal_lost_transaction);
	tcase_add_test(tc, test_rating_start);
	tcase_add_test(tc, test_rating_history);
	tcase_add_test(tc, test_ratings_rewind);
	tcase_add_test(tc, test_rated_games);
	tcase_add_test(tc, test_leaderboard);
	tcase_add_test(tc, test_migrate_from_v1);
	tcase_add_test(tc, test_tournaments);
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
