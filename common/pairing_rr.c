/* pairing_rr: round robin (Berger tables) and knockout draws (see pairing.h). */
#include <stdlib.h>
#include <string.h>

#include "pairing_int.h"

/* ---- round robin ---- */

int pair_round_robin(const struct event *ev, int round, struct pairing_out *out)
{
	int *pl = NULL, k = 0;
	int ret = pair_players_by_seed(ev, &pl, &k);
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
	pair_give_colours(ev, h, a, b, 0, p); /* knockout: no history, the better seed White */
	p->bracket = br;
	p->white_absent = !in_event(&ev->players[p->white], round);
	p->black_absent = !in_event(&ev->players[p->black], round);
}

/* A knockout draw replayed round by round: the brackets and each player's losses. */
struct ko {
	const struct event *ev;
	const struct hist *h;
	int round;               /* the round being drawn */
	struct pairing_out *out;
	int *pl, k;              /* the players in seed order */
	int *wbl, wlen;          /* winners' bracket places (-1 empty) */
	int *losses, *kbyes;     /* per player: games lost, losers' bracket byes */
	int *lb, *tmp;           /* the losers' bracket, scratch */
};

/* The game a v b of round t: drawn into the bracket br when emit, else settled (*w the
 * winner, -1 for a double loss) and the losses counted. */
static int ko_game(struct ko *s, int t, bool emit, int a, int b, enum pairing_bracket br,
		int *w)
{
	if (emit) {
		ko_emit(s->ev, s->h, s->round, a, b, br, s->out);
		return PAIRING_OK;
	}
	int ret = ko_settle(s->ev, t, a, b, w);
	if (ret)
		return ret;
	if (*w != a)
		s->losses[a]++;
	if (*w != b)
		s->losses[b]++;
	return PAIRING_OK;
}

/* Round t of the winners' bracket (single elimination: the only one), wbn players left in it
 * (wb1 one of them). */
static int ko_winners(struct ko *s, int t, bool emit, int wbn, int wb1)
{
	int ret;
	if (wbn >= 2) {
		for (int i = 0; i < s->wlen / 2; i++) {
			int a = s->wbl[2 * i], b = s->wbl[2 * i + 1], w;
			if (a >= 0 && b >= 0) {
				if ((ret = ko_game(s, t, emit, a, b, PAIRING_BRACKET_MAIN, &w)))
					return ret;
				if (emit)
					continue;
			} else {
				w = a >= 0 ? a : b;
				if (emit && w >= 0)
					s->out->byes[s->out->nbyes++] = w;
			}
			if (!emit)
				s->wbl[i] = w;
		}
		if (!emit)
			s->wlen /= 2;
	} else if (wbn == 1 && emit) {
		s->out->byes[s->out->nbyes++] = wb1; /* waits for the losers' bracket */
	}
	return PAIRING_OK;
}

/* Round t of the losers' bracket (double elimination), its lbn players in s->lb. */
static int ko_losers(struct ko *s, int t, bool emit, int lbn)
{
	int ret;
	if (lbn >= 2) {
		int np = lbn / 2, bye = -1;
		if (lbn % 2) {
			for (int i = 0; i < lbn; i++)
				if (bye < 0 || s->kbyes[s->lb[i]] < s->kbyes[bye])
					bye = s->lb[i];
			if (emit)
				s->out->byes[s->out->nbyes++] = bye;
			else
				s->kbyes[bye]++;
			int m = 0;
			for (int i = 0; i < lbn; i++)
				if (s->lb[i] != bye)
					s->tmp[m++] = s->lb[i];
			memcpy(s->lb, s->tmp, (size_t)m * sizeof *s->lb);
		}
		for (int i = 0; i < np; i++) {
			int a = s->lb[i], b = s->lb[2 * np - 1 - i], w;
			if ((ret = ko_game(s, t, emit, a, b, PAIRING_BRACKET_LOSERS, &w)))
				return ret;
		}
	} else if (lbn == 1 && emit) {
		s->out->byes[s->out->nbyes++] = s->lb[0];
	}
	return PAIRING_OK;
}

/* Replay rounds 1..round-1 from their results; draw round `round`. */
static int ko_replay(struct ko *s)
{
	int ret;
	bool dbl = s->ev->double_elimination;
	for (int t = 1; t <= s->round; t++) {
		bool emit = t == s->round;
		int wbn = 0, wb1 = -1, lbn = 0;
		for (int i = 0; i < s->wlen; i++)
			if (s->wbl[i] >= 0) {
				wbn++;
				wb1 = s->wbl[i];
			}
		if (dbl) {
			/* one-loss players in seed order */
			for (int i = 0; i < s->k; i++)
				if (s->losses[s->pl[i]] == 1)
					s->lb[lbn++] = s->pl[i];
		}
		if (wbn + lbn <= 1)
			return PAIRING_EOVER;
		if (dbl && ((wbn == 1 && lbn == 1) || (wbn == 0 && lbn == 2))) {
			/* the grand final, or its replay */
			int a = wbn == 1 ? wb1 : s->lb[0], b = wbn == 1 ? s->lb[0] : s->lb[1], w;
			if ((ret = ko_game(s, t, emit, a, b, PAIRING_BRACKET_FINAL, &w)) || emit)
				return ret;
			if (wbn == 1 && w != a)
				for (int i = 0; i < s->wlen; i++)
					s->wbl[i] = -1;
			continue;
		}
		if ((ret = ko_winners(s, t, emit, wbn, wb1)))
			return ret;
		if (dbl && (ret = ko_losers(s, t, emit, lbn)))
			return ret;
		if (emit)
			return PAIRING_OK;
	}
	return PAIRING_EOVER;
}

int pair_knockout(const struct event *ev, int round, const struct hist *h,
		struct pairing_out *out)
{
	struct ko s = { .ev = ev, .h = h, .round = round, .out = out };
	int ret = pair_players_by_seed(ev, &s.pl, &s.k);
	if (ret)
		return ret;
	int n = ev->nplayers, k = s.k;
	size_t n1 = (size_t)(n > 0 ? n : 1);
	int *order = NULL;
	if (k == 0) {
		ret = PAIRING_EINVAL;
		goto out;
	}
	int P = 1;
	while (P < k)
		P *= 2;
	order = malloc((size_t)P * sizeof *order);
	s.wbl = malloc((size_t)P * sizeof *s.wbl);
	s.losses = calloc(n1, sizeof *s.losses);
	s.kbyes = calloc(n1, sizeof *s.kbyes);
	s.lb = malloc(n1 * sizeof *s.lb);
	s.tmp = malloc(n1 * sizeof *s.tmp);
	if (!order || !s.wbl || !s.losses || !s.kbyes || !s.lb || !s.tmp) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	pairing_bracket_order(P, order);
	for (int i = 0; i < P; i++)
		s.wbl[i] = order[i] <= k ? s.pl[order[i] - 1] : -1;
	s.wlen = P;
	ret = ko_replay(&s);
out:
	free(s.pl);
	free(order);
	free(s.wbl);
	free(s.losses);
	free(s.kbyes);
	free(s.lb);
	free(s.tmp);
	return ret;
}
