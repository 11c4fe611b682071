/* tests/support/srvtest: the helpers of tengend's integration tests (srvtest.h says what each does). */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "srvtest.h"

/* The ko of the tests: after these 8 moves (Black first) White has just taken at E5, and Black
 * retaking at F5 would repeat the position after move 7. */
const char *const st_ko_moves[] = {"E4", "F4", "D5", "G5", "E6", "F6", "F5", "E5"};

long long st_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Stop a daemon and require a clean stop and a clean log. */
void st_finish(struct hd *d)
{
	int st = hd_stop(d);
	const char *san = hd_sanitizer_report(d);
	ck_assert_msg(st == 0, "tengend exited with status %d after SIGTERM (log: %s)", st, d->log);
	ck_assert_msg(san == NULL, "the daemon's log holds a sanitizer report (%s): %s", san, d->log);
	hd_cleanup(d);
}

void st_start(struct hd *d, const char *const *extra)
{
	ck_assert_msg(hd_start(d, extra) == 0, "tengend (%s) did not start", hd_binary());
}

struct hc *st_login(struct hd *d, const char *name)
{
	struct hc *c = hc_login_new(d->port, name);
	ck_assert_msg(c != NULL, "could not register and log in %s", name);
	return c;
}

struct hc *st_login_role(struct hd *d, const char *name, const char *role)
{
	hc_close(st_login(d, name));
	ck_assert_msg(hd_grant(d, name, role) == 0, "tengend grant %s %s failed", name, role);
	return st_login(d, name);
}

void st_expect_sgf_has(struct hc *c, long long g, const char *text)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	ck_assert_msg(hj_str(r, "sgf") && strstr(hj_str(r, "sgf"), text), "no '%s' in %s", text,
		      hj_str(r, "sgf"));
	json_decref(r);
}

struct hc *st_conn(struct hd *d)
{
	struct hc *c = hc_open(d->port);
	ck_assert_msg(c != NULL, "could not connect to port %d", d->port);
	return c;
}

void st_ping_ok(struct hc *c)
{
	json_t *r = hc_req(c, "{s:s}", "cmd", "ping");
	OK(r);
	json_decref(r);
}

/* A challenge from `b` (who takes Black) to `w`, accepted: checks the challenge and game.start
 * events. `more` (stolen, may be NULL) adds fields to the challenge. Returns the game id. */
long long st_new_game_ex(struct hc *b, struct hc *w, int size, json_t *more)
{
	json_t *req = json_pack("{s:s, s:s, s:i, s:s}", "cmd", "challenge", "opponent", w->name,
				"size", size, "color", "black");
	if (more)
		json_object_update(req, more);
	json_decref(more);
	json_t *r = hc_reqj(b, req);
	OK(r);
	long long g = hj_int(r, "game");
	ck_assert_msg(g > 0, "challenge reply without a game id: %s", hj_text(r));
	json_decref(r);
	json_t *e = hc_event(w, "challenge", g, T);
	ck_assert_msg(e != NULL, "%s got no challenge event for game %lld", w->name, g);
	ck_assert_pstr_eq(hj_str(e, "from"), b->name);
	json_decref(e);
	r = hc_req(w, "{s:s, s:I}", "cmd", "accept", "game", (json_int_t)g);
	OK(r);
	json_decref(r);
	e = hc_event(b, "game.start", g, T);
	ck_assert_msg(e != NULL, "%s got no game.start", b->name);
	ck_assert_pstr_eq(hj_str(e, "color"), "B");
	ck_assert_pstr_eq(hj_str(e, "black"), b->name);
	ck_assert_pstr_eq(hj_str(e, "white"), w->name);
	json_decref(e);
	e = hc_event(w, "game.start", g, T);
	ck_assert_msg(e != NULL, "%s got no game.start", w->name);
	ck_assert_pstr_eq(hj_str(e, "color"), "W");
	json_decref(e);
	return g;
}

long long st_new_game(struct hc *b, struct hc *w)
{
	return st_new_game_ex(b, w, 9, NULL);
}

json_t *st_play(struct hc *c, long long g, const char *v)
{
	return hc_req(c, "{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", v);
}

/* `mover` plays v as move `number`; checks the reply and the game.move event both players get
 * (the same captures). Returns the reply. */
json_t *st_move(struct hc *mover, struct hc *other, long long g, const char *v, int number)
{
	json_t *r = st_play(mover, g, v);
	ck_assert_msg(hj_ok(r), "%s playing %s (move %d): %s", mover->name, v, number, hj_text(r));
	ck_assert_int_eq(hj_int(r, "move.number"), number);
	ck_assert_msg(hj_str(r, "move.vertex") && strcasecmp(hj_str(r, "move.vertex"), v) == 0,
		      "move %d: vertex %s, reply %s", number, v, hj_text(r));
	ck_assert_msg(json_is_array(hj_get(r, "move.captures")), "no captures array: %s", hj_text(r));
	struct hc *who[2] = {mover, other};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.move", g, T);
		ck_assert_msg(e != NULL, "%s got no game.move for move %d", who[i]->name, number);
		ck_assert_int_eq(hj_int(e, "number"), number);
		ck_assert_pstr_eq(hj_str(e, "color"), hj_str(r, "move.color"));
		ck_assert_msg(strcasecmp(hj_str(e, "vertex") ? hj_str(e, "vertex") : "", v) == 0,
			      "event vertex: %s", hj_text(e));
		ck_assert_msg(json_equal(hj_get(e, "captures"), hj_get(r, "move.captures")),
			      "event captures %s differ from the reply's", hj_text(e));
		ck_assert_msg(hj_get(e, "forfeited") == NULL || json_is_null(hj_get(e, "forfeited")),
			      "a legal move marked forfeited: %s", hj_text(e));
		json_decref(e);
	}
	return r;
}

