/* referee: one game's rules and penalties. See referee.h. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "referee.h"

/* referee_check under ruleset rs. */
static int check_opening(const struct ruleset *rs, int size, int handicap)
{
	int pts[9];
	if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE || handicap < 0)
		return -1;
	if (rs->opening(size, handicap, pts, size + 2) < 0)
		return -1;
	return 0;
}

int referee_check(int size, int handicap)
{
	return check_opening(ruleset_default(), size, handicap);
}

/* Does the referee implement everything rs asks for? */
static bool implemented(const struct ruleset *rs)
{
	bool chinese = rs->free_opening_stones == 0 && rs->bar == RULESET_BAR_KOMI &&
		       rs->suicide == RULESET_SUICIDE_ILLEGAL;
	bool prediction = rs->free_opening_stones == 4 && rs->bar == RULESET_BAR_PREDICTION &&
			  rs->suicide == RULESET_SUICIDE_REMOVES_OWN;
	return (chinese || prediction) && rs->warnings_lose >= 1;
}

/* Is the game under the prediction rules (seed 000)? */
static bool predicting_rules(const struct referee *r)
{
	return r->ruleset && r->ruleset->bar == RULESET_BAR_PREDICTION;
}

int referee_init_ruleset(struct referee *r, const struct ruleset *rs, int size, double komi,
			 int handicap, const struct rules *rules)
{
	memset(r, 0, sizeof *r);
	r->ruleset = rs ? rs : ruleset_default();
	if (rules)
		r->rules = *rules;
	else
		rules_default(&r->rules);
	if (r->ruleset->bar == RULESET_BAR_PREDICTION)
		r->rules.ko = KO_POSITIONAL; /* Art. 5.4: no whole-board position may recur */
	if (!implemented(r->ruleset) || check_opening(r->ruleset, size, handicap) < 0 ||
	    board_init(&r->board, size, r->rules.ko) < 0)
		return -1;
	if (predicting_rules(r)) {
		r->komi = 0; /* minus the bar, once the predictions are shown */
		r->phase = PHASE_OPENING;
		board_set_to_move(&r->board, r->ruleset->first_to_move(0));
		return 0;
	}
	r->komi = komi;
	r->phase = PHASE_PLAYING;
	r->handicap = handicap;
	/* Chinese 2002: 2-9 stones and White first; 1: no stones, Black moves first (a McMahon
	 * handicap of one) */
	int pts[9];
	int n = r->ruleset->opening(size, handicap, pts, r->board.stride);
	for (int i = 0; i < n; i++)
		board_setup(&r->board, BLACK, pts[i]);
	enum color first = r->ruleset->first_to_move(handicap);
	if (first != r->board.to_move)
		board_set_to_move(&r->board, first);
	return 0;
}

int referee_init_free(struct referee *r, int size, double komi, int handicap,
		      const struct rules *rules)
{
	if (handicap < 2 || referee_init_ruleset(r, ruleset_default(), size, komi, 0, rules) < 0)
		return -1;
	if (check_opening(r->ruleset, size, handicap) < 0) {
		referee_free(r);
		return -1;
	}
	r->handicap = handicap;
	r->free_handicap = r->placing = true;
	return 0; /* Black to move: the placement is Black's turn */
}

enum referee_place_rc referee_place_free(struct referee *r, enum color c, const int *pts, int n,
					 int *bad)
{
	int dummy;
	if (!bad)
		bad = &dummy;
	*bad = -1;
	if (!r->placing || r->phase != PHASE_PLAYING)
		return REFEREE_PLACE_NOT_PLACING;
	if (c != BLACK)
		return REFEREE_PLACE_NOT_BLACK;
	if (n != r->handicap)
		return REFEREE_PLACE_COUNT;
	for (int i = 0; i < n; i++) {
		*bad = i;
		if (pts[i] == BOARD_PASS || !board_on(&r->board, pts[i]))
			return REFEREE_PLACE_OFF_BOARD;
		for (int j = 0; j < i; j++)
			if (pts[j] == pts[i])
				return REFEREE_PLACE_DUPLICATE;
		if (board_at(&r->board, pts[i]) != EMPTY)
			return REFEREE_PLACE_OCCUPIED;
	}
	*bad = -1;
	/* At most 9 Black stones on a board of 7x7 or more (referee_check) always have a liberty:
	 * board_setup accepts each. */
	for (int i = 0; i < n; i++) {
		board_setup(&r->board, BLACK, pts[i]);
		r->free_pts[i] = pts[i];
	}
	r->placing = false;
	board_set_to_move(&r->board, WHITE);
	return REFEREE_PLACE_OK;
}

