/* tests/support/srvtest: what the integration tests of tengend share on top of tests/support/harness: the
 * assertions on a reply (OK, ERR, ERR_FIELD), a daemon started and stopped under assertions,
 * clients logged in, and games driven move by move with every reply and event checked against
 * the contract (docs/protocol.md) and the rules (docs/rules.md).
 *
 *   st_*  every helper fails the running Check test (ck_assert) on anything unexpected, so a
 *         test reads as the story it checks. Boards are 9x9 unless said otherwise; vertices
 *         are GTP ("D4", no I column); timeouts are T (HARNESS_TIMEOUT_MS) unless said.
 *
 * Linked by test_session, test_play, test_persist (from tests/integration/test_play.c), the tournament
 * tests (through tests/support/tourtest) and the hostile tests (through tests/support/hostworld).
 */
#ifndef TENGEN_TESTS_SRVTEST_H
#define TENGEN_TESTS_SRVTEST_H

#include <check.h>
#include <string.h>
#include "harness.h"

#define T HARNESS_TIMEOUT_MS

/* ---- assertions on a reply ---- */

#define OK(r) ck_assert_msg(hj_ok(r), "expected ok, got %s", hj_text(r))
#define ERR(r, code)                                                                          \
	ck_assert_msg(hj_err(r) && strcmp(hj_err(r), (code)) == 0, "expected error %s, got %s", \
		      (code), hj_text(r))
#define ERR_FIELD(r, code, field)                                                           \
	do {                                                                                \
		ERR(r, code);                                                               \
		ck_assert_msg(hj_str(r, "error.message") &&                                 \
				      strstr(hj_str(r, "error.message"), "'" field "'"),    \
			      "the message should name field '%s': %s", field, hj_text(r)); \
	} while (0)

/* The ko of the tests: after these ST_KO_MOVES moves (Black first) White has just taken at E5,
 * and Black retaking at F5 would repeat the position after move 7. */
extern const char *const st_ko_moves[];
#define ST_KO_MOVES 8

/* CLOCK_MONOTONIC in milliseconds. */
long long st_now_ms(void);

/* ---- daemons and clients ---- */

/* hd_start(d, extra) (extra NULL-terminated, may be NULL), asserting that it started. */
void st_start(struct hd *d, const char *const *extra);
/* Stop a daemon and require a clean stop (exit status 0 after SIGTERM) and a clean log (no
 * sanitizer report); then delete its directory. */
void st_finish(struct hd *d);
/* A new connection to d, registered (if need be) and logged in as `name`. */
struct hc *st_login(struct hd *d, const char *name);
/* st_login of a player granted `role` (td, admin): registered, granted, logged in again (the
 * role applies from the login). */
struct hc *st_login_role(struct hd *d, const char *name, const char *role);
/* The SGF of game g (the `sgf` command, as c) holds `text`. */
void st_expect_sgf_has(struct hc *c, long long g, const char *text);
/* A new connection to d, not logged in. */
struct hc *st_conn(struct hd *d);
/* A ping that must be answered ok. */
void st_ping_ok(struct hc *c);

/* ---- games ---- */

/* A challenge from `b` (who takes Black) to `w`, accepted: checks the challenge and game.start
 * events. `more` (stolen, may be NULL) adds fields to the challenge. Returns the game id. */
long long st_new_game_ex(struct hc *b, struct hc *w, int size, json_t *more);
/* st_new_game_ex on 9x9 with the default settings. */
long long st_new_game(struct hc *b, struct hc *w);
/* The reply to `play` of vertex v in game g (unchecked; new reference). */
json_t *st_play(struct hc *c, long long g, const char *v);
/* `mover` plays v as move `number`; checks the reply and the game.move event both players get
 * (the same captures). Returns the reply (new reference). */
json_t *st_move(struct hc *mover, struct hc *other, long long g, const char *v, int number);
/* st_move, the reply dropped. */
void st_move_ok(struct hc *mover, struct hc *other, long long g, const char *v, int number);
/* Play moves[0..n-1] alternately, b first, numbered from `first`. */
void st_moves_ok(struct hc *b, struct hc *w, long long g, const char *const *moves, int n,
		 int first);
/* The `game` reply for g, checked ok and for g (new reference). */
json_t *st_game_get(struct hc *c, long long g);
/* The reply to `dead` with `stones` (stolen) in game g (unchecked; new reference). */
json_t *st_dead(struct hc *c, long long g, json_t *stones);
/* The fields of a game a restart must keep (phase, to_move, moves, board, warnings, players;
 * new reference). */
json_t *st_game_state(struct hc *c, long long g);
/* st_game_state(c, g) equals `before`; `when` names the event between them in the message. */
void st_expect_same_state(struct hc *c, long long g, const json_t *before, const char *when);

/* ---- events and penalties ---- */

/* An illegal move: the reply's reason and penalty (Art. 19-20; booleans as 0/1). */
void st_expect_illegal(json_t *r, const char *reason, int forfeit, int warning, int warnings,
		       int lost);
/* Both players get a forfeited turn: game.move with vertex pass and `forfeited` = reason. */
void st_expect_forfeit_event(struct hc *a, struct hc *b, long long g, int number,
			     const char *color, const char *reason);
/* Both players get game.warning for `color` ("B"/"W") with that reason and count. */
void st_expect_warning_event(struct hc *a, struct hc *b, long long g, const char *color,
			     const char *reason, int warnings);
/* c gets game.end for g with that result and reason. */
void st_expect_end_event(struct hc *c, long long g, const char *result, const char *reason);
/* No message called `name` for game g reached c before the reply to a ping sent now (replies
 * and events leave the server in order). */
void st_expect_no_event(struct hc *c, const char *name, long long g);
/* Both players get game.resume with `to_move`, and the game is in play with that turn. */
void st_expect_resume(struct hc *a, struct hc *b, long long g, const char *to_move);
/* Both players get game.counting. */
void st_expect_counting(struct hc *a, struct hc *b, long long g);

#endif
