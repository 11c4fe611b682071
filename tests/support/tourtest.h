/* tests/support/tourtest: what the tournament integration tests (tests/integration/test_tournament_systems.c,
 * tests/integration/test_tournament_games.c) share on top of tests/support/srvtest: the fixture's daemon, players
 * and directors, and an event as the test keeps it: its rounds started and checked, its games
 * played out to a chosen result, and its standings, pairings and exports checked against the
 * test's own computation from the games it played. Rules: Chinese Weiqi Rules 2002,
 * Art. 26-28 (docs/rules.md, docs/tiebreaks.md); wire: docs/protocol.md.
 *
 *   tt_*  every helper fails the running Check test on anything unexpected. Boards are
 *         TT_BOARD x TT_BOARD, komi 0 (an integer komi: a counted draw is possible), no
 *         clocks, rounds start TT_START_DELAY_S after they are drawn.
 */
#ifndef TENGEN_TESTS_TOURTEST_H
#define TENGEN_TESTS_TOURTEST_H

#include <stdbool.h>
#include "harness.h"
#include "srvtest.h"

#define TT_BOARD 9
#define TT_START_DELAY_S 0.2      /* a round's start_at: this long after start_round */
#define TT_MAXP 8                 /* players in one test's event */
#define TT_MAXG 32                /* games in one test's event */
#define TT_MAXR 8                 /* rounds */
#define TT_EPS 1e-9
#define TT_WIN 2                  /* game points, Art. 27.1 */
#define TT_DRAW 1
#define TT_BYE_POINTS 2           /* the default `bye` */

/* The daemon of the fixture (tt_setup / tt_teardown). */
extern struct hd tt_d;

/* Check fixture: start tt_d; stop it, requiring a clean stop and a clean log. */
void tt_setup(void);
void tt_teardown(void);
/* The wall clock in seconds (gettimeofday), for start_at. */
double tt_wall_s(void);
/* A new connection to tt_d, registered (if need be) and logged in as `name`. */
struct hc *tt_login(const char *name);
/* A tournament director: registered, granted td, logged in again (the role applies from the
 * next login). */
struct hc *tt_director(const char *name);

/* ---- the event as the test keeps it ---- */

enum tt_outcome {
	TT_BLACK_RESIGNS,   /* W+R */
	TT_WHITE_RESIGNS,   /* B+R */
	TT_BLACK_BY_COUNT,  /* a few moves, pass-pass, agreed all alive: B+1 with komi 0 */
	TT_DRAW_BY_COUNT,   /* one stone each, pass-pass, agreed: 0 with komi 0 */
	TT_TD_FORFEIT_BLACK, /* the director: W+F (Black forfeits) */
	TT_TD_DRAW,         /* the director: 0 */
};

struct tt_game {
	long long id;
	int round, b, w;
	int pts_b, pts_w; /* 2/1/0 */
	bool forfeit;     /* not played over the board: no tie-break */
	char result[16];
};

struct tt_event {
	struct hc *td;
	long long id;
	int n;
	const char *names[TT_MAXP];
	struct hc *c[TT_MAXP];
	bool withdrawn[TT_MAXP];
	bool knockout;
	bool out[TT_MAXP];            /* knockout: eliminated */
	struct tt_game g[TT_MAXG];
	int ng;
	int byes[TT_MAXP];            /* byes received */
	int bye_round[TT_MAXR][TT_MAXP]; /* bye_round[r][k]: player index of the k-th bye of round r */
	int nbye_round[TT_MAXR];
};

/* tournament.create by `td`: 9x9, komi 0, unrated, `system`; `more` (stolen, may be NULL)
 * adds fields. Returns the tournament's id. */
long long tt_create(struct hc *td, const char *name, const char *system, json_t *more);
/* The director registers player i of e. */
void tt_register(struct tt_event *e, int i);
/* Log the players in (names "<prefix>_<i>", kept in store). */
void tt_players(struct tt_event *e, const char *prefix, int n, char store[][32]);
/* Start the next round: checks the reply (round number, every active player paired or
 * given a bye exactly once, game.start to the players), adds its games to e. Returns the
 * number of games. */
int tt_start_round(struct tt_event *e, int round);
/* Send the built request (stolen) as c; the reply must be ok. */
void tt_req_ok(struct hc *c, json_t *req);
/* c plays vertex v in game g; the reply must be ok. */
void tt_mv(struct hc *c, long long g, const char *v);
/* Play game g out to `o`; checks game.end at both players and records the result. */
void tt_play_out(struct tt_event *e, struct tt_game *g, enum tt_outcome o);
/* tournament.standings against the test's computation: every player once, points, wins,
 * draws, losses, byes, the SOS / SODOS / WARN tie-breaks present, rows ordered by points
 * then the tie-breaks `tb` (ntb of them, as listed by the event), places shared only by
 * rows equal on all of them (competition ranking). */
void tt_check_standings(const struct tt_event *e, const char *const *tb, int ntb);
/* tournament.pairings of `round` against the games the test recorded. */
void tt_check_pairings(const struct tt_event *e, int round);
/* tournament.start_round must be a conflict now; `why` says why, for the message. */
void tt_expect_conflict_start(const struct tt_event *e, const char *why);
/* tournament.export in each format (td only): h9 has header lines (";") and one line per
 * player, and OpenGotha's importer reads every player and game of it (when java and
 * TENGEN_OPENGOTHA_DIR are there: tests/support/h9check.h); CSV a header and a row per player,
 * JSON parses with a row per player, HTML is a page naming every player. */
void tt_check_exports(const struct tt_event *e, const char *tname);
/* Close every player's connection and the director's. */
void tt_close_all(struct tt_event *e);

#endif
