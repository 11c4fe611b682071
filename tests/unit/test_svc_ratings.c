/* Tests for server/ratings: which games count, game.end's ratings, idle RD growth, a changed
 * result's recompute, declared ranks, the leaderboard and profile views. Each test works on
 * fresh databases in its own mkdtemp directory, with a struct server holding only a store
 * (the functions need nothing else). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rating.h"
#include "ratings.h"

#define T0 1700000000.0      /* time of the first game */
#define DAY 86400.0
#define EPS 1e-9

static char dir[64];
static struct server srv, srv2;

static void open_srv(struct server *v, const char *file)
{
	char path[160], err[STORE_ERR_MAX] = "";
	memset(v, 0, sizeof *v);
	snprintf(path, sizeof path, "%s/%s", dir, file);
	ck_assert_msg(store_open(path, &v->store, err, sizeof err) == STORE_OK, "%s", err);
}

static void setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/tengen-ratings-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	open_srv(&srv, "a.db");
	open_srv(&srv2, "b.db");
}

static void teardown(void)
{
	store_close(srv.store);
	store_close(srv2.store);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int64_t player(struct server *v, const char *name)
{
	int64_t id = 0;
	ck_assert_int_eq(store_player_create(v->store, name, "$argon2id$fake", "player", &id),
			STORE_OK);
	return id;
}

static void row(struct store_game *g, int64_t b, int64_t w, const char *result,
		const char *reason, double at)
{
	memset(g, 0, sizeof *g);
	g->black_id = b;
	g->white_id = w;
	g->size = 19;
	g->komi = 6.5;
	g->rated = true;
	snprintf(g->phase, sizeof g->phase, "ended");
	snprintf(g->result, sizeof g->result, "%s", result);
	snprintf(g->reason, sizeof g->reason, "%s", reason);
	g->created_at = at - 100;
	g->ended_at = at;
}

/* A game ends: its row is written, then ratings_game_ended; returns the game id and the
 * event (new reference) in *ev if ev. */
static int64_t end(struct server *v, int64_t b, int64_t w, const char *result,
		const char *reason, double at, bool rated, json_t **ev)
{
	struct store_game g;
	int64_t id = 0;
	row(&g, b, w, result, reason, at);
	g.rated = rated;
	server_txn(v);
	ck_assert_int_eq(store_game_create(v->store, &g, &id), STORE_OK);
	json_t *e = json_object();
	ck_assert_int_eq(ratings_game_ended(v, id, e), 0);
	if (ev)
		*ev = e;
	else
		json_decref(e);
	return id;
}

static struct store_player get(struct server *v, int64_t id)
{
	struct store_player p;
	ck_assert_int_eq(store_player_by_id(v->store, id, &p), STORE_OK);
	return p;
}

static int history_rows(struct server *v)
{
	int n = 0;
	json_t *arr = ratings_leaderboard(v, STORE_SORT_NAME, 1000);
	ck_assert_ptr_nonnull(arr);
	for (size_t i = 0; i < json_array_size(arr); i++)
		n += (int)json_integer_value(json_object_get(json_array_get(arr, i), "games"));
	json_decref(arr);
	return n;
}

START_TEST(test_counts)
{
	static const struct { const char *result, *reason, *phase; bool rated; double score; } c[] = {
		{ "B+R", "resignation", "ended", true, 1 },
		{ "W+T", "time", "ended", true, 0 },
		{ "0", "score", "ended", true, 0.5 },
		{ "W+3.5", "score", "ended", true, 0 },
		{ "B+F", "warnings", "ended", true, 1 },
		{ "W+F", "illegal", "ended", true, 0 },
		{ "B+5.5", "adjudicated", "ended", true, 1 },
		{ "W+F", "lateness", "ended", true, -1 },
		{ "Void", "double_forfeit", "ended", true, -1 },
		{ "Void", "cycle", "ended", true, -1 },
		{ "Void", "declined", "ended", true, -1 },
		{ "Void", "adjudicated", "ended", true, -1 },
		{ "B+R", "resignation", "ended", false, -1 },
		{ "", "", "playing", true, -1 },
	};
	for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
		struct store_game g;
		double score = -7;
		row(&g, 1, 2, c[i].result, c[i].reason, T0);
		snprintf(g.phase, sizeof g.phase, "%s", c[i].phase);
		g.rated = c[i].rated;
		bool counts = ratings_game_counts(&g, &score);
		ck_assert_msg(counts == (c[i].score >= 0), "case %zu", i);
		if (counts)
			ck_assert_double_eq(score, c[i].score);
	}
}
END_TEST

