/* pairing: the draw of a tournament round (see pairing.h). */
#include "pairing.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "rating.h"

/* ---- weights of a Swiss/McMahon pair (see pairing.h for the order of the terms) ----
 * Bit budget, for at most PAIRING_MAX_PAIRS = 2^11 pairs in a round (the bye's dummy
 * vertex included: an odd field has at most EVENT_MAX_PLAYERS - 1 players):
 *   colour w5 in 0..3, seeding (with colour's share) w4 in 0..964: lower4 = w4 * 4 + w5 <
 *   2^12;
 *   float w3 in 0..15: lower3 = w3 * 2^12 + lower4 < 2^16 (w3 outweighs a pair's lower4);
 *   spread wS in 0..3969 at 2^16 (several small differences before one large one, up to 63
 *   half wins: McMahon score gaps are large; per pair above the lower terms): < 2^28;
 *   score difference wP in 0..127 at 2^39 >= 2^11 * 2^28 (the round's total |difference|
 *   comes before everything below it);
 *   the top (no-rematch) term at 2^57 >= 2^11 * 2^46; total < 2^58 = MATCH_WEIGHT_MAX. */
#define SCORE_DIFF_CAP 127              /* half wins; beyond, all differences are alike */
#define SPREAD_CAP 63                   /* half wins, for the spread (squared) term */
#define SEED_DEV_CAP 30                 /* places of deviation from the ideal opponent */
#define WS_MAX (SPREAD_CAP * SPREAD_CAP)
#define W3_MAX 15
#define W4_MAX (SEED_DEV_CAP * SEED_DEV_CAP)
#define W5_MAX 3
/* Colour also weighs inside the seeding term, as a seeding deviation of 2, 4 or 8 places
 * (cost 4, 16, 64) for a conflict of strength 1, 2 or 3: a small seeding deviation gives way
 * to keep colours even (as OpenGotha weighs them), a large one does not. */
static const int COLOUR_SEED_COST[W5_MAX + 1] = { 0, 4, 16, 64 };
#define W4_RANGE (W4_MAX + 64)          /* seeding + colour: < 2^10 */
#define SHIFT4 2
#define SHIFT3 12
#define SHIFT_SPREAD 16
#define SHIFT2 39
#define SHIFT_TOP 57
#define FLOAT_COST_LAST 6               /* floating the same way as last round */
#define FLOAT_COST_PREV 1               /* ... as the round before */
#define RANDOM_SEED_COST_MAX W4_MAX     /* random seeding: cost drawn in 0..this-1 (below a
					 * pair that does not split the group) */
/* The budget above, checked when compiling. */
_Static_assert(W4_RANGE < (1 << (SHIFT3 - SHIFT4)), "seeding + colour overflow their bits");
_Static_assert(RANDOM_SEED_COST_MAX <= W4_MAX, "a random draw beyond the seeding term");
_Static_assert(((int64_t)W3_MAX << SHIFT3) + ((int64_t)W4_RANGE << SHIFT4) + W5_MAX <
	       (INT64_C(1) << SHIFT_SPREAD), "floats overflow into the spread term");
_Static_assert(((int64_t)(WS_MAX + 1) << SHIFT_SPREAD) <= (INT64_C(1) << (SHIFT2 - 11)),
	       "the round's lower terms can outweigh one half win of score difference");
_Static_assert(((int64_t)(SCORE_DIFF_CAP + 1) << SHIFT2) <= (INT64_C(1) << (SHIFT_TOP - 11)),
	       "the round's score terms can outweigh the no-rematch term");

/* Candidate pairs: each player's WINDOW_START nearest allowed opponents above and below in
 * the placing order, around the ideal opponent, and around the same relative place in the
 * ADJACENT_GROUPS nearest score groups either way; the window grows by WINDOW_GROWTH while
 * no full pairing is found, up to every pair of the field. Fields of up to FULL_GRAPH_MAX
 * players use every pair. A windowed solution is checked against every pair of the field
 * by its dual certificate (match_dual_slack): pairs that would improve it are added and the
 * graph solved again, up to VERIFY_PASSES times; then, if still not proven, every pair is
 * used. So every round is the optimum over the whole field. */
#define WINDOW_START 48
#define WINDOW_GROWTH 4
#define ADJACENT_GROUPS 2
#define FULL_GRAPH_MAX 97
#define VERIFY_PASSES 8

/* Completability (docs/pairing.md: never a rematch while the event can still be completed
 * without one): after a round is matched, the rounds left must still be pairable without
 * a rematch. Proven at once when every player has enough unmet opponents (Dirac's bound,
 * below); otherwise searched for, in at most COMPLETE_BUDGET steps (a search that runs out
 * accepts the round). Where it fails, the next-best pairings of the round are tried in
 * order of weight (Murty's ranking), at most KBEST_SOLUTIONS of them, KBEST_SOLVES
 * matchings in all; if none leaves the event completable, the best one is kept. */
#define COMPLETE_BUDGET 200000L
#define KBEST_SOLUTIONS 256
#define KBEST_SOLVES 4096

/* Score units: half wins (a win 2, a draw 1); Swiss game points are already in them, MMS
 * is kept doubled. */
#define UNITS_WIN 2
#define UNITS_DRAW 1
#define BYE_POINTS_MAX 2

/* The two passes of the matching: rematches as excluded edges, then let in (the fewest). */
enum mode { MODE_STRICT = 0, MODE_REMATCH_SOFT, MODE_COUNT };

/* ------------------------------------------------------------------------------------- */

/* History of the rounds before the one being paired. */
struct hist {
	int n;
	int *score;        /* units (see above) */
	int *wb;           /* colour balance: Whites - Blacks in played even games */
	signed char *last; /* colour of the last played even game: +1 White, -1 Black, 0 none */
	int *nbyes;
	signed char *fl1;  /* float last round: +1 up, -1 down, 0 none */
	signed char *fl2;  /* the round before */
	uint8_t *met;      /* n*n bits: met[i][j] */
};

static bool in_event(const struct event_player *p, int t)
{
	return !p->withdrawn_before_start && (p->withdrawn_after == 0 || p->withdrawn_after >= t);
}

static bool met(const struct hist *h, int a, int b)
{
	size_t k = (size_t)a * (size_t)h->n + (size_t)b;
	return (h->met[k >> 3] >> (k & 7)) & 1;
}

static void set_met(struct hist *h, int a, int b)
{
	size_t k = (size_t)a * (size_t)h->n + (size_t)b;
	h->met[k >> 3] |= (uint8_t)(1u << (k & 7));
	k = (size_t)b * (size_t)h->n + (size_t)a;
	h->met[k >> 3] |= (uint8_t)(1u << (k & 7));
}

static void hist_free(struct hist *h)
{
	free(h->score);
	free(h->wb);
	free(h->last);
	free(h->nbyes);
	free(h->fl1);
	free(h->fl2);
	free(h->met);
	memset(h, 0, sizeof *h);
}

static bool played(enum event_result r)
{
	return r == RESULT_BLACK_WIN || r == RESULT_WHITE_WIN || r == RESULT_DRAW;
}

static int half_units(double x)
{
	return (int)lround(2.0 * x);
}

