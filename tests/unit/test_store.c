/* Tests for server/store: opening and migrations, players, ratings, tournaments (games,
 * moves, warnings and transactions: test_store_games.c). Each test works on a fresh database
 * in its own mkdtemp directory (tests/support/store_fixture.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include "store.h"
#include "store_fixture.h"
#include "store_int.h"

extern const char *const store_migrations[];

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

/* Profiles (migration 0006): none, written, replaced; "" stored as unknown; what the schema
 * refuses changes nothing. */
START_TEST(test_profile)
{
	struct store_profile p, q;
	int64_t id;
	open_store();
	ck_assert_int_eq(store_player_create(s, "ann", "h", "player", &id), STORE_OK);
	ck_assert_int_eq(store_profile_get(s, id, &p), STORE_NOT_FOUND);
	ck_assert_str_eq(p.full_name, "");
	memset(&p, 0, sizeof p);
	snprintf(p.full_name, sizeof p.full_name, "Müller Anna");
	snprintf(p.country, sizeof p.country, "DE");
	snprintf(p.egd_pin, sizeof p.egd_pin, "12345678");
	p.entrant = true;
	ck_assert_int_eq(store_profile_set(s, id, &p), STORE_OK);
	ck_assert_int_eq(store_profile_get(s, id, &q), STORE_OK);
	ck_assert_str_eq(q.full_name, "Müller Anna");
	ck_assert_str_eq(q.country, "DE");
	ck_assert_str_eq(q.club, "");
	ck_assert_str_eq(q.egd_pin, "12345678");
	ck_assert(q.entrant);
	snprintf(p.club, sizeof p.club, "Berl");
	p.entrant = false;
	ck_assert_int_eq(store_profile_set(s, id, &p), STORE_OK);
	ck_assert_int_eq(store_profile_get(s, id, &q), STORE_OK);
	ck_assert_str_eq(q.club, "Berl");
	ck_assert(!q.entrant);
	snprintf(p.egd_pin, sizeof p.egd_pin, "123"); /* not 8: the schema refuses it */
	ck_assert_int_eq(store_profile_set(s, id, &p), STORE_ERROR);
	ck_assert_int_eq(store_profile_get(s, id, &q), STORE_OK);
	ck_assert_str_eq(q.egd_pin, "12345678");
	ck_assert_int_eq(store_profile_set(s, id + 100, &p), STORE_ERROR); /* no such player */
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
	/* each player's last game played is a search of migration 0011's indexes, not a scan of
	 * every ended game per player (games_phase: a trial's 24,000 games made one `players`
	 * request 2-4 s of the loop) */
	store_close(s);
	s = NULL;
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	char plan[2048] = "", sql[4096];
	snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s", store_stmt_sql[ST_LEADERBOARD_RATING]);
	sqlite3_stmt *st;
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, ":limit"), 10);
	while (sqlite3_step(st) == SQLITE_ROW) {
		size_t n = strlen(plan);
		snprintf(plan + n, sizeof plan - n, "%s\n", (const char *)sqlite3_column_text(st, 3));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	ck_assert_msg(strstr(plan, "games_black_played") && strstr(plan, "games_white_played") &&
		      !strstr(plan, "games_phase"), "the leaderboard's plan:\n%s", plan);
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

	/* The newest deleted: its number is not given again (it went to the next event made, and
	 * an old link showed another event), also after a reopen; its name is free. */
	ck_assert_int_eq(store_tournament_delete(s, id2, NULL), STORE_OK);
	ck_assert_int_eq(store_tournament_get(s, id2, &t), STORE_NOT_FOUND);
	ck_assert_int_eq(store_tournament_delete(s, id2, NULL), STORE_NOT_FOUND);
	ck_assert_int_eq(raw_int("SELECT count(*) FROM tournaments_deleted"), 1);
	int64_t id3 = 0;
	ck_assert_int_eq(store_tournament_create(s, "Autumn", "swiss", "{}", &id3), STORE_OK);
	ck_assert_int_eq(id3, id2 + 1);

	/* Survives a reopen. */
	store_close(s);
	s = NULL;
	open_store();
	ck_assert_int_eq(store_tournament_get(s, id, &t), STORE_OK);
	ck_assert_str_eq(t.name, "Spring Cup");
	store_tournament_clear(&t);
	ck_assert_int_eq(store_tournament_delete(s, id3, NULL), STORE_OK);
	int64_t id4 = 0;
	ck_assert_int_eq(store_tournament_create(s, "Winter", "swiss", "{}", &id4), STORE_OK);
	ck_assert_int_eq(id4, id3 + 1);
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
	tcase_add_test(tc, test_profile);
	tcase_add_test(tc, test_player_rating);
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