int referee_init(struct referee *r, int size, double komi, int handicap, const struct rules *rules)
{
	return referee_init_ruleset(r, ruleset_default(), size, komi, handicap, rules);
}

/* The game's ruleset (a referee zeroed but never started has the default). */
static const struct ruleset *ruleset_of(const struct referee *r)
{
	return r->ruleset ? r->ruleset : ruleset_default();
}

void referee_free(struct referee *r)
{
	board_free(&r->board);
}

static void finish(struct referee *r, const char *result, enum end_reason reason)
{
	snprintf(r->result, sizeof r->result, "%s", result);
	r->reason = reason;
	r->phase = PHASE_ENDED;
}

/* The opponent of `loser` wins by forfeit (docs/rules.md §3: B+F / W+F). */
static void forfeit_loss(struct referee *r, enum color loser, enum end_reason reason)
{
	finish(r, ruleset_of(r)->result_win(color_other(loser), RULESET_WIN_FORFEIT), reason);
}

void referee_count(const struct referee *r, const bool *dead, struct score *out)
{
	score_area_komi(&r->board, dead, ruleset_of(r)->effective_komi(r->komi, r->handicap),
			r->warnings, out);
}

static void finish_counted(struct referee *r, const bool *dead)
{
	char res[SCORE_RESULT_MAX];
	referee_count(r, dead, &r->score);
	r->scored = true;
	if (predicting_rules(r) && r->rules.decisive) /* Art. 5.3.2: equality wins for the bar */
		predict_result(r->score.white - r->score.black, -r->score.komi, true, res);
	else
		ruleset_of(r)->result_counted(&r->score, res);
	finish(r, res, END_SCORE);
}

/* A pass or forfeited turn was recorded: count it, maybe open counting. */
static void after_pass(struct referee *r, enum color c, struct referee_move *out)
{
	if (r->passes++ == 0)
		r->first_passer = c;
	if (r->passes < 2)
		return;
	if (r->rules.counting == COUNTING_ALL_ALIVE) {
		finish_counted(r, NULL);
		out->ended = true;
		return;
	}
	r->phase = PHASE_COUNTING;
	r->claimed[BLACK] = r->claimed[WHITE] = false;
	out->counting = true;
}

static void warn(struct referee *r, enum color c, struct referee_move *out)
{
	out->warning = true;
	if (++r->warnings[c] >= ruleset_of(r)->warnings_lose) { /* Art. 24.2: 2 */
		forfeit_loss(r, c, END_WARNINGS);
		out->lost = out->ended = true;
	}
}

/* Both predictions in and the opening over: colours and the bar (Art. 5.3), play starts. */
static void reveal(struct referee *r)
{
	double bar;
	predict_decide(r->predicted[PREDICT_FIRST], r->predicted[PREDICT_SECOND], &r->white_role,
		       &bar);
	r->komi = -bar;
	r->revealed = true;
	r->phase = PHASE_PLAYING;
	r->passes = 0;
	board_set_to_move(&r->board, r->ruleset->first_to_move(0));
}

int referee_predict(struct referee *r, enum predict_role role, double white, bool *revealed)
{
	*revealed = false;
	if (!predicting_rules(r) || (role != PREDICT_FIRST && role != PREDICT_SECOND) ||
	    (r->phase != PHASE_OPENING && r->phase != PHASE_PREDICTING))
		return -1;
	if (r->sealed[role])
		return -2;
	r->sealed[role] = true;
	r->predicted[role] = white;
	if (r->phase == PHASE_PREDICTING && r->sealed[!role]) {
		reveal(r);
		*revealed = true;
	}
	return 0;
}

double referee_bar(const struct referee *r)
{
	return -r->komi;
}