/* Check the event (everything pairing_round reads) and the round. */
static int check_event(const struct event *ev, int round)
{
	if (!ev || round < 1 || round > EVENT_MAX_ROUNDS)
		return PAIRING_EINVAL;
	if (ev->nplayers < 0 || ev->nplayers > EVENT_MAX_PLAYERS || (ev->nplayers > 0 && !ev->players))
		return PAIRING_EINVAL;
	if (ev->ngames < 0 || (ev->ngames > 0 && !ev->games) || ev->nbyes < 0 ||
	    (ev->nbyes > 0 && !ev->byes))
		return PAIRING_EINVAL;
	if ((unsigned)ev->system > SYSTEM_KNOCKOUT || (unsigned)ev->seeding > SEEDING_SPLIT_RANDOM)
		return PAIRING_EINVAL;
	if (ev->rounds_planned < 0 || ev->rounds_planned > EVENT_MAX_ROUNDS)
		return PAIRING_EINVAL;
	if (ev->bye_points < 0 || ev->bye_points > BYE_POINTS_MAX)
		return PAIRING_EINVAL;
	for (int i = 0; i < ev->nplayers; i++)
		if (ev->players[i].withdrawn_after < 0 || ev->players[i].withdrawn_after > EVENT_MAX_ROUNDS)
			return PAIRING_EINVAL;
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round < 1 || x->round > EVENT_MAX_ROUNDS || x->black < 0 ||
		    x->black >= ev->nplayers || x->white < 0 || x->white >= ev->nplayers ||
		    x->black == x->white || (unsigned)x->result > RESULT_VOID)
			return PAIRING_EINVAL;
	}
	for (int b = 0; b < ev->nbyes; b++)
		if (ev->byes[b].round < 1 || ev->byes[b].round > EVENT_MAX_ROUNDS ||
		    ev->byes[b].player < 0 || ev->byes[b].player >= ev->nplayers)
			return PAIRING_EINVAL;
	if (ev->system == SYSTEM_MCMAHON) {
		int dummy;
		if (pairing_mms_start(0, ev->mcmahon_bar, ev->mcmahon_floor, &dummy))
			return PAIRING_EINVAL;
		if (!isfinite(ev->mms_bye) || ev->mms_bye < 0 || ev->mms_bye > PAIRING_MMS_ADD_MAX ||
		    !isfinite(ev->mms_absent) || ev->mms_absent < 0 ||
		    ev->mms_absent > PAIRING_MMS_ADD_MAX)
			return PAIRING_EINVAL;
		if (ev->handicap && (ev->handicap_max < 0 || ev->handicap_max > PAIRING_HANDICAP_CAP))
			return PAIRING_EINVAL;
	}
	return PAIRING_OK;
}

/* Scores, colours, byes, floats and meetings from the rounds before `round`. */
static int hist_build(const struct event *ev, int round, struct hist *h)
{
	int n = ev->nplayers, ret = PAIRING_ENOMEM;
	size_t n1 = (size_t)(n > 0 ? n : 1);
	bool mm = ev->system == SYSTEM_MCMAHON;
	int *seen = NULL, *rstart = NULL, *ridx = NULL;
	memset(h, 0, sizeof *h);
	h->n = n;
	h->score = calloc(n1, sizeof(int));
	h->wb = calloc(n1, sizeof(int));
	h->last = calloc(n1, 1);
	h->nbyes = calloc(n1, sizeof(int));
	h->fl1 = calloc(n1, 1);
	h->fl2 = calloc(n1, 1);
	h->met = calloc(((size_t)n * (size_t)n + 7) / 8 + 1, 1);
	seen = malloc(n1 * sizeof(int));
	rstart = calloc((size_t)round + 1, sizeof(int));
	ridx = malloc((size_t)(ev->ngames > 0 ? ev->ngames : 1) * sizeof(int));
	if (!h->score || !h->wb || !h->last || !h->nbyes || !h->fl1 || !h->fl2 || !h->met || !seen ||
	    !rstart || !ridx)
		goto out;
	/* games of rounds 1..round-1 bucketed by round, in array order */
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round >= round)
			continue;
		if (x->result == RESULT_NONE) {
			ret = PAIRING_EPENDING;
			goto out;
		}
		rstart[x->round]++;
	}
	for (int t = 1; t <= round; t++)
		rstart[t] += rstart[t - 1];
	/* rstart[t] is now the end of round t; fill backwards to keep array order */
	for (int g = ev->ngames - 1; g >= 0; g--)
		if (ev->games[g].round < round)
			ridx[--rstart[ev->games[g].round]] = g;
	/* rstart[t] is the start of round t; round t ends at rstart[t + 1] (rstart[round] is
	 * the total) */
	if (mm)
		for (int i = 0; i < n; i++) {
			int s = 0;
			pairing_mms_start(ev->players[i].rank, ev->mcmahon_bar, ev->mcmahon_floor, &s);
			h->score[i] = UNITS_WIN * s;
		}
	for (int i = 0; i < n; i++)
		seen[i] = 0;
	for (int t = 1; t < round; t++) {
		int end = t + 1 < round ? rstart[t + 1] : rstart[round];
		signed char *f = h->fl2;
		h->fl2 = h->fl1;
		h->fl1 = f;
		memset(h->fl1, 0, n1);
		for (int q = rstart[t]; q < end; q++) {
			const struct event_game *x = &ev->games[ridx[q]];
			int sb = h->score[x->black], sw = h->score[x->white];
			if (sb > sw) {
				h->fl1[x->black] = -1;
				h->fl1[x->white] = 1;
			} else if (sw > sb) {
				h->fl1[x->white] = -1;
				h->fl1[x->black] = 1;
			}
		}
		for (int q = rstart[t]; q < end; q++) {
			const struct event_game *x = &ev->games[ridx[q]];
			switch (x->result) {
			case RESULT_BLACK_WIN:
			case RESULT_BLACK_FORFEIT_WIN:
				h->score[x->black] += UNITS_WIN;
				break;
			case RESULT_WHITE_WIN:
			case RESULT_WHITE_FORFEIT_WIN:
				h->score[x->white] += UNITS_WIN;
				break;
			case RESULT_DRAW:
				h->score[x->black] += UNITS_DRAW;
				h->score[x->white] += UNITS_DRAW;
				break;
			default:
				break;
			}
			/* handicap games do not count in colour balance (docs/pairing.md, OpenGotha) */
			if (played(x->result) && x->handicap == 0) {
				h->wb[x->white]++;
				h->wb[x->black]--;
				h->last[x->white] = 1;
				h->last[x->black] = -1;
			}
			set_met(h, x->black, x->white);
			seen[x->black] = t;
			seen[x->white] = t;
		}
		for (int b = 0; b < ev->nbyes; b++) {
			if (ev->byes[b].round != t)
				continue;
			int p = ev->byes[b].player;
			h->score[p] += mm ? half_units(ev->mms_bye) : ev->bye_points;
			h->nbyes[p]++;
			seen[p] = t;
		}
		if (mm)
			for (int i = 0; i < n; i++)
				if (seen[i] != t && in_event(&ev->players[i], t))
					h->score[i] += half_units(ev->mms_absent);
	}
	ret = PAIRING_OK;
out:
	free(seen);
	free(rstart);
	free(ridx);
	if (ret)
		hist_free(h);
	return ret;
}

/* ---- public helpers ---- */

int pairing_mms_start(int rank, int bar, int floor, int *mms)
{
	if (!mms || bar < floor || bar < RANK_MIN || bar > RANK_MAX || floor < RANK_MIN ||
	    floor > RANK_MAX)
		return PAIRING_EINVAL;
	int r = rank < floor ? floor : rank > bar ? bar : rank;
	*mms = r - floor;
	return PAIRING_OK;
}

int pairing_handicap(int difference, int weaker_rank, int correction, int max_stones,
		int none_above)
{
	if (max_stones < 0 || max_stones > PAIRING_HANDICAP_CAP)
		return PAIRING_EINVAL;
	if (weaker_rank > none_above)
		return 0;
	long h = (long)difference - (long)correction;
	if (h < 0)
		return 0;
	return h > max_stones ? max_stones : (int)h;
}

int pairing_berger_rounds(int n)
{
	if (n < 2 || n > EVENT_MAX_PLAYERS)
		return PAIRING_EINVAL;
	return n % 2 ? n : n - 1;
}

int pairing_berger(int n, int round, int boards[][2])
{
	int rounds = pairing_berger_rounds(n);
	if (rounds < 0 || round < 1 || round > rounds || !boards)
		return PAIRING_EINVAL;
	int N = n % 2 ? n + 1 : n, half = N / 2;
	/* Round 1: i v N+1-i (i White). Each next round adds N/2 to every number but N
	 * (mod N-1, in 1..N-1), and N changes side on board 1 (FIDE C.05 Annex 1). */
	long shift = (long)(round - 1) * half % (N - 1);
	for (int b = 0; b < half; b++) {
		int l = b + 1, r = N - b;
		int L = (int)((l - 1 + shift) % (N - 1)) + 1;
		int R = r == N ? N : (int)((r - 1 + shift) % (N - 1)) + 1;
		if (b == 0 && round % 2 == 0) {
			boards[b][0] = N;
			boards[b][1] = L;
		} else {
			boards[b][0] = L;
			boards[b][1] = R;
		}
	}
	return half;
}

