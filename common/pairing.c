/* pairing: the draw of a tournament round (see pairing.h). */
#include "pairing.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pairing_int.h"
#include "rating.h"

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
	if (ev->bye_points < 0 || ev->bye_points > BYE_POINTS_MAX ||
	    ev->absent_points < 0 || ev->absent_points > ev->bye_points)
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
		for (int i = 0; i < n; i++)
			if (seen[i] != t && in_event(&ev->players[i], t))
				h->score[i] += mm ? half_units(ev->mms_absent) : ev->absent_points;
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
bool pair_seed_before(const struct event *ev, int a, int b)
{
	int sa = ev->players[a].seed, sb = ev->players[b].seed;
	return sa != sb ? sa < sb : a < b;
}

/* A player's due colour (docs/pairing.md): +1 White, -1 Black, 0 none, and the strength of the
 * claim in *strength: 3 at a balance of +-2 or more, 2 at +-1, 1 when the balance is even
 * and the last even game was of the other colour (alternation), 0 with no history. Handicap
 * games are not counted (hist_build leaves them out). */
int pair_due_colour(const struct hist *h, int p, int *strength)
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
void pair_give_colours(const struct event *ev, const struct hist *h, int a, int b, int board,
		struct pairing_pair *p)
{
	int sa, sb;
	int da = pair_due_colour(h, a, &sa), db = pair_due_colour(h, b, &sb);
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
							   : (pair_seed_before(ev, a, b) ? a : b);
		int loser = winner == a ? b : a;
		white = da > 0 ? winner : loser;
	} else {
		bool better_white = board % 2 == 0;
		white = pair_seed_before(ev, a, b) == better_white ? a : b;
	}
	p->white = white;
	p->black = white == a ? b : a;
	p->handicap = 0;
	p->handicap_wanted = 0;
	p->black_absent = p->white_absent = false;
	p->bracket = PAIRING_BRACKET_MAIN;
}

int pair_players_by_seed(const struct event *ev, int **list_out, int *count)
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
				tmp[o++] = pair_seed_before(ev, l[j], l[i]) ? l[j++] : l[i++];
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

int pair_handicap_rule(const struct event *ev, const int *score, int a, int b, int cap,
		       int *weaker_out)
{
	int diff, weaker;
	if (ev->handicap_by_mms) {
		diff = abs(score[a] - score[b]) / UNITS_WIN;
		weaker = score[a] < score[b] ? a : score[b] < score[a] ? b : -1;
	} else {
		int ra = ev->players[a].rank, rb = ev->players[b].rank;
		diff = abs(ra - rb);
		weaker = ra < rb ? a : rb < ra ? b : -1;
	}
	if (weaker_out)
		*weaker_out = weaker;
	if (weaker < 0)
		return 0;
	if (cap < 0) /* as pairing_handicap, without its cap */
		return ev->players[weaker].rank > ev->handicap_none_above ||
		       diff <= ev->handicap_correction ? 0 : diff - ev->handicap_correction;
	int s = pairing_handicap(diff, ev->players[weaker].rank, ev->handicap_correction, cap,
				 ev->handicap_none_above);
	return s > 0 ? s : 0;
}

int pairing_pair_handicap(const struct event *ev, int round, int a, int b, int *weaker)
{
	int ret = check_event(ev, round);
	if (ret)
		return ret;
	if (a < 0 || a >= ev->nplayers || b < 0 || b >= ev->nplayers || !weaker)
		return PAIRING_EINVAL;
	*weaker = -1;
	if (ev->system != SYSTEM_MCMAHON || !ev->handicap) /* as the draw: McMahon only */
		return 0;
	struct hist h;
	if ((ret = hist_build(ev, round, &h)))
		return ret;
	int stones = pair_handicap_rule(ev, h.score, a, b, ev->handicap_max, weaker);
	hist_free(&h);
	return stones;
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

