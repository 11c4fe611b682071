/* Integration tests of the prediction ruleset (seed 000; docs/rules.md "Prediction rules",
 * docs/protocol.md "Prediction ruleset") over TCP against the real tengend: a full game to a
 * count against the bar; the both-sides removal with each choice; a repetition losing at once;
 * predictions hidden from the opponent and observers until both are sealed; kill -9 and
 * restart during the prediction stage and during play; the prediction allowance running out;
 * bad input refused without change.
 *
 * Each test runs in its own process with its own daemon in a fresh directory; it must stop
 * cleanly and its log hold no sanitizer report. Boards are 5x5: the first player is "alice"
 * (first: "me"), the second "bob". */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"
#include "srvtest.h"
#include "capture.h"

#define TEST_TIMEOUT_S 60

static struct hd D;

static void setup(void)
{
	st_start(&D, NULL);
}

static void teardown(void)
{
	st_finish(&D);
}

/* A prediction-rules game of `first` against `second` on 5x5, first: "me", accepted; both
 * got game.start naming first and second, without colours. `rules` (stolen) adds options. */
static long long pgame(struct hc *first, struct hc *second, json_t *more)
{
	json_t *req = json_pack("{s:s, s:s, s:i, s:s, s:{s:s}}", "cmd", "challenge", "opponent",
				second->name, "size", 5, "first", "me", "rules", "ruleset",
				"prediction");
	if (more)
		json_object_update_recursive(req, more);
	json_decref(more);
	json_t *r = hc_reqj(first, req);
	OK(r);
	long long g = hj_int(r, "game");
	json_decref(r);
	json_t *e = hc_event(second, "challenge", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_pstr_eq(hj_str(e, "settings.rules.ruleset"), "prediction");
	ck_assert_pstr_eq(hj_str(e, "settings.first"), "me");
	/* no komi and no colour apply: the bar and the predictions decide them */
	ck_assert(json_is_null(hj_get(e, "settings.komi")));
	ck_assert(json_is_null(hj_get(e, "settings.color")));
	json_decref(e);
	r = hc_req(second, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "first"), first->name);
	ck_assert(json_is_null(hj_get(r, "color")));
	json_decref(r);
	struct hc *who[2] = {first, second};
	for (int i = 0; i < 2; i++) {
		e = hc_event(who[i], "game.start", g, T);
		ck_assert_msg(e != NULL, "%s got no game.start", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "first"), first->name);
		ck_assert_pstr_eq(hj_str(e, "second"), second->name);
		ck_assert(json_is_null(hj_get(e, "black")) && json_is_null(hj_get(e, "komi")));
		/* the players' profiles by role, not by a colour not yet decided */
		ck_assert_pstr_eq(hj_str(e, "players.first.name"), first->name);
		ck_assert_pstr_eq(hj_str(e, "players.second.name"), second->name);
		ck_assert_ptr_null(hj_get(e, "players.B"));
		json_decref(e);
	}
	return g;
}

/* c plays v (a placement or a move, `remove` if not NULL); must be move `number` of `color`.
 * Returns the reply. */
static json_t *pplay(struct hc *c, long long g, const char *v, const char *remove, int number,
		     const char *color)
{
	json_t *req = json_pack("{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", v);
	if (remove)
		json_object_set_new(req, "remove", json_string(remove));
	json_t *r = hc_reqj(c, req);
	ck_assert_msg(hj_ok(r), "%s %s: %s", c->name, v, hj_text(r));
	ck_assert_int_eq(hj_int(r, "move.number"), number);
	ck_assert_pstr_eq(hj_str(r, "move.color"), color);
	return r;
}

static void pplay_ok(struct hc *c, long long g, const char *v, int number, const char *color)
{
	json_decref(pplay(c, g, v, NULL, number, color));
}

static json_t *ppredict(struct hc *c, long long g, const char *color, double margin)
{
	return hc_req(c, "{s:s, s:I, s:s, s:f}", "cmd", "predict", "game", (json_int_t)g, "color",
		      color, "margin", margin);
}

/* The opening W, B, W, B at v[0..3] (alice, bob, bob, alice). */
static void opening(struct hc *a, struct hc *b, long long g, const char *const v[4])
{
	pplay_ok(a, g, v[0], 1, "W");
	pplay_ok(b, g, v[1], 2, "B");
	pplay_ok(b, g, v[2], 3, "W");
	pplay_ok(a, g, v[3], 4, "B");
}

/* Both seal (first, then second) and the predictions are shown to both. */
static void seal_both(struct hc *a, struct hc *b, long long g, const char *ca, double ma,
		      const char *cb, double mb)
{
	json_t *r = ppredict(a, g, ca, ma);
	OK(r);
	ck_assert(hj_bool(r, "sealed"));
	json_decref(r);
	r = ppredict(b, g, cb, mb);
	OK(r);
	json_decref(r);
	struct hc *who[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.predictions", g, T);
		ck_assert_msg(e != NULL, "%s got no game.predictions", who[i]->name);
		json_decref(e);
	}
}

#define GNUGO "/usr/games/gnugo"

