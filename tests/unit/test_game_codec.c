/* The game row codec (server/game/game_codec.c) round trip: what a live game writes to its row
 * (clocks text, extra text) and its moves, read back by game_build as after a restart, gives
 * the same game, and writing the rebuilt game gives the same text. In process, on an
 * in-memory store (tests/support/inproc.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "game.h"
#include "inproc.h"
#include "vertex.h"

static struct inproc IP;

static void setup(void)
{
	ip_start(&IP);
}

static void teardown(void)
{
	ip_stop(&IP);
}

#define OK(r) ck_assert_msg(json_is_true(json_object_get((r), "ok")), "not ok: %s", \
			    json_dumps((r), JSON_COMPACT))

static void ok_req(struct ip_conn *c, json_t *req)
{
	json_t *r = ip_req(&IP, c, req);
	OK(r);
	json_decref(r);
}

/* A started game of b (Black) and w with byo-yomi and the moves `moves` (NULL-terminated)
 * played alternately from Black. Returns its id. */
static int64_t game_with_moves(struct ip_conn *b, struct ip_conn *w, const char *const *moves)
{
	json_t *r = ip_req(&IP, b, json_pack("{s:s, s:s, s:i, s:s, s:{s:s, s:i, s:i, s:i}}", "cmd",
		"challenge", "opponent", w->c->name, "size", 9, "color", "black", "time", "system",
		"byoyomi", "main_s", 60, "periods", 3, "period_s", 10));
	OK(r);
	int64_t g = ip_int(r, "game");
	json_decref(r);
	ok_req(w, json_pack("{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g));
	for (int i = 0; moves[i]; i++) {
		IP.ms += 700 + 100 * (unsigned)i;
		ok_req(i % 2 ? w : b, json_pack("{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g,
						"vertex", moves[i]));
	}
	return g;
}

/* Game `id` read back from the store as a restart would (game_build over its row and moves). */
static struct game *rebuilt(int64_t id)
{
	struct store_game row = {0};
	ck_assert_int_eq(store_game_get(IP.srv.store, id, &row), STORE_OK);
	struct game *g = game_build(&IP.srv, &row, NULL, 0);
	ck_assert_ptr_nonnull(g);
	return g;
}

/* Everything the codec carries is equal in a and b. */
static void assert_same(const struct game *a, const struct game *b)
{
	const struct referee *ra = &a->ref, *rb = &b->ref;
	ck_assert_int_eq(ra->phase, rb->phase);
	ck_assert_str_eq(ra->result, rb->result);
	ck_assert_int_eq(ra->reason, rb->reason);
	ck_assert_int_eq(ra->warnings[BLACK], rb->warnings[BLACK]);
	ck_assert_int_eq(ra->warnings[WHITE], rb->warnings[WHITE]);
	ck_assert_int_eq(ra->passes, rb->passes);
	if (ra->passes) /* no pass yet: written "B", whatever it was (it means nothing then) */
		ck_assert_int_eq(ra->first_passer, rb->first_passer);
	ck_assert_int_eq(ra->board.to_move, rb->board.to_move);
	ck_assert_uint_eq(board_moves(&ra->board), board_moves(&rb->board));
	for (int c = BLACK; c <= WHITE; c++) {
		ck_assert_int_eq(ra->claimed[c], rb->claimed[c]);
		ck_assert(memcmp(ra->dead[c], rb->dead[c], sizeof ra->dead[c]) == 0);
		ck_assert_int_eq(a->clk[c].main_ms, b->clk[c].main_ms);
		ck_assert_int_eq(a->clk[c].periods, b->clk[c].periods);
		ck_assert_int_eq(a->clk[c].period_ms, b->clk[c].period_ms);
		ck_assert_int_eq(a->clk[c].stones, b->clk[c].stones);
		ck_assert_int_eq(a->present[c], b->present[c]);
	}
	ck_assert_int_eq(ra->scored, rb->scored);
	if (ra->scored) {
		ck_assert(ra->score.black == rb->score.black && ra->score.white == rb->score.white &&
			  ra->score.komi == rb->score.komi);
	}
	ck_assert_int_eq(a->paused, b->paused);
	if (a->paused)
		ck_assert_int_eq(a->turn_used, b->turn_used);
	ck_assert_int_eq(a->lateness_limit_s, b->lateness_limit_s);
	if (ra->phase == PHASE_PENDING) /* written only while the challenge is pending */
		ck_assert_int_eq(a->expires_at, b->expires_at);
	/* Written again from the rebuilt game: the same text. */
	int at = (int)board_moves(&ra->board);
	const char *tm = ra->board.to_move != a->replay_to_move ? game_color_name(ra->board.to_move) : NULL;
	char *ta = game_extra_text(a, at, tm), *tb = game_extra_text(b, at, tm);
	ck_assert_str_eq(ta, tb);
	free(ta);
	free(tb);
	json_t *ca = game_clocks_json(a, false), *cb = game_clocks_json(b, false);
	ck_assert(json_equal(ca, cb));
	json_decref(ca);
	json_decref(cb);
}

/* Ordinary moves leave the row as written at the start (at_move 0): the rebuilt game takes
 * the clocks and the turn from the last move row. */
START_TEST(moves_only)
{
	struct ip_conn *b = ip_login(&IP, "cb", "player"), *w = ip_login(&IP, "cw", "player");
	static const char *const moves[] = {"E5", "C3", "G7", "C7", "G3", NULL};
	int64_t id = game_with_moves(b, w, moves);
	struct game *live = idmap_get(&IP.srv.games, id);
	ck_assert_ptr_nonnull(live);
	ck_assert_int_eq(live->clk[BLACK].main_ms, 60000 - 700 - 900 - 1100);
	struct game *g = rebuilt(id);
	assert_same(live, g);
	game_free(g);
}
END_TEST

struct rows_seen {
	int n;
	char last[GAME_MOVE_CLOCKS_MAX];
};

static int on_move_row(void *ctx, const struct store_move *m)
{
	struct rows_seen *rs = ctx;
	rs->n++;
	snprintf(rs->last, sizeof rs->last, "%s", m->clocks ? m->clocks : "(null)");
	return 0;
}

/* A move row keeps both clocks as the compact array (Black's main_ms, periods, period_ms, then
 * White's, for byo-yomi), and the SGF's time left of the last mover (BL) comes from it. */
START_TEST(move_rows_compact)
{
	struct ip_conn *b = ip_login(&IP, "kb", "player"), *w = ip_login(&IP, "kw", "player");
	static const char *const moves[] = {"E5", "C3", "G7", NULL};
	int64_t id = game_with_moves(b, w, moves);
	struct rows_seen rs = {0};
	ck_assert_int_eq(store_moves_get(IP.srv.store, id, on_move_row, &rs), STORE_OK);
	ck_assert_int_eq(rs.n, 3);
	/* Black used 700 + 900 ms, White 800; 3 periods of 10 s each untouched. */
	ck_assert_str_eq(rs.last, "[58400,3,10000,59200,3,10000]");
	json_t *r = ip_req(&IP, b, json_pack("{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)id));
	OK(r);
	const char *sgf = json_string_value(json_object_get(r, "sgf"));
	ck_assert_msg(sgf && strstr(sgf, ";B[gc]BL[58.4]"), "%s", sgf ? sgf : "(no sgf)");
	json_decref(r);
}
END_TEST

/* game_clocks_parse reads a move row's array for each system, and the object a game row (and
 * a move row written before the array) holds; anything else changes nothing. */
START_TEST(clocks_parse_forms)
{
	struct clock_control cc = {.system = CLOCK_BYOYOMI};
	struct clock_state b = {0}, w = {0};
	ck_assert_int_eq(game_clocks_parse(&cc, "[1,2,3,4,5,6]", &b, &w), 0);
	ck_assert(b.main_ms == 1 && b.periods == 2 && b.period_ms == 3 && b.stones == 0);
	ck_assert(w.main_ms == 4 && w.periods == 5 && w.period_ms == 6 && w.stones == 0);
	cc.system = CLOCK_CANADIAN; /* main_ms, period_ms, stones */
	ck_assert_int_eq(game_clocks_parse(&cc, "[10,20,30,40,50,60]", &b, &w), 0);
	ck_assert(b.main_ms == 10 && b.period_ms == 20 && b.stones == 30 && b.periods == 2);
	ck_assert(w.main_ms == 40 && w.period_ms == 50 && w.stones == 60 && w.periods == 5);
	cc.system = CLOCK_FISCHER;
	ck_assert_int_eq(game_clocks_parse(&cc, "[7,8]", &b, &w), 0);
	ck_assert(b.main_ms == 7 && w.main_ms == 8);
	cc.system = CLOCK_ABSOLUTE;
	ck_assert_int_eq(game_clocks_parse(&cc, "[9,11]", &b, &w), 0);
	ck_assert(b.main_ms == 9 && w.main_ms == 11);
	/* The object: only the fields it names. */
	cc.system = CLOCK_BYOYOMI;
	ck_assert_int_eq(game_clocks_parse(&cc, "{\"B\":{\"main_ms\":100,\"periods\":1,"
				"\"period_ms\":200},\"W\":{\"main_ms\":300}}", &b, &w), 0);
	ck_assert(b.main_ms == 100 && b.periods == 1 && b.period_ms == 200);
	ck_assert(w.main_ms == 300 && w.periods == 5 && w.period_ms == 50);
	/* Not a clocks text: nothing changes. */
	static const char *const bad[] = {"[1,2,3,4,5]", "[1,2,3,4,5,6,7]", "[1,2,3,4,5,\"6\"]",
		"[1,2,3,4,5,6.5]", "[]", "7", "\"x\"", "not json", "", NULL};
	for (int i = 0; bad[i]; i++) {
		struct clock_state b2 = b, w2 = w;
		ck_assert_msg(game_clocks_parse(&cc, bad[i], &b2, &w2) == -1, "%s", bad[i]);
		ck_assert(memcmp(&b2, &b, sizeof b) == 0 && memcmp(&w2, &w, sizeof w) == 0);
	}
	ck_assert_int_eq(game_clocks_parse(&cc, NULL, &b, &w), -1);
	cc.system = CLOCK_NONE;
	ck_assert_int_eq(game_clocks_parse(&cc, "[]", &b, &w), -1);
}
END_TEST

/* Every field of the extra text, set on the live game and written (game_save), comes back. */
START_TEST(every_field)
{
	struct ip_conn *b = ip_login(&IP, "fb", "player"), *w = ip_login(&IP, "fw", "player");
	static const char *const moves[] = {"E5", "C3", "pass", NULL};
	int64_t id = game_with_moves(b, w, moves);
	struct game *live = idmap_get(&IP.srv.games, id);
	ck_assert_ptr_nonnull(live);
	ck_assert_int_eq(live->ref.passes, 1);
	struct referee *r = &live->ref;
	/* A counting state with claims and a score, a paused turn, one player absent, another
	 * lateness limit and a turn that replaying would not give (Art. 21.4). */
	r->claimed[BLACK] = true;
	r->dead[BLACK][vertex_parse(&r->board, "C3")] = true;
	r->claimed[WHITE] = true;
	r->scored = true;
	r->score.black = 41.5;
	r->score.white = 39.5;
	r->score.komi = 7.5;
	r->warnings[WHITE] = 1;
	live->paused = true;
	live->turn_used = 1234;
	live->present[WHITE] = false;
	live->lateness_limit_s = 777;
	board_set_to_move(&r->board, BLACK);
	server_txn(&IP.srv);
	game_save(&IP.srv, live);
	struct game *g = rebuilt(id);
	assert_same(live, g);
	ck_assert_int_eq(g->ref.board.to_move, BLACK);
	ck_assert(g->ref.dead[BLACK][vertex_parse(&g->ref.board, "C3")]);
	game_free(g);
}
END_TEST

/* A pending challenge: its lapse time comes back. */
START_TEST(pending_challenge)
{
	struct ip_conn *b = ip_login(&IP, "pb", "player"), *w = ip_login(&IP, "pw", "player");
	json_t *r = ip_req(&IP, b, json_pack("{s:s, s:s, s:i}", "cmd", "challenge", "opponent", "pw",
					     "expires_s", 3600));
	OK(r);
	int64_t id = ip_int(r, "game");
	json_decref(r);
	(void)w;
	struct game *live = idmap_get(&IP.srv.games, id);
	ck_assert_ptr_nonnull(live);
	ck_assert_int_eq(live->expires_at, (int64_t)IP_WALL0 + 3600);
	struct game *g = rebuilt(id);
	assert_same(live, g);
	game_free(g);
}
END_TEST

static Suite *codec_suite(void)
{
	Suite *s = suite_create("game_codec");
	TCase *tc = tcase_create("round trip");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, moves_only);
	tcase_add_test(tc, every_field);
	tcase_add_test(tc, pending_challenge);
	tcase_add_test(tc, move_rows_compact);
	tcase_add_test(tc, clocks_parse_forms);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(codec_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