/* A move under the prediction rules, in OPENING or PLAYING (see referee_play_choice). */
static int play_prediction(struct referee *r, enum color c, int pt, enum capture_choice choice,
			   struct referee_move *out)
{
	bool opening = r->phase == PHASE_OPENING;
	if (c != r->board.to_move) {
		out->offence = OFFENCE_NOT_YOUR_TURN;
		if (!opening)
			warn(r, c, out); /* Art. 17.2 of the Chinese rules: no rule of seed 000 */
		return 0;
	}
	if (pt == BOARD_PASS && opening) {
		out->offence = OFFENCE_NO_PASS; /* Art. 5.2 */
		return 0;
	}
	struct capture_move cm;
	enum board_status st = capture_play(&r->board, c, pt, choice, &cm);
	if (st == BOARD_OCCUPIED) {
		out->offence = OFFENCE_OCCUPIED; /* refused, nothing changes */
		return 0;
	}
	if (st == BOARD_SUPERKO) { /* Art. 5.4: the repetition loses at once */
		out->offence = OFFENCE_SUPERKO;
		forfeit_loss(r, c, END_ILLEGAL);
		out->lost = out->ended = true;
		return 0;
	}
	if (st != BOARD_OK)
		return -1;
	out->pt = pt;
	out->number = (int)board_moves(&r->board);
	out->removed = cm.removed;
	out->ncaptured = cm.ncaptured;
	memcpy(out->captured, cm.captured, (size_t)cm.ncaptured * sizeof *cm.captured);
	if (pt == BOARD_PASS) {
		after_pass(r, c, out);
		return 0;
	}
	r->passes = 0;
	if (opening && out->number >= r->ruleset->free_opening_stones) {
		out->predicting = true;
		r->phase = PHASE_PREDICTING;
		if (r->sealed[PREDICT_FIRST] && r->sealed[PREDICT_SECOND])
			reveal(r); /* a replay: the predictions were restored first */
	}
	return 0;
}

int referee_play(struct referee *r, enum color c, int pt, struct referee_move *out)
{
	return referee_play_choice(r, c, pt, CAPTURE_OPPONENT, out);
}

int referee_play_choice(struct referee *r, enum color c, int pt, enum capture_choice choice,
			struct referee_move *out)
{
	memset(out, 0, sizeof *out);
	out->color = c;
	out->pt = BOARD_PASS;
	bool live = r->phase == PHASE_PLAYING || (predicting_rules(r) && r->phase == PHASE_OPENING);
	if (!live || r->placing || (c != BLACK && c != WHITE) || (pt != BOARD_PASS && !board_on(&r->board, pt)))
		return -1;
	if (predicting_rules(r))
		return play_prediction(r, c, pt, choice, out);

	if (c != r->board.to_move) {
		/* Art. 17.2: the move is void and earns a warning. */
		out->offence = OFFENCE_NOT_YOUR_TURN;
		warn(r, c, out);
		return 0;
	}

	enum board_status st = board_check(&r->board, c, pt);
	bool repeat = false;
	if (st == BOARD_OK && pt != BOARD_PASS && r->rules.ko == KO_SIMPLE &&
	    board_repeats(&r->board, c, pt, KO_SITUATIONAL))
		repeat = true; /* a long cycle under simple ko: judged by the `cycle` option */

	if (st == BOARD_OK && !repeat) {
		board_play(&r->board, c, pt, out->captured, &out->ncaptured);
		out->pt = pt;
		out->number = (int)board_moves(&r->board);
		if (pt == BOARD_PASS)
			after_pass(r, c, out);
		else
			r->passes = 0;
		return 0;
	}

	switch (st) {
	case BOARD_OCCUPIED: out->offence = OFFENCE_OCCUPIED; break;
	case BOARD_SUICIDE: out->offence = OFFENCE_SUICIDE; break;
	default: out->offence = OFFENCE_SUPERKO; break;
	}
	if (r->rules.illegal == ILLEGAL_LOSE) {
		forfeit_loss(r, c, END_ILLEGAL);
		out->lost = out->ended = true;
		return 0;
	}
	/* Art. 20.3: with `cycle: void` a repetition other than a simple ko retake voids the game. */
	if (out->offence == OFFENCE_SUPERKO && st != BOARD_KO && r->rules.cycle == CYCLE_VOID) {
		finish(r, ruleset_of(r)->result_void, END_CYCLE);
		out->voided = out->ended = true;
		return 0;
	}
	/* Art. 19: the move is void and the turn forfeited, recorded as a pass. */
	board_play(&r->board, c, BOARD_PASS, NULL, NULL);
	out->forfeit_turn = true;
	out->number = (int)board_moves(&r->board);
	if (out->offence == OFFENCE_SUPERKO &&
	    ruleset_of(r)->repetition == RULESET_REPETITION_WARNING) {
		warn(r, c, out); /* Art. 18.3 */
		if (out->ended)
			return 0;
	}
	after_pass(r, c, out);
	return 0;
}