/* The game's record, written to DIR/name; its text (malloc'd). */
static char *save_sgf(struct hc *c, long long g, const char *name, char *path)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	char *text = strdup(hj_str(r, "sgf"));
	json_decref(r);
	snprintf(path, HARNESS_PATH_MAX, "%s/%s", D.dir, name);
	FILE *f = fopen(path, "w");
	ck_assert(f != NULL);
	fputs(text, f);
	fclose(f);
	return text;
}

/* `tengen score` of the record at path must give `want` (and read RE as `want`). */
static void expect_tengen_score(const char *path, const char *want)
{
	const char *tengen = getenv("TENGEN");
	char cmd[2 * HARNESS_PATH_MAX];
	snprintf(cmd, sizeof cmd, "'%s' score '%s'", tengen ? tengen : "./client/tengen", path);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	json_error_t je;
	json_t *rep = json_loadf(p, JSON_DISABLE_EOF_CHECK, &je);
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_msg(rep != NULL, "tengen score printed no JSON: %s", je.text);
	ck_assert_msg(strcmp(hj_str(rep, "result"), want) == 0 &&
		      strcmp(hj_str(rep, "recorded_result"), want) == 0,
		      "tengen score: %s, want %s", hj_text(rep), want);
	json_decref(rep);
}

static void clear_events(struct hc *a, struct hc *b)
{
	st_ping_ok(a);
	st_ping_ok(b);
	hc_clear(a);
	hc_clear(b);
}

/* ---- a full game ---- */

/* White's wall on column C, Black's on D: White 15, Black 10. Example 1's predictions (alice
 * W+7, bob W+6): alice White, bar W+6.5; White ahead by 5: Black (bob) wins by 1.5. */
START_TEST(test_full_game)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob"), *o = st_login(&D, "olga");
	long long g = pgame(a, b, NULL);
	json_t *r = hc_req(o, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "opening");
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "W");
	ck_assert_pstr_eq(hj_str(r, "game.first"), "alice");
	ck_assert(json_is_null(hj_get(r, "game.white")));
	json_decref(r);
	static const char *const op[4] = {"C1", "D1", "C2", "D2"};
	opening(a, b, g, op);
	r = st_game_get(o, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "predicting");
	json_decref(r);
	seal_both(a, b, g, "W", 7, "W", 6);
	json_t *e = hc_event(o, "game.predictions", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_pstr_eq(hj_str(e, "white"), "alice");
	ck_assert_pstr_eq(hj_str(e, "black"), "bob");
	ck_assert_pstr_eq(hj_str(e, "bar.color"), "W");
	ck_assert(hj_num(e, "bar.margin") == 6.5);
	ck_assert_pstr_eq(hj_str(e, "predictions.first.color"), "W");
	ck_assert(hj_num(e, "predictions.first.margin") == 7);
	ck_assert(hj_num(e, "predictions.second.margin") == 6);
	json_decref(e);
	r = st_game_get(o, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "W");
	ck_assert(hj_num(r, "game.komi") == -6.5);
	ck_assert_pstr_eq(hj_str(r, "game.white"), "alice");
	json_decref(r);
	const char *w[] = {"C3", "C4", "C5"}, *bl[] = {"D3", "D4", "D5"};
	for (int i = 0; i < 3; i++) {
		pplay_ok(a, g, w[i], 5 + 2 * i, "W");
		pplay_ok(b, g, bl[i], 6 + 2 * i, "B");
	}
	pplay_ok(a, g, "pass", 11, "W");
	pplay_ok(b, g, "pass", 12, "B");
	json_decref(st_dead(a, g, json_pack("[]")));
	json_decref(st_dead(b, g, json_pack("[]")));
	struct hc *who[3] = {a, b, o};
	for (int i = 0; i < 3; i++) {
		e = hc_event(who[i], "game.end", g, T);
		ck_assert_msg(e != NULL, "%s got no game.end", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "result"), "B+1.5");
		ck_assert_pstr_eq(hj_str(e, "reason"), "score");
		ck_assert(hj_num(e, "score.white") == 15 && hj_num(e, "score.black") == 10);
		ck_assert_pstr_eq(hj_str(e, "score.bar.color"), "W");
		ck_assert(hj_num(e, "score.bar.margin") == 6.5);
		json_decref(e);
	}
	r = st_game_get(o, g); /* read back from the store */
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert_pstr_eq(hj_str(r, "game.result"), "B+1.5");
	ck_assert_pstr_eq(hj_str(r, "game.first"), "alice");
	ck_assert_pstr_eq(hj_str(r, "game.black"), "bob");
	ck_assert(hj_num(r, "game.predictions.second.margin") == 6);
	json_decref(r);

	/* The record: the opening as W, B, W, B moves, KM minus the bar, RE over the bar */
	char path[HARNESS_PATH_MAX];
	char *text = save_sgf(o, g, "full.sgf", path);
	const char *want[] = {"RU[Prediction]", "KM[-6.5]", "RE[B+1.5]", "PL[W]", "PB[bob]",
			      "PW[alice]", ";W[cc]", "alice W+7", "bob W+6", "Bar W+6.5"};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ck_assert_msg(strstr(text, want[i]), "the record lacks %s: %s", want[i], text);
	ck_assert_msg(strstr(text, ";W[ce]") < strstr(text, ";B[de]"), "opening order: %s", text);
	free(text);
	expect_tengen_score(path, "B+1.5");
	/* An independent reader: GNU Go loads it and, with KM, counts the same result */
	if (access(GNUGO, X_OK) == 0) {
		char cmd[2 * HARNESS_PATH_MAX], out[4096];
		snprintf(cmd, sizeof cmd, "printf 'loadsgf %s\\nfinal_score\\nquit\\n' | %s "
			 "--mode gtp 2>&1", path, GNUGO);
		FILE *p = popen(cmd, "r");
		ck_assert(p != NULL);
		size_t n = fread(out, 1, sizeof out - 1, p);
		out[n] = '\0';
		pclose(p);
		ck_assert_msg(strncmp(out, "= ", 2) == 0 && strstr(out, "\n= B+1.5"),
			      "GNU Go: %s", out);
	}
	hc_close(a);
	hc_close(b);
	hc_close(o);
}
END_TEST

