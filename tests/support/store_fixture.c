/* store_fixture: what the store's test programs (test_store, test_store_games) share: a
 * fresh database per test, raw SQL beside the store, players, games and moves to write. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sqlite3.h>
#include "store.h"
#include "store_fixture.h"

char dir[64];
char path[128];
struct store *s;

void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/tengen-store-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/tengen.db", dir);
	s = NULL;
}

void teardown(void)
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

void open_store(void)
{
	char err[STORE_ERR_MAX] = "";
	enum store_rc rc = store_open(path, &s, err, sizeof err);
	ck_assert_msg(rc == STORE_OK, "store_open: %d %s", rc, err);
	ck_assert_ptr_nonnull(s);
}

/* A value from the database through a connection of its own (not the store's). */
int raw_int(const char *sql)
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

void raw_exec(const char *sql)
{
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

int64_t player(const char *name)
{
	int64_t id = 0;
	ck_assert_int_eq(store_player_create(s, name, "$argon2id$v=19$fakehash", "player", &id),
			STORE_OK);
	ck_assert_int_gt(id, 0);
	return id;
}

/* A game with every field set. */
void game_fill(struct store_game *g, int64_t black, int64_t white)
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

void game_eq(const struct store_game *a, const struct store_game *b)
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

int64_t game_new(int64_t black, int64_t white, const char *phase)
{
	struct store_game g;
	int64_t id = 0;
	game_fill(&g, black, white);
	snprintf(g.phase, sizeof g.phase, "%s", phase);
	ck_assert_int_eq(store_game_create(s, &g, &id), STORE_OK);
	ck_assert_int_gt(id, 0);
	return id;
}

void move_fill(struct store_move *m, int number, const char *vertex)
{
	memset(m, 0, sizeof *m);
	m->number = number;
	m->color = number % 2 ? 'B' : 'W';
	snprintf(m->vertex, sizeof m->vertex, "%s", vertex);
	m->at = 1700000000.0 + number;
}

int on_move(void *ctx, const struct store_move *m)
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

int moves_count(int64_t game)
{
	struct moves_seen ms = { 0 };
	ck_assert_int_eq(store_moves_get(s, game, on_move, &ms), STORE_OK);
	return ms.n;
}

