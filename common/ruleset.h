/* ruleset: what differs between rulesets, behind one interface. Pure.
 *
 * A ruleset says who moves first, what is on the board before the first move (the opening),
 * what decides the winner (komi, or another bar), what a move that leaves chains without
 * liberties does, what a repetition costs, and how a result is stated. Code outside this
 * module asks the ruleset; it never tests which ruleset it has.
 *
 * One ruleset is implemented: the Chinese Weiqi Rules 2002 (ruleset_chinese2002, docs/rules.md).
 * The per-event options of struct rules (ko, illegal, cycle, counting, last_period; rules.h) are
 * choices within a ruleset, not part of it.
 *
 * The second is seed 000's "prediction rules" (ruleset_prediction, docs/rules.md): White moves
 * first (first_to_move), the first four stones are a free opening (free_opening_stones) rather
 * than fixed handicap points, sealed predictions instead of komi decide the winner (bar
 * RULESET_BAR_PREDICTION: the komi in force is minus the bar), suicide removes the mover's
 * chains (common/capture) and a repetition loses.
 */
#ifndef TENGEN_RULESET_H
#define TENGEN_RULESET_H

#include <stdbool.h>
#include "board.h"
#include "score.h"
#include "sgf.h"

/* What decides the winner of a counted game. */
enum ruleset_bar {
	RULESET_BAR_KOMI = 0,   /* Black's area margin against the komi in force (effective_komi) */
	RULESET_BAR_PREDICTION  /* sealed predictions (seed 000, common/predict): komi = -bar */
};

/* What a move that leaves chains without liberties does. In every case the opponent's chains
 * without liberties are removed first (Art. 3-4); this says what happens to the mover's own
 * chain when that captures nothing. */
enum ruleset_suicide {
	RULESET_SUICIDE_ILLEGAL = 0, /* the move is illegal (Art. 5; as common/board plays) */
	RULESET_SUICIDE_REMOVES_OWN  /* the mover's chain is removed (seed 000 Art. 4, common/capture) */
};

/* What a repetition (a superko move, docs/rules.md Art. 6, 20) costs, beyond the move being
 * void and the turn forfeited (Art. 19). The rules' `cycle: void` option may void the game
 * instead (Art. 20.3). */
enum ruleset_repetition {
	RULESET_REPETITION_WARNING = 0, /* also a warning (Art. 18.3) */
	RULESET_REPETITION_TURN,        /* the turn only */
	RULESET_REPETITION_LOSS         /* the game is lost at once (seed 000, Art. 5.4) */
};

/* How a game was won without a count, for its result text. */
enum ruleset_win {
	RULESET_WIN_RESIGNATION = 0, /* the other resigned (Art. 13) */
	RULESET_WIN_FORFEIT,         /* a forfeit: warnings, illegal move, lateness (Art. 22, 24) */
	RULESET_WIN_TIME             /* the other's time ran out (Art. 22.5) */
};

/* A result text read back (ruleset.result_parse). */
struct ruleset_result {
	enum color winner;  /* BLACK or WHITE; EMPTY for a draw or a game without result */
	bool draw;          /* a draw (SGF "0") */
	bool counted;       /* a margin was given ("B+3.5"): margin, in points, > 0 */
	double margin;
	bool decided_by;    /* a win by resignation, time or forfeit ("W+R"): how */
	enum ruleset_win how;
};

struct ruleset {
	const char *name;          /* the name ruleset_find knows it by: "chinese-2002" */
	const char *sgf_rules;     /* the SGF RU[] value: "Chinese" */
	double default_komi;       /* points, given to White, of an even game */
	double default_handicap_komi; /* points, of a handicap game (usual practice) */
	int free_opening_stones;   /* stones the players place freely before play proper; 0: none */
	enum ruleset_bar bar;
	enum ruleset_suicide suicide;
	enum ruleset_repetition repetition;
	int warnings_lose;         /* a player's warnings that lose the game (Art. 24.2: 2) */
	double margin_unit;        /* points: every counted margin is a whole number of these (0.5
				    * with a whole or half komi; 0.25 under a bar that is the mean of
				    * two half-point predictions) */
	/* The colour to move first in a game with `handicap` (0 even; 1 a handicap without stones;
	 * 2-9 stones). */
	enum color (*first_to_move)(int handicap);
	/* The stones Black has on the board before the first move of a game of `size` with
	 * `handicap`: their points for a board of `stride` into pts[0..8]. Returns their number
	 * (0 for none), or -1 if the board cannot hold that handicap. */
	int (*opening)(int size, int handicap, int *pts, int stride);
	/* Bar RULESET_BAR_KOMI: the komi a game with `komi` and `handicap` is counted with, in
	 * points given to White (written as the SGF's KM and told to engines). */
	double (*effective_komi)(double komi, int handicap);
	/* The SGF result of a counted game (s->komi is the komi in force): "B+3.5", "W+0.5", "0".
	 * out[SCORE_RESULT_MAX]. Returns out. */
	char *(*result_counted)(const struct score *s, char *out);
	/* The result spoken as players of the ruleset say it, from Black's margin in points
	 * ("B+1¾" in stones). out[32]. Returns out. */
	char *(*result_spoken)(double margin, char *out);
	/* The SGF result of a win by `how` for `winner` (BLACK or WHITE): "B+R", "W+F", "B+T". */
	const char *(*result_win)(enum color winner, enum ruleset_win how);
	const char *result_void;   /* a game without result (Art. 20.3, a double forfeit): "Void" */
	/* Read a result text back: the texts above, and the other forms a director may set
	 * ("B+" without how or margin; "Draw" for "0"; a margin below 10000 points). Returns 0
	 * with *out filled, or -1 if the text is no result of this ruleset. */
	int (*result_parse)(const char *result, struct ruleset_result *out);
};