int pairing_double_rr_round(int n, int round, int *berger_round, bool *reversed)
{
	int c = pairing_berger_rounds(n);
	if (c < 0 || round < 1 || round > 2 * c || !berger_round || !reversed)
		return PAIRING_EINVAL;
	if (round > c) {
		*berger_round = round - c;
		*reversed = true;
		return PAIRING_OK;
	}
	int r = round;
	if (c >= 3 && r == c - 1)
		r = c;
	else if (c >= 3 && r == c)
		r = c - 1;
	*berger_round = r;
	*reversed = false;
	return PAIRING_OK;
}

int pairing_bracket_order(int size, int *order)
{
	if (!order || size < 1 || size > EVENT_MAX_PLAYERS || (size & (size - 1)))
		return PAIRING_EINVAL;
	order[0] = 1;
	for (int len = 1; len < size; len *= 2) {
		/* each seed s is followed by its first-round opponent 2*len+1-s */
		for (int i = len - 1; i >= 0; i--) {
			int s = order[i];
			order[2 * i] = s;
			order[2 * i + 1] = 2 * len + 1 - s;
		}
	}
	return PAIRING_OK;
}

/* ---- common pieces of the draw ---- */

/* Is player a before player b in seed order? */
static bool seed_before(const struct event *ev, int a, int b)
{
	int sa = ev->players[a].seed, sb = ev->players[b].seed;
	return sa != sb ? sa < sb : a < b;
}

/* A player's due colour (docs/pairing.md): +1 White, -1 Black, 0 none, and the strength of the
 * claim in *strength: 3 at a balance of +-2 or more, 2 at +-1, 1 when the balance is even
 * and the last even game was of the other colour (alternation), 0 with no history. Handicap
 * games are not counted (hist_build leaves them out). */
static int due_colour(const struct hist *h, int p, int *strength)
{
	int wb = h->wb[p];
	if (wb != 0) {
		*strength = wb >= 2 || wb <= -2 ? 3 : 2;
		return wb > 0 ? -1 : 1;
	}
	*strength = h->last[p] != 0;
	return -h->last[p];
}

/* Colours of an even game on board `board` (0 = the top board; docs/pairing.md): each player
 * gets the due colour where the dues differ; where both are due the same colour, the
 * stronger claim gets it (the larger imbalance, then a balance over an alternation), equal
 * claims: the better seed; a player with no due colour takes what the other is not due;
 * neither has a due colour (no history, e.g. round 1): the better seed takes White on the
 * top board and the boards alternate (White, Black, White, ...), so that round 2's score
 * groups hold as many players due White as due Black. */
static void give_colours(const struct event *ev, const struct hist *h, int a, int b, int board,
		struct pairing_pair *p)
{
	int sa, sb;
	int da = due_colour(h, a, &sa), db = due_colour(h, b, &sb);
	int white;
	if (da != 0 && db != 0 && da != db)
		white = da > 0 ? a : b;
	else if (da != 0 && db == 0)
		white = da > 0 ? a : b;
	else if (da == 0 && db != 0)
		white = db > 0 ? b : a;
	else if (da != 0) {
		/* the same due colour: the stronger claim, then the better seed, gets it */
		int ia = abs(h->wb[a]), ib = abs(h->wb[b]);
		int winner = ia != ib ? (ia > ib ? a : b) : sa != sb ? (sa > sb ? a : b)
							   : (seed_before(ev, a, b) ? a : b);
		int loser = winner == a ? b : a;
		white = da > 0 ? winner : loser;
	} else {
		bool better_white = board % 2 == 0;
		white = seed_before(ev, a, b) == better_white ? a : b;
	}
	p->white = white;
	p->black = white == a ? b : a;
	p->handicap = 0;
	p->handicap_wanted = 0;
	p->black_absent = p->white_absent = false;
	p->bracket = PAIRING_BRACKET_MAIN;
}

static int players_by_seed(const struct event *ev, int **list_out, int *count)
{
	int n = ev->nplayers, k = 0;
	int *l = malloc((size_t)(n > 0 ? n : 1) * sizeof *l);
	if (!l)
		return PAIRING_ENOMEM;
	for (int i = 0; i < n; i++)
		if (!ev->players[i].withdrawn_before_start)
			l[k++] = i;
	/* stable merge sort on (seed, index) */
	int *tmp = malloc((size_t)(k > 0 ? k : 1) * sizeof *tmp);
	if (!tmp) {
		free(l);
		return PAIRING_ENOMEM;
	}
	for (int w = 1; w < k; w *= 2) {
		for (int lo = 0; lo < k; lo += 2 * w) {
			int mid = lo + w < k ? lo + w : k, hi = lo + 2 * w < k ? lo + 2 * w : k;
			int i = lo, j = mid, o = lo;
			while (i < mid && j < hi)
				tmp[o++] = seed_before(ev, l[j], l[i]) ? l[j++] : l[i++];
			while (i < mid)
				tmp[o++] = l[i++];
			while (j < hi)
				tmp[o++] = l[j++];
		}
		memcpy(l, tmp, (size_t)k * sizeof *l);
	}
	free(tmp);
	*list_out = l;
	*count = k;
	return PAIRING_OK;
}

/* ---- round robin ---- */

static int pair_round_robin(const struct event *ev, int round, struct pairing_out *out)
{
	int *pl = NULL, k = 0;
	int ret = players_by_seed(ev, &pl, &k);
	if (ret)
		return ret;
	int (*boards)[2] = NULL;
	if (k < 2) {
		ret = k == 0 ? PAIRING_EINVAL : PAIRING_EOVER;
		goto out;
	}
	int c = pairing_berger_rounds(k);
	bool dbl = ev->system == SYSTEM_DOUBLE_ROUND_ROBIN, rev = false;
	int br = round;
	if (round > (dbl ? 2 * c : c)) {
		ret = PAIRING_EOVER;
		goto out;
	}
	if (dbl)
		pairing_double_rr_round(k, round, &br, &rev);
	boards = malloc((size_t)(k / 2 + 1) * sizeof *boards);
	if (!boards) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	int nb = pairing_berger(k, br, boards);
	for (int b = 0; b < nb; b++) {
		int w = boards[b][0], bl = boards[b][1];
		if (rev) {
			int t = w;
			w = bl;
			bl = t;
		}
		if (w > k || bl > k) {
			out->byes[out->nbyes++] = pl[(w > k ? bl : w) - 1];
			continue;
		}
		struct pairing_pair *p = &out->pairs[out->npairs++];
		p->white = pl[w - 1];
		p->black = pl[bl - 1];
		p->handicap = 0;
		p->bracket = PAIRING_BRACKET_MAIN;
		p->white_absent = !in_event(&ev->players[p->white], round);
		p->black_absent = !in_event(&ev->players[p->black], round);
	}
	ret = PAIRING_OK;
out:
	free(boards);
	free(pl);
	return ret;
}

/* ---- knockout ---- */

/* The decisive result of a and b's game in round t: *winner (or -1 for a double loss).
 * PAIRING_EHISTORY if they have no game in that round, PAIRING_EPENDING if no game of
 * theirs is decided. The last decided game counts (a replay follows a draw or void). */
static int ko_result(const struct event *ev, int t, int a, int b, int *winner)
{
	bool found = false, decided = false;
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round != t || !((x->black == a && x->white == b) || (x->black == b && x->white == a)))
			continue;
		found = true;
		switch (x->result) {
		case RESULT_BLACK_WIN:
		case RESULT_BLACK_FORFEIT_WIN:
			*winner = x->black;
			decided = true;
			break;
		case RESULT_WHITE_WIN:
		case RESULT_WHITE_FORFEIT_WIN:
			*winner = x->white;
			decided = true;
			break;
		case RESULT_DOUBLE_LOSS:
			*winner = -1;
			decided = true;
			break;
		default:
			break;
		}
	}
	if (!found)
		return PAIRING_EHISTORY;
	return decided ? PAIRING_OK : PAIRING_EPENDING;
}

/* Settle an earlier round's game between a and b: a missing game with a withdrawn player
 * is a forfeit to the other. */
static int ko_settle(const struct event *ev, int t, int a, int b, int *winner)
{
	int r = ko_result(ev, t, a, b, winner);
	if (r == PAIRING_EHISTORY) {
		bool ia = in_event(&ev->players[a], t), ib = in_event(&ev->players[b], t);
		if (ia != ib) {
			*winner = ia ? a : b;
			return PAIRING_OK;
		}
		if (!ia && !ib) {
			*winner = -1;
			return PAIRING_OK;
		}
	}
	return r;
}