/* FNV-1a over both claims: equal keys are (but for a collision of 2^-64) the same dispute. */
static uint64_t claims_key(const struct referee *r)
{
	uint64_t h = 14695981039346656037ull;
	for (int c = BLACK; c <= WHITE; c++)
		for (int p = 0; p < BOARD_POINTS_MAX; p++) {
			h ^= (uint64_t)(r->dead[c][p] ? 1 + p : 0);
			h *= 1099511628211ull;
		}
	return h;
}

const bool *referee_counted_dead(const struct referee *r)
{
	if (!r->scored || r->phase != PHASE_ENDED)
		return NULL;
	if (r->settled)
		return r->counted_dead;
	return r->claimed[BLACK] && r->claimed[WHITE] ? r->dead[BLACK] : NULL;
}

int referee_dead(struct referee *r, enum color c, const int *pts, int n, bool *ended, bool *resumed)
{
	bool dead[BOARD_POINTS_MAX];
	*ended = *resumed = false;
	if (r->phase != PHASE_COUNTING || (c != BLACK && c != WHITE))
		return -1;
	int bad = score_mark_dead(&r->board, pts, n, dead);
	if (bad)
		return bad;
	memcpy(r->dead[c], dead, sizeof dead);
	r->claimed[c] = true;
	if (!r->claimed[BLACK] || !r->claimed[WHITE])
		return 0;
	if (memcmp(r->dead[BLACK], r->dead[WHITE], sizeof dead) == 0) {
		finish_counted(r, r->dead[BLACK]);
		*ended = true;
		return 0;
	}
	/* The same dispute again? After REFEREE_DISPUTES_MAX in a row, the count settles it. */
	uint64_t key = claims_key(r);
	r->disputes = r->disputes > 0 && key == r->dispute_key ? r->disputes + 1 : 1;
	r->dispute_key = key;
	if (r->disputes >= REFEREE_DISPUTES_MAX) {
		for (int p = 0; p < BOARD_POINTS_MAX; p++)
			r->counted_dead[p] = r->dead[BLACK][p] && r->dead[WHITE][p];
		r->settled = true;
		finish_counted(r, r->counted_dead);
		*ended = true;
		return 0;
	}
	/* Art. 21.4: play resumes; who holds dead stones the other holds alive moves first. */
	bool bx = false, wx = false;
	for (int p = 0; p < BOARD_POINTS_MAX; p++) {
		bx |= r->dead[BLACK][p] && !r->dead[WHITE][p];
		wx |= r->dead[WHITE][p] && !r->dead[BLACK][p];
	}
	enum color first = bx && wx ? r->first_passer : bx ? BLACK : WHITE;
	board_set_to_move(&r->board, first);
	r->phase = PHASE_PLAYING;
	r->passes = 0;
	r->claimed[BLACK] = r->claimed[WHITE] = false;
	*resumed = true;
	return 0;
}

int referee_count_lapse(struct referee *r)
{
	if (r->phase != PHASE_COUNTING)
		return -1;
	const bool *claim = r->claimed[BLACK] ? r->dead[BLACK] : r->claimed[WHITE] ? r->dead[WHITE]
									      : NULL;
	r->unclaimed = (r->claimed[BLACK] ? 0 : REFEREE_UNCLAIMED_B) |
		       (r->claimed[WHITE] ? 0 : REFEREE_UNCLAIMED_W);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		r->counted_dead[p] = claim && claim[p];
	r->settled = true;
	finish_counted(r, r->counted_dead);
	return 0;
}

const char *referee_unclaimed_name(int unclaimed)
{
	switch (unclaimed) {
	case REFEREE_UNCLAIMED_B: return "B";
	case REFEREE_UNCLAIMED_W: return "W";
	case REFEREE_UNCLAIMED_B | REFEREE_UNCLAIMED_W: return "both";
	default: return "";
	}
}

int referee_unclaimed_parse(const char *s)
{
	for (int u = 1; u <= 3; u++)
		if (s && strcmp(s, referee_unclaimed_name(u)) == 0)
			return u;
	return 0;
}

int referee_resign(struct referee *r, enum color c)
{
	if ((r->phase != PHASE_PLAYING && r->phase != PHASE_COUNTING) || (c != BLACK && c != WHITE))
		return -1;
	finish(r, ruleset_of(r)->result_win(color_other(c), RULESET_WIN_RESIGNATION),
	       END_RESIGNATION);
	return 0;
}