START_TEST(test_game_ended)
{
	json_t *ev;
	int64_t a = player(&srv, "alice"), b = player(&srv, "bob");
	int64_t g = end(&srv, a, b, "B+R", "resignation", T0, true, &ev);
	json_t *r = json_object_get(ev, "ratings");
	ck_assert_ptr_nonnull(r);
	json_t *rb = json_object_get(r, "B"), *rw = json_object_get(r, "W");
	ck_assert_double_eq(json_real_value(json_object_get(rb, "before")), 1500);
	ck_assert_double_eq(json_real_value(json_object_get(rw, "before")), 1500);
	double after_b = json_real_value(json_object_get(rb, "after"));
	ck_assert(after_b > 1600);
	ck_assert(json_real_value(json_object_get(rw, "after")) < 1400);
	ck_assert_double_eq(json_real_value(json_object_get(rb, "rd_before")), 350);
	ck_assert_str_eq(json_string_value(json_object_get(rb, "rank")), "4k?");
	json_decref(ev);
	/* The same values as common/rating for one even game. */
	struct rating x, y;
	rating_init(&x);
	rating_init(&y);
	ck_assert_int_eq(rating_update_game(&x, &y, 1), RATING_OK);
	struct store_player pa = get(&srv, a), pb = get(&srv, b);
	ck_assert_double_eq_tol(pa.rating, x.rating, EPS);
	ck_assert_double_eq_tol(pa.rd, x.rd, EPS);
	ck_assert_double_eq_tol(pb.rating, y.rating, EPS);
	ck_assert_double_eq_tol(pb.volatility, y.volatility, EPS);
	ck_assert_double_eq(pa.last_rated_at, T0);
	ck_assert_double_eq_tol(after_b, x.rating, EPS);
	ck_assert_int_eq(history_rows(&srv), 2);

	/* Games that do not count leave no trace. */
	end(&srv, a, b, "W+F", "lateness", T0 + 10, true, &ev);
	ck_assert_ptr_null(json_object_get(ev, "ratings"));
	json_decref(ev);
	end(&srv, a, b, "Void", "double_forfeit", T0 + 20, true, &ev);
	ck_assert_ptr_null(json_object_get(ev, "ratings"));
	json_decref(ev);
	end(&srv, a, b, "B+R", "resignation", T0 + 30, false, &ev);
	ck_assert_ptr_null(json_object_get(ev, "ratings"));
	json_decref(ev);
	ck_assert_int_eq(history_rows(&srv), 2);
	ck_assert_double_eq(get(&srv, a).rating, pa.rating);
	ck_assert_double_eq(get(&srv, a).last_rated_at, T0);
	(void)g;
	ck_assert_int_eq(store_commit(srv.store), STORE_OK);
}
END_TEST

START_TEST(test_idle_and_handicap)
{
	int64_t a = player(&srv, "alice"), b = player(&srv, "bob");
	struct store_game g;
	int64_t id;
	end(&srv, a, b, "B+R", "resignation", T0, true, NULL);
	/* 100 days later, a 4-stone game Black loses. */
	row(&g, a, b, "W+R", "resignation", T0 + 100 * DAY);
	g.handicap = 4;
	ck_assert_int_eq(store_game_create(srv.store, &g, &id), STORE_OK);
	struct rating x, y;
	rating_init(&x);
	rating_init(&y);
	ck_assert_int_eq(rating_update_game(&x, &y, 1), RATING_OK);
	ck_assert_int_eq(rating_idle(&x, 100), RATING_OK);
	ck_assert_int_eq(rating_idle(&y, 100), RATING_OK);
	ck_assert_int_eq(rating_update_handicap(&x, &y, 0, 4), RATING_OK);
	ck_assert_int_eq(ratings_game_ended(&srv, id, NULL), 0);
	ck_assert_double_eq_tol(get(&srv, a).rating, x.rating, EPS);
	ck_assert_double_eq_tol(get(&srv, a).rd, x.rd, EPS);
	ck_assert_double_eq_tol(get(&srv, b).rating, y.rating, EPS);
	ck_assert_double_eq(get(&srv, b).last_rated_at, T0 + 100 * DAY);
	ck_assert_int_eq(store_commit(srv.store), STORE_OK);
}
END_TEST

/* Games of a small event: black, white, result, reason, days after T0. */
static const struct { int b, w; const char *result, *reason; double day; } event[] = {
	{ 0, 1, "B+R", "resignation", 0 },
	{ 1, 2, "W+T", "time", 3 },
	{ 2, 0, "0", "score", 3 },
	{ 0, 2, "B+F", "lateness", 5 },
	{ 1, 0, "W+12.5", "score", 40 },
	{ 2, 1, "B+R", "resignation", 41 },
};
#define NEVENT (sizeof event / sizeof *event)