static void ko_emit(const struct event *ev, const struct hist *h, int round, int a, int b,
		enum pairing_bracket br, struct pairing_out *out)
{
	struct pairing_pair *p = &out->pairs[out->npairs++];
	give_colours(ev, h, a, b, 0, p); /* knockout: no history, the better seed White */
	p->bracket = br;
	p->white_absent = !in_event(&ev->players[p->white], round);
	p->black_absent = !in_event(&ev->players[p->black], round);
}

static int pair_knockout(const struct event *ev, int round, const struct hist *h,
		struct pairing_out *out)
{
	int *pl = NULL, k = 0;
	int ret = players_by_seed(ev, &pl, &k);
	if (ret)
		return ret;
	int n = ev->nplayers;
	size_t n1 = (size_t)(n > 0 ? n : 1);
	int *order = NULL, *wbl = NULL, *losses = NULL, *kbyes = NULL, *lb = NULL, *tmp = NULL;
	if (k == 0) {
		ret = PAIRING_EINVAL;
		goto out;
	}
	int P = 1;
	while (P < k)
		P *= 2;
	order = malloc((size_t)P * sizeof *order);
	wbl = malloc((size_t)P * sizeof *wbl);
	losses = calloc(n1, sizeof *losses);
	kbyes = calloc(n1, sizeof *kbyes);
	lb = malloc(n1 * sizeof *lb);
	tmp = malloc(n1 * sizeof *tmp);
	if (!order || !wbl || !losses || !kbyes || !lb || !tmp) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	pairing_bracket_order(P, order);
	for (int i = 0; i < P; i++)
		wbl[i] = order[i] <= k ? pl[order[i] - 1] : -1;
	int wlen = P; /* winners' bracket places */
	bool dbl = ev->double_elimination;
	/* replay rounds 1..round-1 from their results; draw round `round` */
	for (int t = 1; t <= round; t++) {
		bool emit = t == round;
		int wbn = 0, wb1 = -1, lbn = 0;
		for (int i = 0; i < wlen; i++)
			if (wbl[i] >= 0) {
				wbn++;
				wb1 = wbl[i];
			}
		if (dbl) {
			/* one-loss players in seed order */
			for (int i = 0; i < k; i++)
				if (losses[pl[i]] == 1)
					lb[lbn++] = pl[i];
		}
		if (wbn + lbn <= 1) {
			ret = PAIRING_EOVER;
			goto out;
		}
		if (dbl && ((wbn == 1 && lbn == 1) || (wbn == 0 && lbn == 2))) {
			/* the grand final, or its replay */
			int a = wbn == 1 ? wb1 : lb[0], b = wbn == 1 ? lb[0] : lb[1];
			if (emit) {
				ko_emit(ev, h, round, a, b, PAIRING_BRACKET_FINAL, out);
				ret = PAIRING_OK;
				goto out;
			}
			int w;
			if ((ret = ko_settle(ev, t, a, b, &w)))
				goto out;
			if (w != a)
				losses[a]++;
			if (w != b)
				losses[b]++;
			if (wbn == 1 && w != a)
				for (int i = 0; i < wlen; i++)
					wbl[i] = -1;
			continue;
		}
		/* winners' bracket (single elimination: the only one) */
		if (wbn >= 2) {
			for (int i = 0; i < wlen / 2; i++) {
				int a = wbl[2 * i], b = wbl[2 * i + 1], w;
				if (a >= 0 && b >= 0) {
					if (emit) {
						ko_emit(ev, h, round, a, b, PAIRING_BRACKET_MAIN, out);
						continue;
					}
					if ((ret = ko_settle(ev, t, a, b, &w)))
						goto out;
					if (w != a)
						losses[a]++;
					if (w != b)
						losses[b]++;
				} else {
					w = a >= 0 ? a : b;
					if (emit && w >= 0)
						out->byes[out->nbyes++] = w;
				}
				if (!emit)
					wbl[i] = w;
			}
			if (!emit)
				wlen /= 2;
		} else if (wbn == 1 && emit) {
			out->byes[out->nbyes++] = wb1; /* waits for the losers' bracket */
		}
		/* losers' bracket */
		if (dbl && lbn >= 2) {
			int np = lbn / 2, bye = -1;
			if (lbn % 2) {
				for (int i = 0; i < lbn; i++)
					if (bye < 0 || kbyes[lb[i]] < kbyes[bye])
						bye = lb[i];
				if (emit)
					out->byes[out->nbyes++] = bye;
				else
					kbyes[bye]++;
				int m = 0;
				for (int i = 0; i < lbn; i++)
					if (lb[i] != bye)
						tmp[m++] = lb[i];
				memcpy(lb, tmp, (size_t)m * sizeof *lb);
			}
			for (int i = 0; i < np; i++) {
				int a = lb[i], b = lb[2 * np - 1 - i], w;
				if (emit) {
					ko_emit(ev, h, round, a, b, PAIRING_BRACKET_LOSERS, out);
					continue;
				}
				if ((ret = ko_settle(ev, t, a, b, &w)))
					goto out;
				if (w != a)
					losses[a]++;
				if (w != b)
					losses[b]++;
			}
		} else if (dbl && lbn == 1 && emit) {
			out->byes[out->nbyes++] = lb[0];
		}
		if (emit) {
			ret = PAIRING_OK;
			goto out;
		}
	}
	ret = PAIRING_EOVER;
out:
	free(pl);
	free(order);
	free(wbl);
	free(losses);
	free(kbyes);
	free(lb);
	free(tmp);
	return ret;
}

/* ---- Swiss and McMahon ---- */

struct sw {
	const struct event *ev;
	const struct hist *h;
	int round;
	int nf;        /* players in the field */
	int nv;        /* matching vertices: the field, plus the bye's dummy for an odd field */
	int dummy;     /* the dummy vertex (nf) of an odd field, else -1 */
	int *pl;       /* the field in placing order */
	int *gstart;   /* per place: the first place of its score group */
	int *gsize;    /* per place: the size of its score group */
	int min_byes;  /* the fewest byes of anyone in the field: only they may get this one */
	int score_min; /* the lowest score of the field: the dummy's score */
	bool hcap;
};