int referee_end(struct referee *r, const char *result, enum end_reason reason, bool override)
{
	if (r->phase == PHASE_ENDED && !override)
		return -1;
	r->scored = false;
	r->unclaimed = 0; /* a result set from outside: no lapsed count stands (an override) */
	finish(r, result, reason);
	return 0;
}

/* ---- names ---- */

static const char *const phase_names[] = {"pending", "scheduled", "playing", "counting", "ended",
	"opening", "predicting"};
static const char *const reason_names[] = {"", "resignation", "time", "score", "warnings",
	"illegal", "lateness", "double_forfeit", "adjudicated", "cycle", "declined",
	"expired"};
static const char *const offence_names[] = {"", "occupied", "suicide", "superko", "not_your_turn",
	"no_pass"};

static int find(const char *s, const char *const *names, int n, int (*cmp)(const char *,
									  const char *))
{
	for (int i = 0; s && i < n; i++)
		if (cmp(s, names[i]) == 0)
			return i;
	return -1;
}

#define NAMES(kind, type, table, cmp)                                                \
	const char *referee_##kind##_name(type v)                                    \
	{                                                                            \
		return (unsigned)v < sizeof table / sizeof *table ? table[v] : "";   \
	}                                                                            \
	int referee_##kind##_parse(const char *s, type *out)                         \
	{                                                                            \
		int i = find(s, table, (int)(sizeof table / sizeof *table), cmp);    \
		if (i < 0)                                                           \
			return -1;                                                   \
		*out = (type)i;                                                      \
		return 0;                                                            \
	}

NAMES(phase, enum game_phase, phase_names, strcmp)
/* a reason as a director types it, any case, as results are read (ruleset_result_normalise) */
NAMES(reason, enum end_reason, reason_names, strcasecmp)
NAMES(offence, enum offence, offence_names, strcmp)

/* ---- results and reasons ---- */

/* What a result text says about how the game ended: the kinds referee_reason_fits pairs with
 * reasons. */
enum result_kind { KIND_NONE = -1, KIND_R, KIND_T, KIND_F, KIND_COUNT, KIND_VOID };

static enum result_kind result_kind(const struct ruleset *rs, const char *result)
{
	struct ruleset_result x;
	if (!rs || !result || rs->result_parse(result, &x) < 0)
		return KIND_NONE;
	if (x.decided_by)
		return x.how == RULESET_WIN_RESIGNATION ? KIND_R : x.how == RULESET_WIN_TIME ? KIND_T
											    : KIND_F;
	if (x.counted || x.draw || x.winner != EMPTY) /* "B+3.5", "0", "B+" (no margin given) */
		return KIND_COUNT;
	return KIND_VOID;
}

/* The kind of result each reason goes with (KIND_NONE: any, a director's decision; the
 * challenge's own endings, declined and expired, have none). */
static int reason_kind(enum end_reason why)
{
	switch (why) {
	case END_RESIGNATION: return KIND_R;
	case END_TIME: return KIND_T;
	case END_WARNINGS:
	case END_ILLEGAL:
	case END_LATENESS: return KIND_F;
	case END_SCORE: return KIND_COUNT;
	case END_DOUBLE_FORFEIT:
	case END_CYCLE: return KIND_VOID;
	case END_ADJUDICATED: return KIND_NONE;
	default: return -2;
	}
}

int referee_reason_fits(const struct ruleset *rs, const char *result, enum end_reason why)
{
	enum result_kind k = result_kind(rs, result);
	int want = reason_kind(why);
	return k != KIND_NONE && want != -2 && (want == KIND_NONE || want == (int)k) ? 0 : -1;
}

const char *referee_reason_results(enum end_reason why)
{
	switch (reason_kind(why)) {
	case KIND_R: return "B+R or W+R";
	case KIND_T: return "B+T or W+T";
	case KIND_F: return "B+F or W+F";
	case KIND_COUNT: return "a counted result (W+3.5, B+12, 0)";
	case KIND_VOID: return "Void";
	case KIND_NONE: return "any result";
	default: return "no result";
	}
}

const char *referee_result_reasons(const struct ruleset *rs, const char *result)
{
	switch (result_kind(rs, result)) {
	case KIND_R: return "resignation or adjudicated";
	case KIND_T: return "time or adjudicated";
	case KIND_F: return "warnings, illegal, lateness or adjudicated";
	case KIND_COUNT: return "score or adjudicated";
	case KIND_VOID: return "double_forfeit, cycle or adjudicated";
	default: return "none";
	}
}