/* ---- removals ---- */

/* The both-sides position: Black's B5 leaves Black's {A5, B4, B5} and White's {C5, C4}
 * without liberties. alice (first, W+5) takes White against bob (W+3). */
static long long both_sides(struct hc *a, struct hc *b)
{
	long long g = pgame(a, b, NULL);
	static const char *const op[4] = {"C5", "A5", "A4", "B4"};
	opening(a, b, g, op);
	seal_both(a, b, g, "W", 5, "W", 3);
	const char *w[] = {"C4", "B3", "E1", "E2"}, *bl[] = {"D5", "D4", "C3"};
	for (int i = 0; i < 3; i++) {
		pplay_ok(a, g, w[i], 5 + 2 * i, "W");
		pplay_ok(b, g, bl[i], 6 + 2 * i, "B");
	}
	pplay_ok(a, g, w[3], 11, "W");
	return g;
}

/* The game object's moves: only move `own` says removed "own" (a viewer replaying the
 * record needs it: seed 000, Art. 4.3); the others carry no `removed`. */
static void expect_own_moves(json_t *r, long long own)
{
	json_t *moves = hj_get(r, "game.moves"), *m;
	size_t i;
	ck_assert_int_ge(json_array_size(moves), (size_t)own);
	json_array_foreach(moves, i, m) {
		const char *rm = json_string_value(json_object_get(m, "removed"));
		if ((long long)(i + 1) == own)
			ck_assert_msg(rm && strcmp(rm, "own") == 0, "move %zu: %s", i + 1, hj_text(r));
		else
			ck_assert_msg(!json_object_get(m, "removed"), "move %zu: %s", i + 1, hj_text(r));
	}
}

START_TEST(test_both_sides)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	/* the mover chooses its own chains: they go, White's live on */
	long long g = both_sides(a, b);
	clear_events(a, b);
	json_t *r = pplay(b, g, "B5", "own", 12, "B");
	ck_assert_pstr_eq(hj_str(r, "move.removed"), "own");
	ck_assert_int_eq(json_array_size(hj_get(r, "move.captures")), 3);
	ck_assert(hj_has_str(r, "move.captures", "B5") && hj_has_str(r, "move.captures", "A5") &&
		  hj_has_str(r, "move.captures", "B4"));
	json_decref(r);
	json_t *e = hc_event(a, "game.move", g, T);
	ck_assert_pstr_eq(hj_str(e, "removed"), "own");
	json_decref(e);
	r = st_game_get(a, g);
	ck_assert_pstr_eq(json_string_value(json_array_get(hj_get(r, "game.board"), 0)), "..OX.");
	expect_own_moves(r, 12);
	json_decref(r);
	/* a restart replays the choice */
	json_t *before = st_game_state(a, g);
	ck_assert_int_eq(hd_kill(&D), 0);
	hc_close(a);
	hc_close(b);
	ck_assert(hd_restart(&D) == 0);
	a = st_login(&D, "alice");
	b = st_login(&D, "bob");
	st_expect_same_state(a, g, before, "kill -9 after an own removal");
	json_decref(before);
	r = st_game_get(a, g);
	expect_own_moves(r, 12);
	json_decref(r);
	/* counted, and the record replays the choice: tengen score agrees with the server */
	pplay_ok(a, g, "pass", 13, "W");
	pplay_ok(b, g, "pass", 14, "B");
	json_decref(st_dead(a, g, json_pack("[]")));
	json_decref(st_dead(b, g, json_pack("[]")));
	json_t *end = hc_event(a, "game.end", g, T);
	ck_assert_ptr_nonnull(end);
	char path[HARNESS_PATH_MAX];
	char *text = save_sgf(a, g, "own.sgf", path);
	ck_assert_msg(strstr(text, "C[" CAPTURE_SGF_OWN), "no own note: %s", text);
	free(text);
	expect_tengen_score(path, hj_str(end, "result"));
	json_decref(end);
	/* the default: the opponent's */
	long long g2 = both_sides(a, b);
	r = pplay(b, g2, "B5", NULL, 12, "B");
	ck_assert_pstr_eq(hj_str(r, "move.removed"), "opponent");
	ck_assert_int_eq(json_array_size(hj_get(r, "move.captures")), 2);
	ck_assert(hj_has_str(r, "move.captures", "C5") && hj_has_str(r, "move.captures", "C4"));
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* Art. 5.4: White's ko retake repeats a whole-board position: White loses at once. */
START_TEST(test_repetition)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = pgame(a, b, NULL);
	static const char *const op[4] = {"C4", "B4", "D3", "A3"};
	opening(a, b, g, op);
	seal_both(a, b, g, "W", 2, "B", 2); /* W+2 is higher in White's terms: alice White */
	pplay_ok(a, g, "C2", 5, "W");
	pplay_ok(b, g, "B2", 6, "B");
	pplay_ok(a, g, "B3", 7, "W");
	json_t *r = pplay(b, g, "C3", NULL, 8, "B");
	ck_assert(hj_has_str(r, "move.captures", "B3"));
	json_decref(r);
	r = st_play(a, g, "B3");
	st_expect_illegal(r, "superko", 0, 0, 0, 1);
	json_decref(r);
	st_expect_end_event(a, g, "B+F", "illegal");
	st_expect_end_event(b, g, "B+F", "illegal");
	hc_close(a);
	hc_close(b);
}
END_TEST