/* The Chinese Weiqi Rules 2002 (docs/rules.md): Black moves first, or White after 2-9
 * handicap stones on the GTP fixed points (Art. 2); komi 7.5 (0.5 in handicap games) plus one
 * point per handicap stone (Art. 11); suicide illegal (Art. 5); a repetition forfeits the turn
 * with a warning (Art. 18.3); two warnings lose (Art. 24.2); SGF results. */
extern const struct ruleset ruleset_chinese2002;

/* Seed 000's prediction rules (docs/rules.md "Prediction rules"): a free four-stone opening
 * (W, B, W, B; Art. 5.2), sealed predictions deciding colours and the bar (Art. 5.3), White
 * first (Art. 5.4), suicide legal and the both-sides choice (Art. 4), a repeated whole-board
 * position losing (Art. 5.4), area difference against the bar (Art. 5.5, 6). */
extern const struct ruleset ruleset_prediction;

struct rules;
/* The ruleset a game's rules name (rules.ruleset; NULL: the default). */
const struct ruleset *ruleset_of_rules(const struct rules *r);

/* The ruleset of games that name none: ruleset_chinese2002. */
const struct ruleset *ruleset_default(void);

/* The ruleset called `name` (exact match), or NULL. */
const struct ruleset *ruleset_find(const char *name);

/* A result as a director types it, in the form results are stored in (docs/protocol.md,
 * tournament.result): case does not matter ("b+r" -> "B+R", "w+3.5" -> "W+3.5", "void" ->
 * rs->result_void); "jigo" and "draw" (any case) are "0"; "double_loss" (any case) is
 * rs->result_void with *double_loss set (a double loss is stored as Void with reason
 * double_forfeit, docs/rules.md §4), else *double_loss is cleared. The text is not checked:
 * rs->result_parse does that on out. out[size]. Returns 0, or -1 if in is NULL or out too
 * short (out then empty when size > 0). */
int ruleset_result_normalise(const struct ruleset *rs, const char *in, char *out, size_t size,
			     bool *double_loss);

/* Is r a result text of rs in the form it stores and writes (a result entered by a director,
 * docs/protocol.md tournament.result)? rs->result_parse must take it, and a counted margin must
 * be a whole number of rs->margin_unit (Chinese Rules 2002 Art. 11: area counting with a
 * whole or half komi gives half points; the prediction rules' bar, Art. 5.3(2), quarters)
 * written as the ruleset writes it: "W+3.5", "B+12", never "W+ 3", "W+3.0", "W+03" or "W+3e0"
 * (result_parse reads a margin with strtod, which takes those), nor "W+3.25" under the
 * Chinese rules. Returns 0, or -1. */
int ruleset_result_check(const struct ruleset *rs, const char *r);

/* Can a counted result r (ruleset_result_check's form) come out of an area count under rs with
 * komi `komi` (points; the game's komi, handicap compensation aside: it adds whole points)?
 * Chinese Rules 2002 Art. 9-11: Black's and White's areas differ by a whole number (stones and
 * territory, neutral points shared half each on an odd or even board alike), so the margin
 * minus the komi is whole: with komi 7.5, W+1 cannot happen, W+1.5 can, nor can a draw ("0",
 * a margin of 0), which needs a whole komi. The prediction ruleset's bar (Art. 5.3) is not a
 * komi: any quarter fits. Other results without a margin (B+R, W+F, Void) fit.
 * Returns 0, or -1. */
int ruleset_margin_fits(const struct ruleset *rs, const char *r, double komi);

/* The largest margin, in points, a count under rs can give on a board of `size` with komi
 * `komi` (the komi in force: effective_komi, handicap compensation included; a prediction
 * game's, minus its bar): Black's and White's areas differ by at most size * size, and by two
 * more for each warning short of those that lose (Art. 24.1: a warning moves a point), and the
 * komi moves the margin by its size either way: 90.5 on 9x9 with komi 7.5. */
double ruleset_margin_max(const struct ruleset *rs, int size, double komi);
/* Is the counted result r (ruleset_result_check's form) within ruleset_margin_max? Results
 * without a margin are. Returns 0, or -1 ("W+300.5" on 9x9). */
int ruleset_margin_possible(const struct ruleset *rs, const char *r, int size, double komi);

/* Fill the game information a record of a game under rs takes from the ruleset: KM (the
 * effective komi of `komi` and `handicap`), HA, RU, and PL when the first player is not the one
 * SGF implies (White when Black has stones before the first move, else Black). s->size must be
 * set. Returns SGF_OK, or SGF_ENOMEM. */
int ruleset_sgf_info(const struct ruleset *rs, double komi, int handicap, struct sgf_game *s);

/* The SGF RU[] of a prediction-rules game whose event asks for a decisive result (equality with
 * the bar wins for the bar's colour): ruleset_prediction.sgf_rules and this suffix. */
#define RULESET_SGF_DECISIVE " (decisive)"

/* The ruleset a record's RU[] names (ruleset.sgf_rules, a prefix for the prediction rules'
 * decisive form), and whether it is decisive; NULL or unknown: the default ruleset. */
const struct ruleset *ruleset_from_sgf(const char *ru, bool *decisive);

#endif