/* Play the event on v, game `changed` with `result`/`reason` instead; ids in ids[]. */
static void play(struct server *v, int64_t *pl, int64_t *ids, size_t changed,
		const char *result, const char *reason)
{
	for (size_t i = 0; i < NEVENT; i++) {
		bool ch = i == changed;
		ids[i] = end(v, pl[event[i].b], pl[event[i].w], ch ? result : event[i].result,
				ch ? reason : event[i].reason, T0 + event[i].day * DAY, true, NULL);
	}
}

static void same_ratings(int64_t *p1, int64_t *p2, int n)
{
	for (int i = 0; i < n; i++) {
		struct store_player x = get(&srv, p1[i]), y = get(&srv2, p2[i]);
		ck_assert_double_eq_tol(x.rating, y.rating, EPS);
		ck_assert_double_eq_tol(x.rd, y.rd, EPS);
		ck_assert_double_eq_tol(x.volatility, y.volatility, EPS);
		ck_assert_double_eq(x.last_rated_at, y.last_rated_at);
	}
}

START_TEST(test_recompute)
{
	static const char *const names[] = { "ann", "ben", "cat" };
	int64_t p1[3], p2[3], ids1[NEVENT], ids2[NEVENT];
	struct store_game g;
	for (int i = 0; i < 3; i++) {
		p1[i] = player(&srv, names[i]);
		p2[i] = player(&srv2, names[i]);
	}
	ck_assert_int_eq(ratings_declare_rank(&srv, p1[2], "2d"), 0);
	ck_assert_int_eq(ratings_declare_rank(&srv2, p2[2], "2d"), 0);
	play(&srv, p1, ids1, NEVENT, NULL, NULL);
	double before = get(&srv, p1[0]).rating;

	/* A director turns game 2 (index 1) around: W+T becomes B+R. */
	ck_assert_int_eq(store_game_get(srv.store, ids1[1], &g), STORE_OK);
	snprintf(g.result, sizeof g.result, "B+R");
	snprintf(g.reason, sizeof g.reason, "resignation");
	ck_assert_int_eq(store_game_update(srv.store, &g), STORE_OK);
	store_game_clear(&g);
	json_t *ev = json_object();
	ck_assert_int_eq(ratings_game_ended(&srv, ids1[1], ev), 0);
	json_t *r = json_object_get(ev, "ratings");
	ck_assert_ptr_nonnull(r);
	ck_assert(json_real_value(json_object_get(json_object_get(r, "B"), "after")) >
		  json_real_value(json_object_get(json_object_get(r, "B"), "before")));
	json_decref(ev);
	/* As if played that way. */
	play(&srv2, p2, ids2, 1, "B+R", "resignation");
	same_ratings(p1, p2, 3);
	ck_assert(fabs(get(&srv, p1[0]).rating - before) > 1e-6); /* later games moved too */
	ck_assert_int_eq(history_rows(&srv), 2 * (NEVENT - 1));

	/* A full recompute changes nothing more. */
	ck_assert_int_eq(ratings_recompute(&srv, 0), 0);
	same_ratings(p1, p2, 3);

	/* Game 5 (index 4) becomes a double forfeit: its changes go. */
	ck_assert_int_eq(store_game_get(srv.store, ids1[4], &g), STORE_OK);
	snprintf(g.result, sizeof g.result, "Void");
	snprintf(g.reason, sizeof g.reason, "double_forfeit");
	ck_assert_int_eq(store_game_update(srv.store, &g), STORE_OK);
	store_game_clear(&g);
	ck_assert_int_eq(ratings_recompute(&srv, ids1[4]), 0);
	ck_assert_int_eq(history_rows(&srv), 2 * (NEVENT - 2));
	/* Game 4 (index 3, a no-show: never rated) is given to Black on the board after later
	 * games were rated: they are replayed after it. */
	ck_assert_int_eq(store_game_get(srv.store, ids1[3], &g), STORE_OK);
	snprintf(g.result, sizeof g.result, "B+R");
	snprintf(g.reason, sizeof g.reason, "resignation");
	ck_assert_int_eq(store_game_update(srv.store, &g), STORE_OK);
	store_game_clear(&g);
	ck_assert_int_eq(ratings_game_ended(&srv, ids1[3], NULL), 0);
	ck_assert_int_eq(history_rows(&srv), 2 * (NEVENT - 1));
	{
		struct server v3;
		int64_t p3[3];
		open_srv(&v3, "c.db");
		for (int i = 0; i < 3; i++)
			p3[i] = player(&v3, names[i]);
		ck_assert_int_eq(ratings_declare_rank(&v3, p3[2], "2d"), 0);
		for (size_t i = 0; i < NEVENT; i++) {
			const char *res = i == 1 || i == 3 ? "B+R" : i == 4 ? "Void" : event[i].result;
			const char *why = i == 1 || i == 3 ? "resignation" : i == 4 ? "double_forfeit"
				: event[i].reason;
			end(&v3, p3[event[i].b], p3[event[i].w], res, why,
					T0 + event[i].day * DAY, true, NULL);
		}
		for (int i = 0; i < 3; i++) {
			struct store_player x = get(&srv, p1[i]), y = get(&v3, p3[i]);
			ck_assert_double_eq_tol(x.rating, y.rating, EPS);
			ck_assert_double_eq_tol(x.rd, y.rd, EPS);
		}
		ck_assert_int_eq(store_commit(v3.store), STORE_OK);
		store_close(v3.store);
	}
	/* The declared start survives a full recompute. */
	ck_assert_int_eq(ratings_recompute(&srv, 0), 0);
	struct store_player c = get(&srv, p1[2]);
	ck_assert_double_eq_tol(c.rating_start, rank_to_rating(1), EPS);
	ck_assert_int_eq(store_commit(srv.store), STORE_OK);
	ck_assert_int_eq(store_commit(srv2.store), STORE_OK);
}
END_TEST