/* ---- sealed predictions ---- */

START_TEST(test_hidden_and_restart)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob"), *o = st_login(&D, "olga");
	long long g = pgame(a, b, NULL);
	json_decref(hc_req(o, "{s:s, s:I}", "cmd", "observe", "game", (json_int_t)g));
	static const char *const op[4] = {"B2", "D4", "C3", "B4"};
	opening(a, b, g, op);
	clear_events(a, b);
	json_t *r = ppredict(a, g, "B", 12.5);
	OK(r);
	json_decref(r);
	/* the opponent and the observer hear that it is sealed, not what */
	struct hc *who[2] = {b, o};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.sealed", g, T);
		ck_assert_msg(e != NULL, "%s got no game.sealed", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "player"), "alice");
		ck_assert_msg(!strstr(hj_text(e), "12.5") && !json_object_get(e, "margin"),
			      "game.sealed tells: %s", hj_text(e));
		json_decref(e);
		r = st_game_get(who[i], g);
		ck_assert(hj_bool(r, "game.sealed.first") && !hj_bool(r, "game.sealed.second"));
		ck_assert(json_is_null(hj_get(r, "game.predictions")));
		ck_assert(json_is_null(hj_get(r, "game.bar")));
		ck_assert_msg(!strstr(hj_text(r), "12.5"), "game tells: %s", hj_text(r));
		json_decref(r);
	}
	r = hc_req(o, "{s:s}", "cmd", "games");
	ck_assert_msg(!strstr(hj_text(r), "12.5"), "games tells: %s", hj_text(r));
	{ /* the listing shows the true phase, as `game` does */
		size_t k;
		json_t *v;
		bool seen = false;
		json_array_foreach(json_object_get(r, "games"), k, v)
			if (json_integer_value(json_object_get(v, "id")) == (json_int_t)g) {
				ck_assert_pstr_eq(json_string_value(json_object_get(v, "phase")), "predicting");
				/* and no colours or komi before the predictions, as `game` */
				ck_assert(json_is_null(json_object_get(v, "black")));
				ck_assert(json_is_null(json_object_get(v, "white")));
				ck_assert(json_is_null(json_object_get(v, "komi")));
				seen = true;
			}
		ck_assert(seen);
	}
	json_decref(r);
	r = hc_req(o, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	ck_assert_msg(!strstr(hj_text(r), "12.5"), "sgf tells: %s", hj_text(r));
	json_decref(r);
	/* a second seal is refused */
	r = ppredict(a, g, "W", 1);
	ERR(r, "conflict");
	json_decref(r);

	/* kill -9: the seal survives, still sealed */
	ck_assert_int_eq(hd_kill(&D), 0);
	hc_close(a);
	hc_close(b);
	hc_close(o);
	ck_assert(hd_restart(&D) == 0);
	a = st_login(&D, "alice");
	b = st_login(&D, "bob");
	r = st_game_get(b, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "predicting");
	ck_assert(hj_bool(r, "game.sealed.first") && !hj_bool(r, "game.sealed.second"));
	ck_assert(json_is_null(hj_get(r, "game.predictions")));
	ck_assert_msg(!strstr(hj_text(r), "12.5"), "game tells after restart: %s", hj_text(r));
	json_decref(r);
	r = ppredict(a, g, "W", 1);
	ERR(r, "conflict");
	json_decref(r);
	/* bob's W+3 is higher in White's terms than alice's B+12.5: bob White, bar B+4.75; bob
	 * seals it with `tengen predict` */
	const char *tengen = getenv("TENGEN");
	char cmd[2 * HARNESS_PATH_MAX], out[256] = "";
	snprintf(cmd, sizeof cmd, "TENGEN_PASSWORD='bob%s' '%s' --server 127.0.0.1:%d --user bob "
		 "predict %lld W+3 2>&1", HARNESS_PASSWORD_SUFFIX, tengen ? tengen : "./client/tengen",
		 D.port, g);
	FILE *p = popen(cmd, "r");
	ck_assert(p != NULL);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_msg(strstr(out, "Prediction sealed in game"), "tengen predict: %s", out);
	json_t *e = hc_event(a, "game.predictions", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_pstr_eq(hj_str(e, "white"), "bob");
	ck_assert_pstr_eq(hj_str(e, "predictions.first.color"), "B");
	ck_assert(hj_num(e, "predictions.first.margin") == 12.5);
	ck_assert_pstr_eq(hj_str(e, "bar.color"), "B");
	ck_assert(hj_num(e, "bar.margin") == 4.75);
	json_decref(e);
	pplay_ok(b, g, "E5", 5, "W");
	pplay_ok(a, g, "A1", 6, "B");
	/* kill -9 during play: colours, bar and moves survive */
	json_t *before = st_game_state(a, g);
	ck_assert_int_eq(hd_kill(&D), 0);
	hc_close(a);
	hc_close(b);
	ck_assert(hd_restart(&D) == 0);
	a = st_login(&D, "alice");
	b = st_login(&D, "bob");
	st_expect_same_state(a, g, before, "kill -9 during play");
	json_decref(before);
	r = st_game_get(a, g);
	ck_assert(hj_num(r, "game.komi") == 4.75);
	ck_assert_pstr_eq(hj_str(r, "game.white"), "bob");
	json_decref(r);
	pplay_ok(b, g, "E4", 7, "W");
	hc_close(a);
	hc_close(b);
}
END_TEST

/* The opening's placements are charged to the placer's main clock (docs/rules.md, seed 000
 * Art. 5.2), which runs while the placement is due and is shown running; a placer whose
 * time runs out loses (the winner recorded as White). Before, no clock ran in the opening:
 * a placement charged nothing and a player who placed nothing stalled the game for ever. */
START_TEST(test_opening_clock)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = pgame(a, b, json_pack("{s:{s:s, s:i}}", "time", "system", "absolute",
					   "main_s", 3));
	usleep(600 * 1000);
	json_t *r = st_game_get(a, g); /* alice's clock (column B: the first player's) runs */
	long long shown = hj_int(r, "game.clocks.B.main_ms");
	ck_assert_msg(shown <= 2500 && shown > 0, "the first placer's clock shown: %s", hj_text(r));
	ck_assert_int_eq(hj_int(r, "game.clocks.W.main_ms"), 3000);
	json_decref(r);
	pplay_ok(a, g, "B2", 1, "W");
	r = st_game_get(a, g);
	long long left = hj_int(r, "game.clocks.B.main_ms");
	ck_assert_msg(left <= 2500 && left > 0, "the first placement charged nothing: %s", hj_text(r));
	json_decref(r);
	/* bob places nothing: his clock runs out, he loses, recorded as Black */
	st_expect_end_event(a, g, "W+T", "time");
	st_expect_end_event(b, g, "W+T", "time");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.white"), "alice");
	ck_assert_pstr_eq(hj_str(r, "game.black"), "bob");
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* Art. 5.3.3: the first player's allowance (1 s here) runs from the third stone; past it the
 * first player loses, the winner recorded as White. */
START_TEST(test_allowance_timeout)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = pgame(a, b, json_pack("{s:{s:s, s:i}, s:{s:i}}", "time", "system", "absolute",
					   "main_s", 600, "rules", "predict_s", 1));
	static const char *const op[4] = {"B2", "D4", "C3", "B4"};
	opening(a, b, g, op);
	json_t *r = ppredict(b, g, "W", 3); /* bob seals in time */
	OK(r);
	json_decref(r);
	st_expect_end_event(a, g, "W+T", "time");
	st_expect_end_event(b, g, "W+T", "time");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.white"), "bob");
	ck_assert(json_is_null(hj_get(r, "game.predictions")));
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST

/* A predict_s given for a game without clocks applies (it was accepted, echoed in the rules,
 * and the game waited for ever for the second prediction). */
START_TEST(test_allowance_no_clock)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	long long g = pgame(a, b, json_pack("{s:{s:i}}", "rules", "predict_s", 1));
	json_t *r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.time.system"), "none");
	json_decref(r);
	static const char *const op[4] = {"B2", "D4", "C3", "B4"};
	opening(a, b, g, op);
	r = ppredict(b, g, "W", 3);
	OK(r);
	json_decref(r);
	st_expect_end_event(a, g, "W+T", "time");
	hc_close(a);
	hc_close(b);
}
END_TEST

