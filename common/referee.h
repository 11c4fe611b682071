/* referee: one game's state machine and its penalties, pure (no I/O, no clocks).
 *
 * It owns the board and applies docs/rules.md §1 and §3 (Chinese Rules 2002, Art. 5-9, 17-21, 24):
 * turns, illegal moves (void, turn forfeited as a pass), repetitions (also a warning), moves
 * out of turn (void, warning), two warnings losing, two consecutive passes opening the counting
 * phase, dead-stone claims, area counting, resignation and results set from outside (time,
 * lateness, a director's adjudication).
 *
 * Move numbers count every recorded move from 1: stones, passes and forfeited turns.
 */
#ifndef TENGEN_REFEREE_H
#define TENGEN_REFEREE_H

#include <stdbool.h>
#include <stdint.h>
#include "board.h"
#include "rules.h"
#include "ruleset.h"
#include "score.h"

enum game_phase { PHASE_PENDING = 0, PHASE_SCHEDULED, PHASE_PLAYING, PHASE_COUNTING, PHASE_ENDED };

/* Counting phases in a row that may end with the same two different claims before the dispute
 * is settled by the count (docs/rules.md, Art. 8 and 21.4): play resumed twice for the claimant
 * to capture the stones in question (Art. 21.4: "settled by actual play") and the third count
 * brought the same claims, so the stones were not captured: they are counted alive, and only
 * the stones both hold dead are removed (Art. 8: dead stones are those both confirm). */
#define REFEREE_DISPUTES_MAX 3

/* Why a game ended (docs/protocol.md game.end `reason`). */
enum end_reason {
	END_NONE = 0, END_RESIGNATION, END_TIME, END_SCORE, END_WARNINGS, END_ILLEGAL,
	END_LATENESS, END_DOUBLE_FORFEIT, END_ADJUDICATED, END_CYCLE,
	END_DECLINED /* a challenge called off before play (no result) */
};

/* What was wrong with a move (docs/protocol.md illegal_move `reason`). */
enum offence { OFFENCE_NONE = 0, OFFENCE_OCCUPIED, OFFENCE_SUICIDE, OFFENCE_SUPERKO,
	       OFFENCE_NOT_YOUR_TURN };

struct referee {
	struct board board;
	struct rules rules;
	const struct ruleset *ruleset; /* who moves first, the opening, the bar, results */
	double komi;             /* points */
	int handicap;            /* stones placed before move 1 (0 = none; 1 = none placed, Black
				  * first: a McMahon handicap of one) */
	enum game_phase phase;
	int warnings[3];         /* per colour */
	int passes;              /* consecutive passes (forfeits included) since play (re)started */
	enum color first_passer; /* who passed first of the passes that opened counting */
	bool claimed[3];         /* per colour: dead-stone claim submitted in this counting phase */
	bool dead[3][BOARD_POINTS_MAX];
	char result[SCORE_RESULT_MAX]; /* SGF result once ended ("" before) */
	enum end_reason reason;
	bool scored;
	struct score score;      /* valid when scored */
	int disputes;            /* counting phases in a row ended by the same two different
				  * claims (REFEREE_DISPUTES_MAX) */
	uint64_t dispute_key;    /* a hash of those claims */
	bool settled;            /* ended at REFEREE_DISPUTES_MAX: counted with counted_dead */
	bool counted_dead[BOARD_POINTS_MAX]; /* then: the stones both claims held dead */
};

/* The outcome of one referee_play call. */
struct referee_move {
	int number;              /* the move's number if one was recorded (a stone, pass or
				  * forfeited turn), else 0 */
	enum color color;
	int pt;                  /* point played; BOARD_PASS for a pass or a forfeited turn */
	int captured[BOARD_MAX_SIZE * BOARD_MAX_SIZE];
	int ncaptured;
	enum offence offence;    /* OFFENCE_NONE for a legal move */
	bool forfeit_turn;       /* the turn was forfeited (recorded as a pass) */
	bool warning;            /* a warning was given to `color` */
	bool lost;               /* the mover lost by this move (warnings or `illegal: lose`) */
	bool voided;             /* the game is void (`cycle: void`) */
	bool counting;           /* this move opened the counting phase */
	bool ended;              /* the game ended (lost, voided, or counted at once) */
};