static uint64_t mix64(uint64_t x)
{
	/* splitmix64 finaliser */
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Handicap stones of the pair a, b at most `cap`; cap < 0: not capped at all (what the rank
 * or MMS difference asks for, beyond what any board holds: handicap_wanted). */
static int pair_stones_capped(const struct sw *c, int a, int b, int cap)
{
	const struct event *ev = c->ev;
	if (!c->hcap)
		return 0;
	int diff, weaker;
	if (ev->handicap_by_mms) {
		int sa = c->h->score[a], sb = c->h->score[b];
		diff = abs(sa - sb) / UNITS_WIN;
		weaker = sa < sb ? a : sb < sa ? b : -1;
	} else {
		int ra = ev->players[a].rank, rb = ev->players[b].rank;
		diff = abs(ra - rb);
		weaker = ra < rb ? a : rb < ra ? b : -1;
	}
	if (weaker < 0)
		return 0;
	if (cap < 0) /* as pairing_handicap, without its cap */
		return ev->players[weaker].rank > ev->handicap_none_above ||
		       diff <= ev->handicap_correction ? 0 : diff - ev->handicap_correction;
	int s = pairing_handicap(diff, ev->players[weaker].rank, ev->handicap_correction,
			cap, ev->handicap_none_above);
	return s > 0 ? s : 0;
}

/* Handicap stones of the pair a, b, capped at event.handicap_max. */
static int pair_stones(const struct sw *c, int a, int b)
{
	return pair_stones_capped(c, a, b, c->ev->handicap_max);
}

static int cap_sq(int d, int cap)
{
	if (d < 0)
		d = -d;
	if (d > cap)
		d = cap;
	return d * d;
}

/* The terms of a pair's weight, as costs (0 best): see pairing.h for their order. */
struct terms {
	bool rematch;
	int d;        /* score difference, half wins */
	int c3;       /* floats */
	int c4;       /* seeding */
	int c5;       /* colour */
};

/* Terms of the bye: the dummy v the place i (the dummy sits at the field's lowest score
 * and below its last place, so the bye goes to the lowest-placed player unless that costs
 * a rematch or a worse score difference elsewhere). Only players with the fewest byes. */
static bool bye_terms(const struct sw *c, int i, struct terms *t)
{
	const struct hist *h = c->h;
	int a = c->pl[i];
	if (h->nbyes[a] != c->min_byes)
		return false;
	*t = (struct terms){ .d = abs(h->score[a] - c->score_min),
			     .c4 = cap_sq(c->nf - 1 - i, SEED_DEV_CAP) };
	return true;
}

/* Terms of the pair of vertices i < j; false if the pair cannot be made at all. */
static bool pair_terms(const struct sw *c, int i, int j, struct terms *t)
{
	if (j == c->dummy)
		return bye_terms(c, i, t);
	const struct hist *h = c->h;
	int a = c->pl[i], b = c->pl[j];
	t->rematch = met(h, a, b);
	/* 1. score difference (a is placed above b: score[a] >= score[b]) */
	t->d = abs(h->score[a] - h->score[b]);
	/* 2. float history */
	t->c3 = 0;
	if (h->score[a] != h->score[b]) {
		int hi = h->score[a] > h->score[b] ? a : b, lo = hi == a ? b : a;
		t->c3 = FLOAT_COST_LAST * ((h->fl1[hi] < 0) + (h->fl1[lo] > 0)) +
			FLOAT_COST_PREV * ((h->fl2[hi] < 0) + (h->fl2[lo] > 0));
	}
	/* 3. seeding */
	int gs = c->gstart[i], g = c->gsize[i];
	if (c->gstart[j] == gs) {
		int gi = i - gs, gj = j - gs;
		if (c->ev->seeding == SEEDING_SPLIT_FOLD) {
			t->c4 = cap_sq(gi + gj - (g - 1), SEED_DEV_CAP);
		} else if (c->ev->seeding == SEEDING_SPLIT_SLIP) {
			t->c4 = cap_sq(gj - gi - g / 2, SEED_DEV_CAP);
		} else {
			bool split = gi < g / 2 && gj >= g / 2;
			uint64_t x = mix64(c->ev->draw_seed ^ mix64((uint64_t)c->round) ^
					   mix64(((uint64_t)(unsigned)a << 32) | (unsigned)b));
			t->c4 = split ? (int)(x % RANDOM_SEED_COST_MAX) : W4_MAX;
		}
	} else {
		/* across groups: the bottom of the upper group v the top of the lower one */
		t->c4 = cap_sq((gs + g - 1 - i) + (j - c->gstart[j]), SEED_DEV_CAP);
	}
	/* 4. colour, soft and last: both due the same colour costs the weaker claim
	 * (due_colour); handicap games have no colour to be due */
	t->c5 = 0;
	if (!(c->hcap && pair_stones(c, a, b) > 0)) {
		int sa, sb;
		int da = due_colour(h, a, &sa), db = due_colour(h, b, &sb);
		if (da != 0 && da == db)
			t->c5 = sa < sb ? sa : sb;
	}
	return true;
}

/* Weight of the pair of vertices i < j in the given mode; false if the pair is left out. */
static bool pair_weight(const struct sw *c, int i, int j, enum mode mode, int64_t *wout)
{
	struct terms t;
	if (!pair_terms(c, i, j, &t) || (mode == MODE_STRICT && t.rematch))
		return false;
	int64_t top = mode == MODE_STRICT ? 0 : !t.rematch;
	int64_t wp = SCORE_DIFF_CAP - (t.d < SCORE_DIFF_CAP ? t.d : SCORE_DIFF_CAP);
	int64_t ws = WS_MAX - cap_sq(t.d, SPREAD_CAP);
	*wout = (top << SHIFT_TOP) + (wp << SHIFT2) + (ws << SHIFT_SPREAD) +
		((int64_t)(W3_MAX - t.c3) << SHIFT3) +
		((int64_t)(W4_RANGE - t.c4 - COLOUR_SEED_COST[t.c5]) << SHIFT4) + (W5_MAX - t.c5);
	return true;
}

struct edges {
	struct match_edge *e;
	size_t m, cap;
};

static int edges_push(struct edges *E, int u, int v, int64_t w)
{
	if (E->m == E->cap) {
		size_t nc = E->cap ? 2 * E->cap : 1024;
		struct match_edge *ne = realloc(E->e, nc * sizeof *ne);
		if (!ne)
			return PAIRING_ENOMEM;
		E->e = ne;
		E->cap = nc;
	}
	E->e[E->m++] = (struct match_edge){ u, v, w };
	return PAIRING_OK;
}

/* The ideal opponent's place of place i under the seeding. */
static int ideal_place(const struct sw *c, int i)
{
	int gs = c->gstart[i], g = c->gsize[i], gi = i - gs;
	if (c->ev->seeding == SEEDING_SPLIT_FOLD)
		return gs + (g - 1 - gi);
	return gi < g / 2 ? i + g / 2 : i - g / 2;
}

static int cmp_edge(const void *x, const void *y)
{
	const struct match_edge *a = x, *b = y;
	if (a->u != b->u)
		return a->u < b->u ? -1 : 1;
	return a->v < b->v ? -1 : a->v > b->v;
}

/* Sort E by (u, v) and drop duplicates, so the graph is the same on every run. */
static void edges_canon(struct edges *E)
{
	qsort(E->e, E->m, sizeof *E->e, cmp_edge);
	size_t m = 0;
	for (size_t k = 0; k < E->m; k++)
		if (m == 0 || E->e[m - 1].u != E->e[k].u || E->e[m - 1].v != E->e[k].v)
			E->e[m++] = E->e[k];
	E->m = m;
}

/* Add the pair of vertices i, j (any order) if allowed in the mode; *added tells. */
static int try_pair(const struct sw *c, int i, int j, enum mode mode, struct edges *E,
		bool *added)
{
	int64_t w;
	int u = i < j ? i : j, v = i < j ? j : i;
	*added = false;
	if (!pair_weight(c, u, v, mode, &w))
		return PAIRING_OK;
	*added = true;
	return edges_push(E, u, v, w);
}

/* Candidate pairs (all pairs when full): for each place, the K nearest allowed opponents
 * above it and below it in the placing order, and the K allowed places nearest its ideal
 * opponent and the same relative place in the nearest groups; every bye pair; sorted by
 * (u, v), no duplicates. */
static int build_edges(const struct sw *c, int K, bool full, enum mode mode, struct edges *E)
{
	int nf = c->nf, nv = c->nv;
	bool added;
	E->m = 0;
	if (full) {
		for (int i = 0; i < nv; i++)
			for (int j = i + 1; j < nv; j++)
				if (try_pair(c, i, j, mode, E, &added))
					return PAIRING_ENOMEM;
		return PAIRING_OK;
	}
	for (int i = 0; i < nf; i++) {
		if (c->dummy >= 0 && try_pair(c, i, c->dummy, mode, E, &added))
			return PAIRING_ENOMEM;
		for (int dir = -1; dir <= 1; dir += 2) {
			int got = 0;
			for (int j = i + dir; j >= 0 && j < nf && got < K; j += dir) {
				if (try_pair(c, i, j, mode, E, &added))
					return PAIRING_ENOMEM;
				got += added;
			}
		}
		/* around the ideal opponent in the group, and around the same relative place in
		 * the nearest groups above and below (floats, spread over the group) */
		int qs[1 + 2 * ADJACENT_GROUPS], nq = 0;
		qs[nq++] = ideal_place(c, i);
		int gs = c->gstart[i], g = c->gsize[i];
		for (int dir = -1; dir <= 1; dir += 2) {
			int at = dir < 0 ? gs - 1 : gs + g; /* a place in the next group that way */
			for (int a = 0; a < ADJACENT_GROUPS && at >= 0 && at < nf; a++) {
				int s2 = c->gstart[at], g2 = c->gsize[at];
				qs[nq++] = s2 + (int)((long)(i - gs) * g2 / g);
				at = dir < 0 ? s2 - 1 : s2 + g2;
			}
		}
		for (int x = 0; x < nq; x++) {
			int q = qs[x], got = 0;
			for (int d = 0; got < K && (q - d >= 0 || q + d < nf); d++) {
				int js[2] = { q + d, q - d };
				for (int y = 0; y < (d ? 2 : 1); y++) {
					int j = js[y];
					if (j < 0 || j >= nf || j == i)
						continue;
					if (try_pair(c, i, j, mode, E, &added))
						return PAIRING_ENOMEM;
					got += added;
				}
			}
		}
	}
	edges_canon(E);
	return PAIRING_OK;
}

static int match_err(int r)
{
	return r == MATCH_ENOMEM ? PAIRING_ENOMEM : r == MATCH_EINVAL ? PAIRING_EINVAL : PAIRING_EMATCH;
}

static bool is_perfect(const int *mate, int nv)
{
	for (int v = 0; v < nv; v++)
		if (mate[v] < 0)
			return false;
	return true;
}

/* Check a windowed solution against every pair of the field: the pairs whose reduced cost
 * under the certificate is negative (they could improve the matching) are added to E.
 * *added counts them: 0 proves the solution optimal over the whole field (LP duality). */
static int verify_full(const struct sw *c, const struct match_dual *d, enum mode mode,
		struct edges *E, size_t *added)
{
	*added = 0;
	for (int i = 0; i < c->nv; i++)
		for (int j = i + 1; j < c->nv; j++) {
			int64_t w, slack;
			if (!pair_weight(c, i, j, mode, &w))
				continue;
			int r = match_dual_slack_bound(d, i, j, w, &slack);
			if (!r && slack < 0)
				r = match_dual_slack(d, i, j, w, &slack);
			if (r)
				return match_err(r);
			if (slack < 0) {
				if (edges_push(E, i, j, w))
					return PAIRING_ENOMEM;
				(*added)++;
			}
		}
	if (*added)
		edges_canon(E);
	return PAIRING_OK;
}

/* The heaviest perfect matching of the whole field in the mode: on the full graph for
 * small fields, else on growing windows, each checked against the full graph (verify_full)
 * and completed by the pairs it finds; E keeps the graph solved. *ok: a perfect matching
 * exists in this mode. */
static int solve_mode(const struct sw *c, enum mode mode, struct edges *E, int *mate, bool *ok)
{
	int nv = c->nv, r;
	*ok = false;
	if (c->nf <= FULL_GRAPH_MAX || c->ev->full_graph) {
		if ((r = build_edges(c, 0, true, mode, E)))
			return r;
		if ((r = match_max_weight(nv, E->e, E->m, MATCH_PERFECT, mate, NULL)))
			return match_err(r);
		*ok = is_perfect(mate, nv);
		return PAIRING_OK;
	}
	for (int K = WINDOW_START;; K *= WINDOW_GROWTH) {
		bool full = 2 * K + 1 >= c->nf;
		if ((r = build_edges(c, K, full, mode, E)))
			return r;
		for (int pass = 0;; pass++) {
			struct match_dual *d = NULL;
			bool last = full || pass == VERIFY_PASSES;
			if ((r = match_max_weight(nv, E->e, E->m, MATCH_PERFECT, mate,
						  last ? NULL : &d)))
				return match_err(r);
			if (!is_perfect(mate, nv)) {
				match_dual_free(d);
				break;
			}
			if (last) {
				*ok = true;
				return PAIRING_OK;
			}
			size_t added;
			r = verify_full(c, d, mode, E, &added);
			match_dual_free(d);
			if (r)
				return r;
			if (!added) {
				*ok = true;
				return PAIRING_OK;
			}
			if (pass + 1 == VERIFY_PASSES) {
				/* not proven after the passes: every pair */
				full = true;
				if ((r = build_edges(c, 0, true, mode, E)))
					return r;
			}
		}
		if (full)
			return PAIRING_OK;
	}
}

/* ---- completability ---- */

/* The graph of the rounds after this one: its players, and the pairs that have not met
 * (this round's pairs count as met); for an odd field a dummy vertex (the bye) joined to
 * the players who have had no bye (to everyone, when fewer of them are left than rounds). */
struct comp {
	int n;
	uint8_t *adj;    /* n * n */
	int *deg;
	int *mate;
	long budget;
	bool exhausted;
};

static int comp_find(struct comp *g, int k);

/* Extend the partial perfect matching g->mate; at a perfect one, take its pairs out and look
 * for the k - 1 after it. */
static int comp_extend(struct comp *g, int k)
{
	if (--g->budget < 0) {
		g->exhausted = true;
		return 0;
	}
	int n = g->n, best = -1, bestc = n + 1;
	for (int v = 0; v < n; v++) {
		if (g->mate[v] >= 0)
			continue;
		int cnt = 0;
		for (int u = 0; u < n; u++)
			cnt += u != v && g->mate[u] < 0 && g->adj[(size_t)v * n + u];
		if (cnt == 0)
			return 0;
		if (cnt < bestc) {
			bestc = cnt;
			best = v;
		}
	}
	if (best < 0) {
		for (int v = 0; v < n; v++)
			if (v < g->mate[v]) {
				g->adj[(size_t)v * n + g->mate[v]] = g->adj[(size_t)g->mate[v] * n + v] = 0;
				g->deg[v]--;
				g->deg[g->mate[v]]--;
			}
		int *saved = malloc((size_t)n * sizeof *saved);
		int ok = 0;
		if (saved) {
			memcpy(saved, g->mate, (size_t)n * sizeof *saved);
			ok = comp_find(g, k - 1);
			memcpy(g->mate, saved, (size_t)n * sizeof *saved);
		} else {
			g->exhausted = true; /* treated as "not proven impossible" */
		}
		free(saved);
		for (int v = 0; v < n; v++)
			if (v < g->mate[v]) {
				g->adj[(size_t)v * n + g->mate[v]] = g->adj[(size_t)g->mate[v] * n + v] = 1;
				g->deg[v]++;
				g->deg[g->mate[v]]++;
			}
		return ok;
	}
	for (int u = 0; u < n && !g->exhausted; u++) {
		if (u == best || g->mate[u] >= 0 || !g->adj[(size_t)best * n + u])
			continue;
		g->mate[best] = u;
		g->mate[u] = best;
		if (comp_extend(g, k))
			return 1;
		g->mate[best] = g->mate[u] = -1;
	}
	return 0;
}

/* Are there k disjoint perfect matchings in g? 1 yes, 0 no (or not found within the
 * budget: g->exhausted). */
static int comp_find(struct comp *g, int k)
{
	if (k <= 0 || g->n == 0)
		return 1;
	int dmin = g->n;
	for (int v = 0; v < g->n; v++)
		if (g->deg[v] < dmin)
			dmin = g->deg[v];
	if (dmin < k)
		return 0;
	/* Dirac: a graph of n >= 3 vertices of minimum degree >= n/2 has a Hamiltonian cycle,
	 * so (n even) a perfect matching; taking one out lowers each degree by exactly 1. */
	if (g->n <= 2 || 2 * (dmin - (k - 1)) >= g->n)
		return 1;
	for (int v = 0; v < g->n; v++)
		g->mate[v] = -1;
	return comp_extend(g, k);
}

/* Does this round's matching (mate over the vertices) leave the rest of the event
 * completable without a rematch? *verdict: 1 yes (or not decided within the budget),
 * 0 no. */
static int completable(const struct sw *c, const int *mate, int *verdict)
{
	const struct event *ev = c->ev;
	const struct hist *h = c->h;
	int left = ev->rounds_planned - c->round;
	*verdict = 1;
	if (ev->rounds_planned <= 0 || left <= 0)
		return PAIRING_OK;
	int *who = malloc((size_t)(c->nf + 1) * sizeof *who); /* vertex -> place */
	struct comp g = { 0 };
	int ret = PAIRING_ENOMEM;
	if (!who)
		goto out;
	int n = 0, nobye = 0;
	for (int i = 0; i < c->nf; i++) {
		int p = c->pl[i];
		const struct event_player *ep = &ev->players[p];
		if (ep->withdrawn_after != 0 && ep->withdrawn_after <= c->round)
			continue;
		who[n++] = i;
		bool bye_now = c->dummy >= 0 && mate[i] == c->dummy;
		nobye += h->nbyes[p] == 0 && !bye_now;
	}
	int players = n;
	if (n % 2)
		n++; /* the dummy: vertex players */
	g.n = n;
	g.adj = calloc((size_t)n * (size_t)n + 1, 1);
	g.deg = calloc((size_t)n + 1, sizeof *g.deg);
	g.mate = malloc(((size_t)n + 1) * sizeof *g.mate);
	if (!g.adj || !g.deg || !g.mate)
		goto out;
	for (int x = 0; x < players; x++)
		for (int y = x + 1; y < players; y++) {
			int i = who[x], j = who[y];
			if (met(h, c->pl[i], c->pl[j]) || mate[i] == j)
				continue;
			g.adj[(size_t)x * n + y] = g.adj[(size_t)y * n + x] = 1;
			g.deg[x]++;
			g.deg[y]++;
		}
	if (players < n) {
		int d = players;
		for (int x = 0; x < players; x++) {
			int i = who[x], p = c->pl[i];
			bool had = h->nbyes[p] > 0 || (c->dummy >= 0 && mate[i] == c->dummy);
			if (had && nobye >= left)
				continue;
			g.adj[(size_t)x * n + d] = g.adj[(size_t)d * n + x] = 1;
			g.deg[x]++;
			g.deg[d]++;
		}
	}
	g.budget = COMPLETE_BUDGET;
	int ok = comp_find(&g, left);
	*verdict = ok || g.exhausted;
	ret = PAIRING_OK;
out:
	free(who);
	free(g.adj);
	free(g.deg);
	free(g.mate);
	return ret;
}

/* ---- the next-best pairings (Murty's ranking of assignments, for matchings) ---- */

struct kb_node {
	int64_t w;       /* the solution's weight */
	int *mate;       /* nv */
	int nin, nout;
	int *in, *out;   /* forced-in and forced-out edges (indices into the graph) */
};

static void kb_free(struct kb_node *x)
{
	free(x->mate);
	free(x->in);
	free(x->out);
	memset(x, 0, sizeof *x);
}

/* Index of the edge u-v (u < v) in the sorted graph E, or -1. */
static long edge_index(const struct edges *E, int u, int v)
{
	size_t lo = 0, hi = E->m;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct match_edge *e = &E->e[mid];
		if (e->u < u || (e->u == u && e->v < v))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < E->m && E->e[lo].u == u && E->e[lo].v == v ? (long)lo : -1;
}

/* Solve the node: the heaviest perfect matching of E with its forced edges in and its
 * excluded edges out. *feasible: one exists. */
static int kb_solve(const struct edges *E, int nv, struct kb_node *x, struct edges *scratch,
		bool *feasible)
{
	uint8_t *mark = calloc(E->m + 1, 1);  /* 1 out, 2 in */
	uint8_t *taken = calloc((size_t)nv + 1, 1);
	int ret = PAIRING_ENOMEM;
	*feasible = false;
	if (!mark || !taken)
		goto out;
	for (int k = 0; k < x->nout; k++)
		mark[x->out[k]] = 1;
	for (int k = 0; k < x->nin; k++) {
		mark[x->in[k]] = 2;
		taken[E->e[x->in[k]].u] = taken[E->e[x->in[k]].v] = 1;
	}
	scratch->m = 0;
	for (size_t k = 0; k < E->m; k++) {
		const struct match_edge *e = &E->e[k];
		if (mark[k] == 1 || (mark[k] != 2 && (taken[e->u] || taken[e->v])))
			continue;
		if (edges_push(scratch, e->u, e->v, e->w))
			goto out;
	}
	int r = match_max_weight(nv, scratch->e, scratch->m, MATCH_PERFECT, x->mate, NULL);
	if (r) {
		ret = match_err(r);
		goto out;
	}
	ret = PAIRING_OK;
	if (!is_perfect(x->mate, nv))
		goto out;
	x->w = 0;
	for (int v = 0; v < nv; v++)
		if (v < x->mate[v]) {
			long k = edge_index(E, v, x->mate[v]);
			if (k < 0) {
				ret = PAIRING_EMATCH;
				goto out;
			}
			x->w += E->e[k].w;
		}
	*feasible = true;
out:
	free(mark);
	free(taken);
	return ret;
}

/* A child of `parent` (Murty): parent's forced-in edges plus its solution's free edges
 * free[0..i-1], and parent's forced-out edges plus free[i]. */
static int kb_child(const struct kb_node *parent, const long *freee, int i, int nv,
		struct kb_node *x)
{
	memset(x, 0, sizeof *x);
	x->mate = malloc((size_t)nv * sizeof *x->mate);
	x->in = malloc((size_t)(parent->nin + i + 1) * sizeof *x->in);
	x->out = malloc((size_t)(parent->nout + 1) * sizeof *x->out);
	if (!x->mate || !x->in || !x->out) {
		kb_free(x);
		return PAIRING_ENOMEM;
	}
	if (parent->nin)
		memcpy(x->in, parent->in, (size_t)parent->nin * sizeof *x->in);
	x->nin = parent->nin;
	for (int k = 0; k < i; k++)
		x->in[x->nin++] = (int)freee[k];
	if (parent->nout)
		memcpy(x->out, parent->out, (size_t)parent->nout * sizeof *x->out);
	x->nout = parent->nout;
	x->out[x->nout++] = (int)freee[i];
	return PAIRING_OK;
}

/* mate is the best matching of E (a strict-mode graph, so weights sum without overflow).
 * If it leaves the event incompletable, look through the next-best matchings in order of
 * weight for the first that does not, and put it in mate; none within the limits: mate
 * stays. */
static int ensure_completable(const struct sw *c, const struct edges *E, int *mate)
{
	int verdict, ret = completable(c, mate, &verdict);
	if (ret || verdict)
		return ret;
	int nv = c->nv, nopen = 0, solves = 0;
	struct kb_node *open = calloc(KBEST_SOLUTIONS * 2 + 2, sizeof *open);
	struct kb_node root = { 0 };
	struct edges scratch = { 0 };
	long *freee = malloc(((size_t)nv / 2 + 1) * sizeof *freee);
	ret = PAIRING_ENOMEM;
	if (!open || !freee)
		goto out;
	root.mate = malloc((size_t)nv * sizeof *root.mate);
	if (!root.mate)
		goto out;
	memcpy(root.mate, mate, (size_t)nv * sizeof *mate);
	/* the root's weight is not needed: it is popped first by construction */
	struct kb_node cur = root;
	memset(&root, 0, sizeof root);
	for (int popped = 0; popped < KBEST_SOLUTIONS; popped++) {
		if (popped > 0) {
			if ((ret = completable(c, cur.mate, &verdict)))
				goto out_cur;
			if (verdict) {
				memcpy(mate, cur.mate, (size_t)nv * sizeof *mate);
				ret = PAIRING_OK;
				goto out_cur;
			}
		}
		/* branch on cur's free edges */
		int nfree = 0;
		for (int v = 0; v < nv; v++)
			if (v < cur.mate[v]) {
				long k = edge_index(E, v, cur.mate[v]);
				bool forced = false;
				for (int q = 0; q < cur.nin && !forced; q++)
					forced = cur.in[q] == k;
				if (k >= 0 && !forced)
					freee[nfree++] = k;
			}
		for (int i = 0; i < nfree && solves < KBEST_SOLVES; i++) {
			struct kb_node x;
			bool feasible;
			if ((ret = kb_child(&cur, freee, i, nv, &x)))
				goto out_cur;
			solves++;
			if ((ret = kb_solve(E, nv, &x, &scratch, &feasible))) {
				kb_free(&x);
				goto out_cur;
			}
			if (!feasible) {
				kb_free(&x);
				continue;
			}
			if (nopen == KBEST_SOLUTIONS * 2 + 2) {
				/* full: drop the lightest (it would come last anyway) */
				int lo = 0;
				for (int q = 1; q < nopen; q++)
					if (open[q].w < open[lo].w)
						lo = q;
				if (open[lo].w >= x.w) {
					kb_free(&x);
					continue;
				}
				kb_free(&open[lo]);
				open[lo] = x;
			} else {
				open[nopen++] = x;
			}
		}
		kb_free(&cur);
		if (nopen == 0)
			break;
		/* the heaviest open node next (the first of equal weights: deterministic) */
		int best = 0;
		for (int q = 1; q < nopen; q++)
			if (open[q].w > open[best].w)
				best = q;
		cur = open[best];
		memmove(open + best, open + best + 1, (size_t)(nopen - best - 1) * sizeof *open);
		nopen--;
	}
	ret = PAIRING_OK; /* nothing completable found: keep the best */
out_cur:
	kb_free(&cur);
out:
	for (int q = 0; q < nopen; q++)
		kb_free(&open[q]);
	free(open);
	kb_free(&root);
	free(scratch.e);
	free(freee);
	return ret;
}

/* Solve: mate[] over the vertices, perfect. */
static int swiss_match(const struct sw *c, int *mate)
{
	int ret = PAIRING_OK;
	struct edges E = { 0 };
	bool ok = false;
	for (int mode = MODE_STRICT; mode < MODE_COUNT && !ok; mode++) {
		if ((ret = solve_mode(c, (enum mode)mode, &E, mate, &ok)))
			goto out;
		if (ok && mode == MODE_STRICT)
			ret = ensure_completable(c, &E, mate);
	}
	if (!ret && !ok)
		ret = PAIRING_EMATCH; /* cannot happen: the last pass has every pair */
out:
	free(E.e);
	return ret;
}

/* Sort players by place: score, then seed (a stable merge sort). */
static void sort_places(const struct event *ev, const struct hist *h, int *pl, int k)
{
	int *tmp = malloc((size_t)(k > 0 ? k : 1) * sizeof *tmp);
	if (!tmp) {
		/* insertion sort fallback */
		for (int i = 1; i < k; i++) {
			int x = pl[i], j = i - 1;
			while (j >= 0 && (h->score[pl[j]] < h->score[x] ||
					  (h->score[pl[j]] == h->score[x] && seed_before(ev, x, pl[j])))) {
				pl[j + 1] = pl[j];
				j--;
			}
			pl[j + 1] = x;
		}
		return;
	}
	for (int w = 1; w < k; w *= 2) {
		for (int lo = 0; lo < k; lo += 2 * w) {
			int mid = lo + w < k ? lo + w : k, hi = lo + 2 * w < k ? lo + 2 * w : k;
			int i = lo, j = mid, o = lo;
			while (i < mid && j < hi) {
				int a = pl[i], b = pl[j];
				bool bfirst = h->score[b] > h->score[a] ||
					      (h->score[b] == h->score[a] && seed_before(ev, b, a));
				tmp[o++] = bfirst ? pl[j++] : pl[i++];
			}
			while (i < mid)
				tmp[o++] = pl[i++];
			while (j < hi)
				tmp[o++] = pl[j++];
		}
		memcpy(pl, tmp, (size_t)k * sizeof *pl);
	}
	free(tmp);
}

static int pair_swiss(const struct event *ev, int round, const struct hist *h,
		struct pairing_out *out)
{
	int n = ev->nplayers, ret;
	size_t n1 = (size_t)(n > 0 ? n : 1) + 1;
	if (ev->rounds_planned > 0 && round > ev->rounds_planned)
		return PAIRING_EOVER;
	struct sw c = { .ev = ev, .h = h, .round = round };
	c.hcap = ev->system == SYSTEM_MCMAHON && ev->handicap;
	c.pl = malloc(n1 * sizeof(int));
	c.gstart = malloc(n1 * sizeof(int));
	c.gsize = malloc(n1 * sizeof(int));
	int *mate = malloc(n1 * sizeof(int));
	if (!c.pl || !c.gstart || !c.gsize || !mate) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	int k = 0;
	for (int i = 0; i < n; i++)
		if (in_event(&ev->players[i], round))
			c.pl[k++] = i;
	if (k < 2) {
		ret = PAIRING_EOVER;
		goto out;
	}
	sort_places(ev, h, c.pl, k);
	c.nf = k;
	c.dummy = k % 2 ? k : -1;
	c.nv = k + (k % 2);
	c.min_byes = h->nbyes[c.pl[0]];
	c.score_min = h->score[c.pl[0]];
	for (int i = 0; i < k; i++) {
		if (h->nbyes[c.pl[i]] < c.min_byes)
			c.min_byes = h->nbyes[c.pl[i]];
		if (h->score[c.pl[i]] < c.score_min)
			c.score_min = h->score[c.pl[i]];
	}
	for (int i = 0; i < k;) {
		int j = i;
		while (j < k && h->score[c.pl[j]] == h->score[c.pl[i]])
			j++;
		for (int q = i; q < j; q++) {
			c.gstart[q] = i;
			c.gsize[q] = j - i;
		}
		i = j;
	}
	if ((ret = swiss_match(&c, mate)))
		goto out;
	for (int i = 0; i < k; i++) {
		if (mate[i] == c.dummy) {
			struct terms t;
			pair_terms(&c, i, mate[i], &t);
			out->quality.bye_score_diff += t.d;
			out->quality.score_sq += (long)cap_sq(t.d, SPREAD_CAP);
			out->quality.seeding += t.c4;
			out->byes[out->nbyes++] = c.pl[i];
			continue;
		}
		if (mate[i] < i)
			continue;
		int a = c.pl[i], b = c.pl[mate[i]];
		struct pairing_pair *p = &out->pairs[out->npairs++];
		int stones = pair_stones(&c, a, b);
		struct terms t;
		pair_terms(&c, i, mate[i], &t);
		out->quality.rematches += t.rematch;
		out->quality.cross_group += t.d != 0;
		out->quality.score_diff += t.d;
		out->quality.score_sq += (long)cap_sq(t.d, SPREAD_CAP);
		out->quality.floats += t.c3;
		out->quality.seeding += t.c4;
		out->quality.colour += t.c5;
		give_colours(ev, h, a, b, out->npairs - 1, p);
		p->handicap_wanted = pair_stones_capped(&c, a, b, -1);
		if (stones > 0) {
			bool a_weaker = ev->handicap_by_mms ? h->score[a] < h->score[b]
							    : ev->players[a].rank < ev->players[b].rank;
			p->black = a_weaker ? a : b;
			p->white = a_weaker ? b : a;
			p->handicap = stones;
		}
	}
	ret = PAIRING_OK;
out:
	free(c.pl);
	free(c.gstart);
	free(c.gsize);
	free(mate);
	return ret;
}

/* ---- entry points ---- */

int pairing_round(const struct event *ev, int round, struct pairing_out *out)
{
	int ret = check_event(ev, round);
	if (ret)
		return ret;
	if (!out)
		return PAIRING_EINVAL;
	/* a round robin's tables do not depend on results: no history needed (rounds may be
	 * drawn before the earlier ones are played) */
	struct hist h = { 0 };
	bool rr = ev->system == SYSTEM_ROUND_ROBIN || ev->system == SYSTEM_DOUBLE_ROUND_ROBIN;
	if (!rr && (ret = hist_build(ev, round, &h)))
		return ret;
	struct pairing_out *o = calloc(1, sizeof *o); /* zeroed: padding too, for memcmp */
	if (!o) {
		hist_free(&h);
		return PAIRING_ENOMEM;
	}
	o->round = round;
	o->npairs = 0;
	o->nbyes = 0;
	switch (ev->system) {
	case SYSTEM_ROUND_ROBIN:
	case SYSTEM_DOUBLE_ROUND_ROBIN:
		ret = pair_round_robin(ev, round, o);
		break;
	case SYSTEM_KNOCKOUT:
		ret = pair_knockout(ev, round, &h, o);
		break;
	default:
		ret = pair_swiss(ev, round, &h, o);
		break;
	}
	if (!ret)
		memcpy(out, o, sizeof *o);
	free(o);
	hist_free(&h);
	return ret;
}

int pairing_score(const struct event *ev, int round, int player, double *score)
{
	int ret = check_event(ev, round);
	if (ret)
		return ret;
	if (!score || player < 0 || player >= ev->nplayers)
		return PAIRING_EINVAL;
	struct hist h;
	if ((ret = hist_build(ev, round, &h)))
		return ret;
	*score = ev->system == SYSTEM_MCMAHON ? h.score[player] / 2.0 : h.score[player];
	hist_free(&h);
	return PAIRING_OK;
}

const char *pairing_strerror(int err)
{
	switch (err) {
	case PAIRING_OK: return "no error";
	case PAIRING_EINVAL: return "invalid event or argument";
	case PAIRING_EOVER: return "the event is over";
	case PAIRING_EPENDING: return "a game of an earlier round has no result";
	case PAIRING_EHISTORY: return "an earlier knockout game is missing";
	case PAIRING_ENOMEM: return "out of memory";
	case PAIRING_EMATCH: return "the matching failed";
	default: return "unknown error";
	}
}