/* Bad input: an error, nothing changes. */
START_TEST(test_refusals)
{
	struct hc *a = st_login(&D, "alice"), *b = st_login(&D, "bob");
	json_t *r = hc_req(a, "{s:s, s:s, s:i, s:{s:s}}", "cmd", "challenge", "opponent", "bob",
			   "handicap", 2, "rules", "ruleset", "prediction");
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(a, "{s:s, s:s, s:s}", "cmd", "challenge", "opponent", "bob", "first", "me");
	ERR(r, "bad_request"); /* `first` without the ruleset */
	json_decref(r);
	/* Art. 5.4 decides the repetition: an option saying otherwise is refused, not ignored */
	r = hc_req(a, "{s:s, s:s, s:{s:s, s:s}}", "cmd", "challenge", "opponent", "bob", "rules",
		   "ruleset", "prediction", "ko", "simple");
	ERR(r, "bad_request");
	ck_assert_ptr_nonnull(strstr(hj_str(r, "error.message"), "only \"positional\""));
	json_decref(r);
	r = hc_req(a, "{s:s, s:s, s:{s:s, s:s}}", "cmd", "challenge", "opponent", "bob", "rules",
		   "ruleset", "prediction", "cycle", "void");
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(a, "{s:s}", "cmd", "challenges");
	OK(r);
	ck_assert_int_eq(hj_int(r, "total"), 0); /* nothing was made */
	json_decref(r);
	long long g = pgame(a, b, NULL);
	r = hc_req(a, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.rules.ko"), "positional"); /* as it is judged */
	json_decref(r);
	r = st_play(a, g, "pass");
	st_expect_illegal(r, "no_pass", 0, 0, 0, 0);
	json_decref(r);
	r = st_play(b, g, "C3"); /* the first player's placement is due */
	st_expect_illegal(r, "not_your_turn", 0, 0, 0, 0);
	json_decref(r);
	r = ppredict(a, g, "W", 2);
	ERR(r, "conflict"); /* not in the prediction stage */
	json_decref(r);
	pplay_ok(a, g, "C3", 1, "W");
	r = st_play(b, g, "C3");
	st_expect_illegal(r, "occupied", 0, 0, 0, 0);
	json_decref(r);
	pplay_ok(b, g, "D3", 2, "B");
	pplay_ok(b, g, "D4", 3, "W");
	pplay_ok(a, g, "B2", 4, "B");
	r = st_play(b, g, "E5"); /* a move in the prediction stage: its phase named */
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "is predicting, not playing"), "%s", hj_text(r));
	json_decref(r);
	r = ppredict(a, g, "W", 0.25);
	ERR(r, "bad_request");
	json_decref(r);
	r = ppredict(a, g, "X", 1);
	ERR(r, "bad_request");
	json_decref(r);
	r = ppredict(a, g, "W", 26);
	ERR(r, "bad_request"); /* more than the board's 25 points */
	json_decref(r);
	r = st_game_get(a, g);
	ck_assert(!hj_bool(r, "game.sealed.first"));
	ck_assert_int_eq(json_array_size(hj_get(r, "game.moves")), 4);
	json_decref(r);
	/* resigning before the colours are decided: the winner is recorded as White */
	r = hc_req(a, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "result"), "W+R");
	json_decref(r);
	st_expect_end_event(b, g, "W+R", "resignation");
	r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.white"), "bob");
	ck_assert_pstr_eq(hj_str(r, "game.black"), "alice");
	ck_assert(json_is_null(hj_get(r, "game.komi"))); /* no bar was set: no komi */
	json_decref(r);
	/* `decisive` is the prediction ruleset's: refused under the Chinese rules */
	r = hc_req(a, "{s:s, s:s, s:{s:s, s:b}}", "cmd", "challenge", "opponent", "bob", "rules",
		   "ruleset", "chinese", "decisive", 1);
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(a, "{s:s, s:s, s:{s:b}}", "cmd", "challenge", "opponent", "bob", "rules",
		   "decisive", 1);
	ERR(r, "bad_request");
	json_decref(r);
	hc_close(a);
	hc_close(b);
}
END_TEST