/* Can a game of `size` (BOARD_MIN_SIZE..BOARD_MAX_SIZE) with `handicap` be started? handicap
 * 0 (even), 1 (no stones placed, Black moves first: a McMahon handicap of one stone, docs/rules.md
 * §4) or 2-9 where board_fixed_handicap has a placement (7x7 and up; 5 or more stones on odd
 * sizes from 9x9). The checks referee_init makes, for a caller that must know before it
 * creates anything (a tournament round). Returns 0, or -1. */
int referee_check(int size, int handicap);

/* Start a game of `size` with `rules`, komi in points and `handicap` (0; 1: no stones, Black
 * moves first; 2-9 stones at the GTP fixed points, then White moves first, Art. 2).
 * r->handicap keeps it: the count adds score_handicap_compensation(handicap) to the komi.
 * Phase PLAYING. Returns 0, or -1 when referee_check refuses (bad size, a handicap the board
 * cannot hold) or no memory. Free with referee_free. */
int referee_init(struct referee *r, int size, double komi, int handicap, const struct rules *rules);

/* The same under ruleset `rs` (NULL: ruleset_default()): its opening places the stones and
 * its first_to_move has the first move; the count uses its effective komi, the results its
 * texts, warnings its warnings_lose and repetitions its cost. Returns -1 also for a ruleset
 * the referee does not implement (a free opening, another bar than komi, suicide allowed). */
int referee_init_ruleset(struct referee *r, const struct ruleset *rs, int size, double komi,
			 int handicap, const struct rules *rules);
void referee_free(struct referee *r);

/* `c` plays `pt` (a point or BOARD_PASS) in the PLAYING phase and the referee applies the rules
 * (docs/rules.md §3): legal moves are played; an occupied point or suicide forfeits the turn
 * (Art. 19); a repetition forfeits the turn and earns a warning (Art. 18.3), or voids the game
 * with `cycle: void` unless it is a simple ko retake; a move out of turn is void and earns a
 * warning (Art. 17.2); a second warning loses (Art. 24.2); with `illegal: lose` any illegal
 * move loses at once. Two consecutive passes open counting (Art. 7, 21), or with `counting:
 * all-alive` end the game counted. Returns 0 (see *out), or -1 if the game is not in PLAYING or
 * `pt` is not a point of the board (nothing changes). */
int referee_play(struct referee *r, enum color c, int pt, struct referee_move *out);

/* Counting phase (Art. 8, 21.4): `c` claims the stones at pts[0..n-1] dead (any stone marks
 * its chain). Returns 0, -1 if not in COUNTING, or the 1-based index of a point that is no
 * stone (nothing changes). When both have claimed: equal claims end the game, counted; else
 * play resumes (*resumed = true) with the player who holds dead stones the other holds alive
 * to move, or, if both do, the player who passed first; but the REFEREE_DISPUTES_MAX-th
 * counting phase in a row to end with the same two different claims ends the game counted
 * with only the stones both hold dead removed (*ended, r->settled). */
int referee_dead(struct referee *r, enum color c, const int *pts, int n, bool *ended, bool *resumed);
/* The dead stones the count of an ended, counted game used (every stone of each chain): the
 * agreed claims, or counted_dead for a dispute settled at REFEREE_DISPUTES_MAX; NULL for a game
 * not counted by claims (all alive, or not counted). */
const bool *referee_counted_dead(const struct referee *r);

/* `c` resigns (PLAYING or COUNTING). Returns 0 or -1 if the game is not live. */
int referee_resign(struct referee *r, enum color c);

/* End the game from outside with an SGF result and a reason (time, lateness, a director's
 * decision). Allowed in any phase but ENDED, unless `override` (a director changing a result).
 * Returns 0 or -1. */
int referee_end(struct referee *r, const char *result, enum end_reason reason, bool override);

/* Count the board now with the agreed dead stones (NULL: all alive), komi, handicap
 * compensation and warnings (Art. 9, 11, 24.1). */
void referee_count(const struct referee *r, const bool *dead, struct score *out);

/* Names on the wire and in the store. */
const char *referee_phase_name(enum game_phase p);
int referee_phase_parse(const char *s, enum game_phase *out);
const char *referee_reason_name(enum end_reason e);
int referee_reason_parse(const char *s, enum end_reason *out);
const char *referee_offence_name(enum offence o);
int referee_offence_parse(const char *s, enum offence *out);

#endif
