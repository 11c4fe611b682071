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
#include "capture.h"
#include "predict.h"
#include "rules.h"
#include "ruleset.h"
#include "score.h"

/* OPENING and PREDICTING: the prediction ruleset's free opening and sealed predictions (seed
 * 000, Art. 5.2-5.3), before PLAYING. */
enum game_phase { PHASE_PENDING = 0, PHASE_SCHEDULED, PHASE_PLAYING, PHASE_COUNTING, PHASE_ENDED,
		  PHASE_OPENING, PHASE_PREDICTING };

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
	END_DECLINED, /* a challenge called off before play (no result) */
	END_EXPIRED   /* a challenge that lapsed unanswered at its expires_at (no result) */
};

/* What was wrong with a move (docs/protocol.md illegal_move `reason`). */
enum offence { OFFENCE_NONE = 0, OFFENCE_OCCUPIED, OFFENCE_SUICIDE, OFFENCE_SUPERKO,
	       OFFENCE_NOT_YOUR_TURN, OFFENCE_NO_PASS /* a pass in the opening (seed 000, 5.2) */ };

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
	/* The prediction ruleset (seed 000, Art. 5.3), by enum predict_role: */
	bool sealed[2];          /* the player's prediction is in */
	double predicted[2];     /* White's terms, points (valid when sealed) */
	bool revealed;           /* both were in once the opening ended: colours and bar decided */
	enum predict_role white_role; /* who took White (valid when revealed) */
	int disputes;            /* counting phases in a row ended by the same two different
				  * claims (REFEREE_DISPUTES_MAX) */
	uint64_t dispute_key;    /* a hash of those claims */
	bool settled;            /* ended at REFEREE_DISPUTES_MAX, or by a lapsed count: counted
				  * with counted_dead */
	int unclaimed;           /* a lapsed count (referee_count_lapse): REFEREE_UNCLAIMED_B | _W,
				  * who had not claimed; 0 otherwise */
	bool counted_dead[BOARD_POINTS_MAX]; /* then: the stones both claims held dead */
	bool free_handicap;      /* Black places the `handicap` stones (referee_init_free) */
	bool placing;            /* free handicap: the stones are not placed yet (Black's turn,
				  * no move may be played) */
	int free_pts[9];         /* free handicap: the points placed, in order (valid when
				  * free_handicap && !placing) */
};