/* ---- tournaments ---- */

/* Wait until game g (seen by c) is in `phase`; its game object. */
static json_t *wait_phase(struct hc *c, long long g, const char *phase)
{
	for (int i = 0; i < 200; i++) {
		json_t *r = st_game_get(c, g);
		if (strcmp(hj_str(r, "game.phase"), phase) == 0)
			return r;
		json_decref(r);
		usleep(50000);
	}
	ck_abort_msg("game %lld never reached %s", g, phase);
	return NULL;
}

/* A prediction-rules Swiss: the pairing's White is the first player; who is first alternates
 * as colours do; the standings count each game for the right player whatever colour the
 * loser was recorded with. Round 1: game 1's second player resigns (the first wins), game 2's
 * first player resigns (the second wins). */
START_TEST(test_tournament)
{
	struct hc *td = st_login(&D, "director");
	hc_close(td);
	ck_assert_int_eq(hd_grant(&D, "director", "td"), 0);
	td = st_login(&D, "director");
	const char *names[4] = {"p1", "p2", "p3", "p4"};
	struct hc *p[4];
	for (int i = 0; i < 4; i++)
		p[i] = st_login(&D, names[i]);
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:i, s:i, s:b, s:{s:s}}", "cmd",
			   "tournament.create", "name", "prediction swiss", "system", "swiss", "rounds",
			   2, "size", 5, "rated", 0, "rules", "ruleset", "prediction");
	OK(r);
	long long tid = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 4; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)tid, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	char first1[2][8];
	for (int round = 1; round <= 2; round++) {
		r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)tid);
		OK(r);
		json_t *pairs = hj_get(r, "pairings");
		ck_assert_int_eq(json_array_size(pairs), 2);
		for (size_t k = 0; k < 2; k++) {
			json_t *pr = json_array_get(pairs, k);
			long long g = hj_int(pr, "game");
			const char *first = hj_str(pr, "first"), *second = hj_str(pr, "second");
			ck_assert_pstr_eq(first, hj_str(pr, "white"));
			json_t *go = wait_phase(td, g, "opening");
			ck_assert_pstr_eq(hj_str(go, "game.first"), first);
			ck_assert_pstr_eq(hj_str(go, "game.ruleset"), "prediction");
			json_decref(go);
			if (round == 2) {
				/* who is first alternates: round 1's second players are first now */
				ck_assert_msg(strcmp(first, first1[0]) != 0 && strcmp(first, first1[1]) != 0,
					      "%s first in both rounds: %s", first, hj_text(r));
				if (k == 1)
					continue;
				/* A director's result in the ruleset's own terms: a bar that is the mean
				 * of two half-point predictions makes quarter-point margins; others are
				 * refused. */
				json_t *rr = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result",
						    "game", (json_int_t)g, "result", "W+8.8");
				ERR(rr, "bad_request");
				json_decref(rr);
				rr = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
					    (json_int_t)g, "result", "w+8.75");
				OK(rr);
				ck_assert_pstr_eq(hj_str(rr, "result"), "W+8.75");
				json_decref(rr);
				json_decref(wait_phase(td, g, "ended"));
				continue;
			}
			snprintf(first1[k], sizeof first1[k], "%s", first);
			const char *quitter = k == 0 ? second : first;
			struct hc *qc = p[quitter[1] - '1'];
			json_t *rr = hc_req(qc, "{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g);
			OK(rr);
			json_decref(rr);
			rr = wait_phase(td, g, "ended");
			ck_assert(json_is_null(hj_get(rr, "game.komi")));
			json_decref(rr);
			/* ended before the predictions: no bar, so KM[0] as in a free game, not
			 * the event's komi (7.5 by default; the record said KM[7.5]) */
			rr = hc_req(td, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
			OK(rr);
			ck_assert_msg(strstr(hj_str(rr, "sgf"), "KM[0]") != NULL, "%s", hj_str(rr, "sgf"));
			json_decref(rr);
			/* nor does the listing give the event's komi (the game's row held it) */
			rr = hc_req(td, "{s:s, s:I}", "cmd", "games", "tournament", (json_int_t)tid);
			OK(rr);
			size_t j;
			json_t *lg;
			json_array_foreach(hj_get(rr, "games"), j, lg)
				if (hj_int(lg, "id") == g)
					ck_assert_msg(json_is_null(hj_get(lg, "komi")) ||
						      hj_num(lg, "komi") == 0, "%s", hj_text(lg));
			json_decref(rr);
		}
		if (round == 1) {
			/* the winners: game 1's first player, game 2's second */
			json_t *st = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings",
					    "tournament", (json_int_t)tid);
			OK(st);
			size_t i;
			json_t *row;
			int winners = 0;
			json_array_foreach(hj_get(st, "standings"), i, row) {
				const char *who = hj_str(row, "player");
				bool won = hj_int(row, "wins") == 1;
				bool want = strcmp(who, first1[0]) == 0 ||
					    (strcmp(who, first1[1]) != 0 &&
					     strcmp(who, hj_str(json_array_get(pairs, 1), "second")) == 0);
				ck_assert_msg(won == want, "standings: %s", hj_text(st));
				winners += won;
			}
			ck_assert_int_eq(winners, 2);
			json_decref(st);
		}
		json_decref(r);
	}
	hc_close(td);
	for (int i = 0; i < 4; i++)
		hc_close(p[i]);
}
END_TEST