START_TEST(test_declare_rank)
{
	char canon[STORE_RANK_SIZE];
	int64_t a = player(&srv, "alice"), b = player(&srv, "bob");
	ck_assert_int_eq(ratings_rank_check("3K", canon), 0);
	ck_assert_str_eq(canon, "3k");
	ck_assert_int_eq(ratings_rank_check("30K", canon), 0); /* the EGD's ranks go to 30k */
	ck_assert_str_eq(canon, "30k");
	ck_assert_int_eq(ratings_rank_check("31k", canon), -1);
	ck_assert_int_eq(ratings_rank_check("1p", canon), -1);
	ck_assert_int_eq(ratings_rank_check(NULL, canon), -1);
	ck_assert_int_eq(ratings_declare_rank(&srv, a, "31k"), -2);
	ck_assert_double_eq(get(&srv, a).rating, 1500);
	ck_assert_int_eq(ratings_declare_rank(&srv, a, "3k"), 0);
	struct store_player p = get(&srv, a);
	ck_assert_double_eq_tol(p.rating, rank_to_rating(-3), EPS);
	ck_assert_double_eq(p.rd, RATING_RD_DECLARED);
	ck_assert_str_eq(p.rank, "3k");
	json_t *brief = ratings_player_brief(&srv, a);
	ck_assert_str_eq(json_string_value(json_object_get(brief, "rank")), "3k?");
	ck_assert_str_eq(json_string_value(json_object_get(brief, "name")), "alice");
	json_decref(brief);
	ck_assert_ptr_null(ratings_player_brief(&srv, b + 100));
	end(&srv, a, b, "B+R", "resignation", T0, true, NULL);
	ck_assert_int_eq(ratings_declare_rank(&srv, a, "1d"), -1); /* already rated */
	ck_assert_int_eq(store_commit(srv.store), STORE_OK);
}
END_TEST

START_TEST(test_views)
{
	int64_t a = player(&srv, "alice"), b = player(&srv, "bob");
	int64_t g1 = end(&srv, a, b, "B+R", "resignation", T0, true, NULL);
	end(&srv, b, a, "Void", "declined", T0 + 5, false, NULL);
	json_t *arr = ratings_leaderboard(&srv, STORE_SORT_RATING, 10);
	ck_assert_int_eq(json_array_size(arr), 2);
	json_t *top = json_array_get(arr, 0);
	ck_assert_str_eq(json_string_value(json_object_get(top, "name")), "alice");
	ck_assert_int_eq(json_integer_value(json_object_get(top, "games")), 1);
	ck_assert_double_eq(json_real_value(json_object_get(top, "last_played")), T0);
	ck_assert_str_eq(json_string_value(json_object_get(top, "rank")), "4k?");
	json_decref(arr);

	struct store_player p = get(&srv, a);
	json_t *prof = json_pack("{s:{s:s}}", "player", "name", "alice");
	ck_assert_int_eq(ratings_profile(&srv, &p, prof), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(prof, "player"),
			"games")), 1);
	json_t *h = json_object_get(prof, "history");
	ck_assert_int_eq(json_array_size(h), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(h, 0), "game")), g1);
	json_t *rg = json_object_get(prof, "recent_games");
	ck_assert_int_eq(json_array_size(rg), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rg, 0), "reason")),
			"declined");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rg, 1), "opponent")),
			"bob");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rg, 1), "color")), "B");
	ck_assert(json_is_array(json_object_get(prof, "tournaments")));
	json_decref(prof);
	ck_assert_int_eq(store_commit(srv.store), STORE_OK);
}
END_TEST

static Suite *ratings_suite(void)
{
	Suite *su = suite_create("ratings_server");
	TCase *tc = tcase_create("ratings_server");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_game_ended);
	tcase_add_test(tc, test_idle_and_handicap);
	tcase_add_test(tc, test_recompute);
	tcase_add_test(tc, test_declare_rank);
	tcase_add_test(tc, test_views);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(ratings_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
