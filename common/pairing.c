/* pairing: the draw of a tournament round (see pairing.h). */
#include "pairing.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"
#include "rating.h"

/* ---- weights of a Swiss/McMahon pair (see pairing.h for the order of the terms) ----
 * Bit budget, for at most PAIRING_MAX_PAIRS = 2^11 pairs in a round:
 *   colour term w5 in 0..2, seeding w4 in 0..3969: lower4 = w4 * 4 + w5 < 2^14;
 *   float w3 in 0..15: lower3 = w3 * 2^16 + lower4 < 2^20 (w3 outweighs 4 pairs' lower4);
 *   score w2 in 0..16384 at 2^31 > 2^11 * 2^20 (outweighs all lower terms of the round);
 *   the top (hard-criterion) term at 2^57 > 2^11 * (2^45 + 2^31); total < 2^58 =
 *   MATCH_WEIGHT_MAX. */
#define SCORE_DIFF_CAP 128              /* half wins; beyond, all differences are alike */
#define SEED_DEV_CAP 63                 /* places of deviation from the ideal opponent */
#define W2_MAX (SCORE_DIFF_CAP * SCORE_DIFF_CAP)
#define W3_MAX 15
#define W4_MAX (SEED_DEV_CAP * SEED_DEV_CAP)
#define W5_MAX 2
#define SHIFT4 2
#define SHIFT3 16
#define SHIFT2 31
#define SHIFT_TOP 57
#define FLOAT_COST_LAST 6               /* floating the same way as last round */
#define FLOAT_COST_PREV 1               /* ... as the round before */
#define RANDOM_SEED_COST_MAX 1024       /* random seeding: cost drawn in 0..this-1 */

/* Candidate pairs: each player's WINDOW_START nearest allowed opponents above and below in
 * the placing order, around the ideal opponent, and around the same relative place in the
 * ADJACENT_GROUPS nearest score groups either way; the window grows by WINDOW_GROWTH while
 * no full pairing is found, up to every pair of the field. Measured (tests/bench/pair_bench,
 * 1,000 players, 7 rounds): with 48 the result equalled the full graph's optimum in every
 * round at the score-group level (12: one round in seven floated worse). */
#define WINDOW_START 48
#define WINDOW_GROWTH 4
#define ADJACENT_GROUPS 2

/* Score units: half wins (a win 2, a draw 1); Swiss game points are already in them, MMS
 * is kept doubled. */
#define UNITS_WIN 2
#define UNITS_DRAW 1
#define BYE_POINTS_MAX 2

/* The three passes of the matching: hard criteria as excluded edges, then let in. */
enum mode { MODE_STRICT = 0, MODE_COLOUR_SOFT, MODE_REMATCH_SOFT, MODE_COUNT };

/* ------------------------------------------------------------------------------------- */