/* A one-round prediction Swiss of p[0] and p[1] made by td from `create` (tournament.create's
 * own fields: name, ...; stolen), its round started (`start_at` 0: now): the game's id, and in
 * *second the client of its second player. */
static long long prediction_round(struct hc *td, struct hc *const p[2], json_t *create,
				  double start_at, struct hc **second)
{
	json_object_update_new(create, json_pack("{s:s, s:s, s:i, s:i, s:b, s:{s:s}}", "cmd",
						 "tournament.create", "system", "swiss", "rounds", 1,
						 "size", 5, "rated", 0, "rules", "ruleset", "prediction"));
	json_t *r = hc_reqj(td, create);
	OK(r);
	long long tid = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 2; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)tid, "player", p[i]->name);
		OK(r);
		json_decref(r);
	}
	r = start_at ? hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
			      (json_int_t)tid, "start_at", start_at)
		     : hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
			      (json_int_t)tid);
	OK(r);
	long long g = hj_int(r, "pairings.0.game");
	*second = strcmp(hj_str(r, "pairings.0.first"), p[0]->name) == 0 ? p[1] : p[0];
	json_decref(r);
	return g;
}

/* The second player joins game g, the first never comes: the game ends W+F for absence
 * (Art. 22.4 or 22.1), the second recorded White (colours undecided). */