void st_move_ok(struct hc *mover, struct hc *other, long long g, const char *v, int number)
{
	json_decref(st_move(mover, other, g, v, number));
}

/* Play moves[0..n-1] alternately, b first, numbered from `first`. */
void st_moves_ok(struct hc *b, struct hc *w, long long g, const char *const *moves, int n, int first)
{
	for (int i = 0; i < n; i++)
		st_move_ok(i % 2 ? w : b, i % 2 ? b : w, g, moves[i], first + i);
}

json_t *st_game_get(struct hc *c, long long g)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_int_eq(hj_int(r, "game.id"), g);
	return r;
}

/* An illegal move: the reply's reason and penalty. */
void st_expect_illegal(json_t *r, const char *reason, int forfeit, int warning, int warnings, int lost)
{
	ERR(r, "illegal_move");
	ck_assert_pstr_eq(hj_str(r, "error.reason"), reason);
	ck_assert_msg(hj_bool(r, "error.penalty.forfeit_turn") == forfeit, "forfeit_turn: %s", hj_text(r));
	ck_assert_msg(hj_bool(r, "error.penalty.warning") == warning, "warning: %s", hj_text(r));
	ck_assert_msg(hj_int(r, "error.penalty.warnings") == warnings, "warnings: %s", hj_text(r));
	ck_assert_msg(hj_bool(r, "error.penalty.lost") == lost, "lost: %s", hj_text(r));
}

/* Both players get a forfeited turn: game.move with vertex pass and `forfeited` = reason. */
void st_expect_forfeit_event(struct hc *a, struct hc *b, long long g, int number,
				 const char *color, const char *reason)
{
	struct hc *who[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.move", g, T);
		ck_assert_msg(e != NULL, "%s got no game.move for the forfeited turn %d", who[i]->name, number);
		ck_assert_int_eq(hj_int(e, "number"), number);
		ck_assert_pstr_eq(hj_str(e, "color"), color);
		ck_assert_pstr_eq(hj_str(e, "vertex"), "pass");
		ck_assert_pstr_eq(hj_str(e, "forfeited"), reason);
		json_decref(e);
	}
}

void st_expect_warning_event(struct hc *a, struct hc *b, long long g, const char *color,
				 const char *reason, int warnings)
{
	struct hc *who[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.warning", g, T);
		ck_assert_msg(e != NULL, "%s got no game.warning", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "color"), color);
		ck_assert_pstr_eq(hj_str(e, "reason"), reason);
		ck_assert_int_eq(hj_int(e, "warnings"), warnings);
		json_decref(e);
	}
}

void st_expect_end_event(struct hc *c, long long g, const char *result, const char *reason)
{
	json_t *e = hc_event(c, "game.end", g, T);
	ck_assert_msg(e != NULL, "%s got no game.end for game %lld", c->name, g);
	ck_assert_pstr_eq(hj_str(e, "result"), result);
	ck_assert_pstr_eq(hj_str(e, "reason"), reason);
	json_decref(e);
}

/* No message called `name` for game g reached c before the reply to a ping sent now (replies
 * and events leave the server in order). */
void st_expect_no_event(struct hc *c, const char *name, long long g)
{
	st_ping_ok(c);
	ck_assert_msg(!hc_has_event(c, name, g), "unexpected %s event for game %lld", name, g);
}

json_t *st_dead(struct hc *c, long long g, json_t *stones)
{
	return hc_req(c, "{s:s, s:I, s:o}", "cmd", "dead", "game", (json_int_t)g, "stones", stones);
}

void st_expect_resume(struct hc *a, struct hc *b, long long g, const char *to_move)
{
	struct hc *who[2] = {a, b};
	for (int i = 0; i < 2; i++) {
		json_t *e = hc_event(who[i], "game.resume", g, T);
		ck_assert_msg(e != NULL, "%s got no game.resume", who[i]->name);
		ck_assert_pstr_eq(hj_str(e, "to_move"), to_move);
		json_decref(e);
	}
	json_t *r = st_game_get(a, g);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "playing");
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), to_move);
	json_decref(r);
}

void st_expect_counting(struct hc *a, struct hc *b, long long g)
{
	json_t *e = hc_event(a, "game.counting", g, T);
	ck_assert_msg(e != NULL, "no game.counting");
	json_decref(e);
	e = hc_event(b, "game.counting", g, T);
	ck_assert_msg(e != NULL, "no game.counting");
	json_decref(e);
}

/* The fields of a game a restart must keep. */
json_t *st_game_state(struct hc *c, long long g)
{
	json_t *r = st_game_get(c, g);
	json_t *players = json_pack("[O, O]", hj_get(r, "game.black"), hj_get(r, "game.white"));
	json_t *s = json_pack("{s:O, s:O, s:O, s:O, s:O, s:o}", "phase", hj_get(r, "game.phase"),
			      "to_move", hj_get(r, "game.to_move"), "moves", hj_get(r, "game.moves"),
			      "board", hj_get(r, "game.board"), "warnings", hj_get(r, "game.warnings"),
			      "players", players);
	ck_assert_msg(s != NULL, "game reply lacks fields: %s", hj_text(r));
	json_decref(r);
	return s;
}

void st_expect_same_state(struct hc *c, long long g, const json_t *before, const char *when)
{
	json_t *now = st_game_state(c, g);
	if (!json_equal(now, before)) {
		char *x = json_dumps(before, JSON_COMPACT), *y = json_dumps(now, JSON_COMPACT);
		ck_abort_msg("game %lld changed across %s:\nbefore %s\nafter  %s", g, when, x, y);
	}
	json_decref(now);
}