/* History of the rounds before the one being paired. */
struct hist {
	int n;
	int *score;        /* units (see above) */
	int *wb;           /* colour balance: Whites - Blacks in played games */
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
	h->nbyes = calloc(n1, sizeof(int));
	h->fl1 = calloc(n1, 1);
	h->fl2 = calloc(n1, 1);
	h->met = calloc(((size_t)n * (size_t)n + 7) / 8 + 1, 1);
	seen = malloc(n1 * sizeof(int));
	rstart = calloc((size_t)round + 1, sizeof(int));
	ridx = malloc((size_t)(ev->ngames > 0 ? ev->ngames : 1) * sizeof(int));
	if (!h->score || !h->wb || !h->nbyes || !h->fl1 || !h->fl2 || !h->met || !seen ||
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
			if (played(x->result)) {
				h->wb[x->white]++;
				h->wb[x->black]--;
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

/* Colours of a pair by colour balance, then seed (the better seed White). */
static void give_colours(const struct event *ev, const struct hist *h, int a, int b,
		struct pairing_pair *p)
{
	int white;
	if (h->wb[a] != h->wb[b])
		white = h->wb[a] < h->wb[b] ? a : b;
	else
		white = seed_before(ev, a, b) ? a : b;
	p->white = white;
	p->black = white == a ? b : a;
	p->handicap = 0;
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
	give_colours(ev, h, a, b, p);
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
	int nf;
	int *pl;       /* the field in placing order */
	int *gstart;   /* per place: the first place of its score group */
	int *gsize;    /* per place: the size of its score group */
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

static int pair_stones(const struct sw *c, int a, int b)
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
	int s = pairing_handicap(diff, ev->players[weaker].rank, ev->handicap_correction,
			ev->handicap_max, ev->handicap_none_above);
	return s > 0 ? s : 0;
}

/* Weight of the pair of places i < j in the given mode; false if the pair is left out. */
static bool pair_weight(const struct sw *c, int i, int j, enum mode mode, int64_t *wout)
{
	const struct hist *h = c->h;
	int a = c->pl[i], b = c->pl[j];
	bool rematch = met(h, a, b);
	bool hgame = c->hcap && pair_stones(c, a, b) > 0;
	bool colour_hard = !hgame && ((h->wb[a] >= 2 && h->wb[b] >= 2) ||
				      (h->wb[a] <= -2 && h->wb[b] <= -2));
	int64_t top = 0;
	switch (mode) {
	case MODE_STRICT:
		if (rematch || colour_hard)
			return false;
		break;
	case MODE_COLOUR_SOFT:
		if (rematch)
			return false;
		top = !colour_hard;
		break;
	default:
		top = !rematch;
		break;
	}
	/* 1. score difference (a is placed above b: score[a] >= score[b]) */
	int d = h->score[a] - h->score[b];
	if (d < 0)
		d = -d;
	if (d > SCORE_DIFF_CAP)
		d = SCORE_DIFF_CAP;
	int64_t w2 = W2_MAX - (int64_t)d * d;
	/* 2. float history */
	int w3 = W3_MAX;
	if (h->score[a] != h->score[b]) {
		int hi = h->score[a] > h->score[b] ? a : b, lo = hi == a ? b : a;
		int c3 = FLOAT_COST_LAST * ((h->fl1[hi] < 0) + (h->fl1[lo] > 0)) +
			 FLOAT_COST_PREV * ((h->fl2[hi] < 0) + (h->fl2[lo] > 0));
		w3 = W3_MAX - c3;
	}
	/* 3. seeding */
	int c4;
	int gs = c->gstart[i], g = c->gsize[i];
	if (c->gstart[j] == gs) {
		int gi = i - gs, gj = j - gs;
		if (c->ev->seeding == SEEDING_SPLIT_FOLD) {
			int dev = abs(gi + gj - (g - 1));
			if (dev > SEED_DEV_CAP)
				dev = SEED_DEV_CAP;
			c4 = dev * dev;
		} else if (c->ev->seeding == SEEDING_SPLIT_SLIP) {
			int dev = abs(gj - gi - g / 2);
			if (dev > SEED_DEV_CAP)
				dev = SEED_DEV_CAP;
			c4 = dev * dev;
		} else {
			bool split = gi < g / 2 && gj >= g / 2;
			uint64_t x = mix64(c->ev->draw_seed ^ mix64((uint64_t)c->round) ^
					   mix64(((uint64_t)(unsigned)a << 32) | (unsigned)b));
			c4 = split ? (int)(x % RANDOM_SEED_COST_MAX) : W4_MAX;
		}
	} else {
		/* across groups: the bottom of the upper group v the top of the lower one */
		int dev = (gs + g - 1 - i) + (j - c->gstart[j]);
		if (dev > SEED_DEV_CAP)
			dev = SEED_DEV_CAP;
		c4 = dev * dev;
	}
	int w4 = W4_MAX - c4;
	/* 4. colour */
	int c5 = 0;
	if (!hgame && ((h->wb[a] > 0 && h->wb[b] > 0) || (h->wb[a] < 0 && h->wb[b] < 0)))
		c5 = colour_hard ? 2 : 1;
	int w5 = W5_MAX - c5;
	*wout = (top << SHIFT_TOP) + (w2 << SHIFT2) + ((int64_t)w3 << SHIFT3) +
		((int64_t)w4 << SHIFT4) + w5;
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

/* Add the pair of places i, j (any order) if allowed in the mode; *added tells. */
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
 * opponent; duplicates removed, sorted by (u, v) so the graph is the same on every run. */
static int build_edges(const struct sw *c, int K, bool full, enum mode mode, struct edges *E)
{
	int nf = c->nf;
	bool added;
	E->m = 0;
	if (full) {
		for (int i = 0; i < nf; i++)
			for (int j = i + 1; j < nf; j++)
				if (try_pair(c, i, j, mode, E, &added))
					return PAIRING_ENOMEM;
		return PAIRING_OK;
	}
	for (int i = 0; i < nf; i++) {
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
	qsort(E->e, E->m, sizeof *E->e, cmp_edge);
	size_t m = 0;
	for (size_t k = 0; k < E->m; k++)
		if (m == 0 || E->e[m - 1].u != E->e[k].u || E->e[m - 1].v != E->e[k].v)
			E->e[m++] = E->e[k];
	E->m = m;
	return PAIRING_OK;
}

static int match_err(int r)
{
	return r == MATCH_ENOMEM ? PAIRING_ENOMEM : r == MATCH_EINVAL ? PAIRING_EINVAL : PAIRING_EMATCH;
}

/* Solve: mate[] over the field's places. *ok: a full pairing was found. */
static int swiss_match(const struct sw *c, int *mate, bool *ok)
{
	int nf = c->nf, ret = PAIRING_OK;
	struct edges E = { 0 };
	*ok = false;
	for (int mode = MODE_STRICT; mode < MODE_COUNT && !*ok; mode++) {
		for (int K = WINDOW_START;; K *= WINDOW_GROWTH) {
			bool full = 2 * K + 1 >= nf;
			if ((ret = build_edges(c, K, full, mode, &E)))
				goto out;
			int r = match_max_weight(nf, E.e, E.m, MATCH_PERFECT, mate, NULL);
			if (r) {
				ret = match_err(r);
				goto out;
			}
			bool perfect = true;
			for (int v = 0; v < nf && perfect; v++)
				perfect = mate[v] >= 0;
			if (perfect) {
				*ok = true;
				break;
			}
			if (full)
				break;
		}
	}
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
	size_t n1 = (size_t)(n > 0 ? n : 1);
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
	if (k % 2) {
		/* the bye: the lowest-placed player with the fewest byes (none, normally) */
		int best = k - 1;
		for (int i = k - 1; i >= 0; i--)
			if (h->nbyes[c.pl[i]] < h->nbyes[c.pl[best]])
				best = i;
		out->byes[out->nbyes++] = c.pl[best];
		memmove(c.pl + best, c.pl + best + 1, (size_t)(k - 1 - best) * sizeof(int));
		k--;
	}
	c.nf = k;
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
	bool ok;
	if ((ret = swiss_match(&c, mate, &ok)))
		goto out;
	if (!ok) {
		ret = PAIRING_EMATCH; /* cannot happen: the last pass has every pair */
		goto out;
	}
	for (int i = 0; i < k; i++) {
		if (mate[i] < i)
			continue;
		int a = c.pl[i], b = c.pl[mate[i]];
		struct pairing_pair *p = &out->pairs[out->npairs++];
		int stones = pair_stones(&c, a, b);
		if (stones > 0) {
			bool a_weaker = ev->handicap_by_mms ? h->score[a] < h->score[b]
							    : ev->players[a].rank < ev->players[b].rank;
			give_colours(ev, h, a, b, p);
			p->black = a_weaker ? a : b;
			p->white = a_weaker ? b : a;
			p->handicap = stones;
		} else {
			give_colours(ev, h, a, b, p);
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