static void expect_first_absent(struct hc *td, struct hc *second, long long g)
{
	json_t *r = hc_req(second, "{s:s, s:I}", "cmd", "join", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	r = wait_phase(td, g, "ended");
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+F");
	ck_assert_pstr_eq(hj_str(r, "game.reason"), "lateness");
	ck_assert_pstr_eq(hj_str(r, "game.white"), second->name);
	json_decref(r);
}

/* A tournament game's placements report their placers present, as moves do: players who
 * place stones without sending `join` (tengen play does not) are not forfeited at the
 * lateness limit (2 s here) once play begins. */
START_TEST(test_placing_is_present)
{
	struct hc *td = st_login_role(&D, "director2", "td");
	struct hc *p[2] = {st_login(&D, "q1"), st_login(&D, "q2")}, *second;
	long long g = prediction_round(td, p, json_pack("{s:s, s:i}", "name", "prediction lateness",
							"lateness_limit_s", 2), 0, &second);
	struct hc *first = second == p[0] ? p[1] : p[0];
	json_decref(wait_phase(td, g, "opening"));
	static const char *const op[4] = {"A1", "E5", "E1", "A5"};
	opening(first, second, g, op);
	seal_both(first, second, g, "W", 2, "B", 2);
	usleep(3000 * 1000); /* past the 2 s limit, in play */
	json_t *r = st_game_get(td, g);
	ck_assert_msg(strcmp(hj_str(r, "game.phase"), "playing") == 0, "%s", hj_text(r));
	json_decref(r);
	/* the other way: the first player never comes, and their clock runs out on the first
	 * stone: a forfeit for absence, not a time loss (Art. 22.4); the round starts 1.5 s from
	 * now, so the second player's join comes before it */
	g = prediction_round(td, p, json_pack("{s:s, s:{s:s, s:i}}", "name", "prediction absent",
					      "time", "system", "absolute", "main_s", 1),
			     (double)time(NULL) + 1.5, &second);
	expect_first_absent(td, second, g);
	/* without a clock the lateness limit (2 s) ends an opening the first player never came
	 * to; it was checked in play only, so such a game waited in its opening for good */
	g = prediction_round(td, p, json_pack("{s:s, s:i}", "name", "prediction no clock",
					      "lateness_limit_s", 2), 0, &second);
	expect_first_absent(td, second, g);
	hc_close(td);
	hc_close(p[0]);
	hc_close(p[1]);
}
END_TEST

/* A prediction-rules round robin where a player withdraws after round 2 (having played half
 * the games or more, so the results stand, Art. 28): their round-3 game is a forfeit won by the
 * opponent, whichever column of the game the opponent sits in (the game's Black column holds
 * the pairing's White until the predictions decide). */
START_TEST(test_withdrawn_forfeit)
{
	struct hc *td = st_login(&D, "director");
	hc_close(td);
	ck_assert_int_eq(hd_grant(&D, "director", "td"), 0);
	td = st_login(&D, "director");
	const char *names[4] = {"q1", "q2", "q3", "q4"};
	struct hc *p[4];
	for (int i = 0; i < 4; i++)
		p[i] = st_login(&D, names[i]);
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:i, s:b, s:{s:s}}", "cmd", "tournament.create",
			   "name", "prediction rr", "system", "round_robin", "size", 5, "rated", 0,
			   "rules", "ruleset", "prediction");
	OK(r);
	long long tid = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 4; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)tid, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	int wins_before[4] = {0};
	for (int round = 1; round <= 2; round++) {
		r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)tid);
		OK(r);
		json_t *pairs = hj_get(r, "pairings");
		for (size_t k = 0; k < json_array_size(pairs); k++) { /* the first players resign */
			json_t *pr = json_array_get(pairs, k);
			long long g = hj_int(pr, "game");
			json_decref(wait_phase(td, g, "opening"));
			json_t *rr = hc_req(p[hj_str(pr, "first")[1] - '1'], "{s:s, s:I}", "cmd",
					    "resign", "game", (json_int_t)g);
			OK(rr);
			json_decref(rr);
			json_decref(wait_phase(td, g, "ended"));
			wins_before[hj_str(pr, "second")[1] - '1']++;
		}
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", (json_int_t)tid,
		   "player", "q1");
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", (json_int_t)tid);
	OK(r);
	json_t *pairs = hj_get(r, "pairings");
	int opp = -1;
	for (size_t k = 0; k < json_array_size(pairs); k++) {
		json_t *pr = json_array_get(pairs, k);
		const char *b = hj_str(pr, "black"), *w = hj_str(pr, "white");
		if (strcmp(b, "q1") == 0 || strcmp(w, "q1") == 0)
			opp = (strcmp(b, "q1") == 0 ? w : b)[1] - '1';
	}
	ck_assert_msg(opp > 0, "q1 not paired in round 3: %s", hj_text(r));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.standings", "tournament", (json_int_t)tid,
		   "round", 3);
	OK(r);
	size_t i;
	json_t *row;
	json_array_foreach(hj_get(r, "standings"), i, row) {
		int who = hj_str(row, "player")[1] - '1';
		if (who == 0)
			ck_assert_msg(hj_int(row, "wins") == wins_before[0],
				      "the withdrawn player won its forfeit: %s", hj_text(r));
		if (who == opp)
			ck_assert_msg(hj_int(row, "wins") == wins_before[opp] + 1,
				      "q%d lost q1's forfeit: %s", opp + 1, hj_text(r));
	}
	json_decref(r);
	hc_close(td);
	for (int k = 0; k < 4; k++)
		hc_close(p[k]);
}
END_TEST

static Suite *prediction_suite(void)
{
	Suite *s = suite_create("prediction");
	TCase *t = tcase_create("prediction");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_set_timeout(t, TEST_TIMEOUT_S);
	tcase_add_test(t, test_full_game);
	tcase_add_test(t, test_both_sides);
	tcase_add_test(t, test_repetition);
	tcase_add_test(t, test_hidden_and_restart);
	tcase_add_test(t, test_allowance_timeout);
	tcase_add_test(t, test_allowance_no_clock);
	tcase_add_test(t, test_opening_clock);
	tcase_add_test(t, test_refusals);
	tcase_add_test(t, test_tournament);
	tcase_add_test(t, test_placing_is_present);
	tcase_add_test(t, test_withdrawn_forfeit);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(prediction_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