/* Why referee_place_free refused a placement (docs/protocol.md `handicap`). */
enum referee_place_rc {
	REFEREE_PLACE_OK = 0,
	REFEREE_PLACE_NOT_PLACING, /* no free placement is due (not free, placed, not live) */
	REFEREE_PLACE_NOT_BLACK,   /* only Black places handicap stones */
	REFEREE_PLACE_COUNT,       /* not exactly r->handicap stones */
	REFEREE_PLACE_OFF_BOARD,   /* a point not on the board */
	REFEREE_PLACE_DUPLICATE,   /* the same point twice */
	REFEREE_PLACE_OCCUPIED     /* a point not empty */
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
	enum color removed;      /* prediction ruleset: whose chains the move removed (EMPTY) */
	bool predicting;         /* this move ended the opening (phase PREDICTING, or PLAYING when
				  * both predictions were already in: replay) */
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
 * texts, warnings its warnings_lose and repetitions its cost. Under the prediction ruleset
 * (seed 000) the game starts in PHASE_OPENING with White to place, the board's repetition rule
 * is positional, `komi` is ignored (it becomes minus the bar) and handicap must be 0. Returns
 * -1 also for a ruleset the referee does not implement. */
int referee_init_ruleset(struct referee *r, const struct ruleset *rs, int size, double komi,
			 int handicap, const struct rules *rules);
void referee_free(struct referee *r);

/* Start a game with free handicap placement (Chinese Rules 2002, Art. 2 and its note on
 * handicap: the stones may be placed freely; GTP 2 §6.3.3 place_free_handicap): as
 * referee_init_ruleset under the default (Chinese) ruleset with `handicap` 2-9 (a count the
 * board could hold as fixed points, referee_check), but no stone is placed: the game is
 * PLAYING with r->placing set and Black to move, and no move is accepted until
 * referee_place_free. The count is the same as with fixed stones (komi plus one point per
 * stone, Art. 11). Returns 0, or -1 (handicap below 2, a board that cannot hold it, no
 * memory). */
int referee_init_free(struct referee *r, int size, double komi, int handicap,
		      const struct rules *rules);

/* `c` places the free handicap stones pts[0..n-1] (board points): exactly r->handicap
 * distinct empty points of the board, by Black, while r->placing. On success they are setup
 * stones of the initial position (repetitions count from it, Art. 6), r->free_pts keeps them,
 * White moves next (Art. 2) and placing ends. On refusal nothing changes and *bad (if not
 * NULL) is the 0-based index of the offending point (-1 when no one point is at fault). */
enum referee_place_rc referee_place_free(struct referee *r, enum color c, const int *pts, int n,
					 int *bad);

/* `c` plays `pt` (a point or BOARD_PASS) in the PLAYING phase and the referee applies the rules
 * (docs/rules.md §3): legal moves are played; an occupied point or suicide forfeits the turn
 * (Art. 19); a repetition forfeits the turn and earns a warning (Art. 18.3), or voids the game
 * with `cycle: void` unless it is a simple ko retake; a move out of turn is void and earns a
 * warning (Art. 17.2); a second warning loses (Art. 24.2); with `illegal: lose` any illegal
 * move loses at once. Two consecutive passes open counting (Art. 7, 21), or with `counting:
 * all-alive` end the game counted. Returns 0 (see *out), or -1 if the game is not in PLAYING,
 * a free handicap is still to be placed (r->placing) or `pt` is not a point of the board
 * (nothing changes). */
int referee_play(struct referee *r, enum color c, int pt, struct referee_move *out);

/* referee_play with the choice the prediction ruleset gives when a move leaves chains of both
 * sides without liberties (seed 000, Art. 4.3; referee_play: CAPTURE_OPPONENT). Under that
 * ruleset, in OPENING and PLAYING: `c` must be the colour due (else OFFENCE_NOT_YOUR_TURN, in
 * the opening without warning: the server says whose placement is due); a pass in the opening
 * is OFFENCE_NO_PASS and a stone on an occupied point OFFENCE_OCCUPIED, both changing nothing
 * (no move recorded, no penalty); a stone whose resulting whole-board position appeared before
 * loses at once (OFFENCE_SUPERKO, lost, END_ILLEGAL; Art. 5.4); otherwise the move is played
 * under common/capture (out->removed, out->captured: every stone removed). The fourth opening
 * stone opens PREDICTING (out->predicting), or PLAYING if both predictions are in. Other
 * rulesets: as referee_play, the choice unused. */
int referee_play_choice(struct referee *r, enum color c, int pt, enum capture_choice choice,
			struct referee_move *out);

/* Prediction ruleset (Art. 5.3): player `role` seals `white` (its prediction in White's terms,
 * points; predict_margin_ok of its magnitude). Allowed in PREDICTING, and in OPENING for a
 * replay that restores predictions before the moves. Once both are in and the opening is
 * over: colours and bar decided (predict_decide; r->komi = minus the bar), PLAYING with White
 * to move, *revealed set. Returns 0, -1 (wrong phase or ruleset), or -2 (already sealed). */
int referee_predict(struct referee *r, enum predict_role role, double white, bool *revealed);

/* The bar in White's terms (prediction ruleset, once revealed): minus the komi. */
double referee_bar(const struct referee *r);

/* Counting phase (Art. 8, 21.4): `c` claims the stones at pts[0..n-1] dead (any stone marks
 * its chain). Returns 0, -1 if not in COUNTING, or the 1-based index of a point that is no
 * stone (nothing changes). When both have claimed: equal claims end the game, counted; else
 * play resumes (*resumed = true) with the player who holds dead stones the other holds alive
 * to move, or, if both do, the player who passed first; but the REFEREE_DISPUTES_MAX-th
 * counting phase in a row to end with the same two different claims ends the game counted
 * with only the stones both hold dead removed (*ended, r->settled). */
int referee_dead(struct referee *r, enum color c, const int *pts, int n, bool *ended, bool *resumed);
/* The counting phase's time ran out (the server's deadline, docs/rules.md §1 "Art. 8 and
 * 21.4"): a player who has not claimed is taken to accept the other's claim, and the game ends
 * counted with it (as OGS ends its stone-removal phase with the stones marked); neither has
 * claimed: counted with every stone alive (nothing both confirmed dead, Art. 8). Sets
 * r->unclaimed and r->settled (counted_dead holds the claim used). Returns 0, or -1 if not in
 * COUNTING. */
#define REFEREE_UNCLAIMED_B 1
#define REFEREE_UNCLAIMED_W 2
int referee_count_lapse(struct referee *r);
/* "B", "W" or "both" for r->unclaimed, "" for 0. */
const char *referee_unclaimed_name(int unclaimed);
/* The inverse; 0 for anything else. */
int referee_unclaimed_parse(const char *s);

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

/* Names on the wire and in the store. A reason is read in any case ("SCORE" is END_SCORE, as
 * results are: ruleset_result_normalise); phases and offences exactly. */
const char *referee_phase_name(enum game_phase p);
int referee_phase_parse(const char *s, enum game_phase *out);
const char *referee_reason_name(enum end_reason e);
int referee_reason_parse(const char *s, enum end_reason *out);

/* Does `result` (a result text of rs in its stored form: ruleset_result_normalise) go with
 * reason `why`, as a director sets them (docs/protocol.md tournament.result)? A reason says how
 * the game ended and the result must say the same: resignation B+R/W+R; time B+T/W+T;
 * warnings, illegal, lateness B+F/W+F (lost by the rules' forfeit, Art. 22, 24); score a
 * counted result (a margin, 0, or "B+"/"W+" without one); double_forfeit and cycle Void (Art.
 * 17.5, 20.3); adjudicated any (a director's decision, Art. 23). Returns 0, or -1 (also for a
 * text rs does not read, and for END_NONE, END_DECLINED, END_EXPIRED: no director gives them). */
int referee_reason_fits(const struct ruleset *rs, const char *result, enum end_reason why);
/* For messages: the results `why` goes with ("B+R or W+R", "a counted result (W+3.5, B+12,
 * 0)", "any result"), and the reasons `result` goes with ("resignation or adjudicated"). */
const char *referee_reason_results(enum end_reason why);
const char *referee_result_reasons(const struct ruleset *rs, const char *result);
const char *referee_offence_name(enum offence o);
int referee_offence_parse(const char *s, enum offence *out);

#endif
