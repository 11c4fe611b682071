/* elim: elimination after k losses (see elim.h). */
#include "elim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "match.h"

/* Cost terms of the knockout matching, each outweighing every lower term of a whole round
 * (at most ELIM_KO_MAX_PLAYERS / 2 pairs, seed costs at most SEED_CAP^2 each): pairs across
 * loss groups, rematches, the bye's player's losses, seeding. */
#define SEED_CAP 63
#define COST_BYE_LOSS (INT64_C(1) << 22)
#define COST_REMATCH (INT64_C(1) << 31)
#define COST_LOSS (INT64_C(1) << 41)
#define WEIGHT_BASE (INT64_C(1) << 45)

static bool in_event_at(const struct event_player *p, int t)
{
	return !p->withdrawn_before_start && (p->withdrawn_after == 0 || p->withdrawn_after >= t);
}

static int check(const struct event *ev, int k, int round)
{
	if (!ev || k < 1 || k > ELIM_MAX_LOSSES || round < 1 || round > EVENT_MAX_ROUNDS ||
	    ev->nplayers < 0 || ev->nplayers > EVENT_MAX_PLAYERS ||
	    (ev->nplayers > 0 && !ev->players) || ev->ngames < 0 ||
	    (ev->ngames > 0 && !ev->games) || ev->nbyes < 0 || (ev->nbyes > 0 && !ev->byes))
		return PAIRING_EINVAL;
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->black < 0 || x->black >= ev->nplayers || x->white < 0 ||
		    x->white >= ev->nplayers || x->black == x->white ||
		    (unsigned)x->result > RESULT_VOID)
			return PAIRING_EINVAL;
	}
	for (int b = 0; b < ev->nbyes; b++)
		if (ev->byes[b].player < 0 || ev->byes[b].player >= ev->nplayers)
			return PAIRING_EINVAL;
	return PAIRING_OK;
}

int elim_losses(const struct event *ev, int round, int *losses)
{
	if (!losses || check(ev, 1, round))
		return PAIRING_EINVAL;
	for (int g = 0; g < ev->ngames; g++)
		if (ev->games[g].round < round && ev->games[g].result == RESULT_NONE)
			return PAIRING_EPENDING;
	memset(losses, 0, (size_t)ev->nplayers * sizeof(int));
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round >= round)
			continue;
		switch (x->result) {
		case RESULT_BLACK_WIN:
		case RESULT_BLACK_FORFEIT_WIN:
			losses[x->white]++;
			break;
		case RESULT_WHITE_WIN:
		case RESULT_WHITE_FORFEIT_WIN:
			losses[x->black]++;
			break;
		case RESULT_DOUBLE_LOSS:
			losses[x->black]++;
			losses[x->white]++;
			break;
		default:
			break;
		}
	}
	return PAIRING_OK;
}

/* Game points (2/1/0, byes ev->bye_points) of each player in the rounds before `round`. */
static void points_before(const struct event *ev, int round, int *pts)
{
	memset(pts, 0, (size_t)ev->nplayers * sizeof(int));
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round >= round)
			continue;
		if (x->result == RESULT_BLACK_WIN || x->result == RESULT_BLACK_FORFEIT_WIN)
			pts[x->black] += 2;
		else if (x->result == RESULT_WHITE_WIN || x->result == RESULT_WHITE_FORFEIT_WIN)
			pts[x->white] += 2;
		else if (x->result == RESULT_DRAW) {
			pts[x->black]++;
			pts[x->white]++;
		}
	}
	for (int b = 0; b < ev->nbyes; b++)
		if (ev->byes[b].round < round)
			pts[ev->byes[b].player] += ev->bye_points;
}

/* Is a placed below b (fewer points, then a worse seed, then a later index)? */
static bool placed_below(const struct event *ev, const int *pts, int a, int b)
{
	if (pts[a] != pts[b])
		return pts[a] < pts[b];
	if (ev->players[a].seed != ev->players[b].seed)
		return ev->players[a].seed > ev->players[b].seed;
	return a > b;
}

int elim_swiss_field(const struct event *ev, int k, bool keep_even, int round, bool *active,
		int *nactive)
{
	int ret = check(ev, k, round);
	if (ret || !active || !nactive)
		return ret ? ret : PAIRING_EINVAL;
	size_t n1 = (size_t)ev->nplayers + 1;
	int *losses = malloc(n1 * sizeof(int)), *pts = malloc(n1 * sizeof(int));
	bool *dropped = calloc(n1, sizeof(bool));
	int count = 0;
	if (!losses || !pts || !dropped) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	/* replay the rounds so that a player dropped to keep the field even stays out */
	for (int t = 1; t <= round; t++) {
		ret = elim_losses(ev, t, losses);
		if (ret)
			goto out;
		int worst = -1, maxl = 0;
		count = 0;
		for (int i = 0; i < ev->nplayers; i++) {
			active[i] = in_event_at(&ev->players[i], t) && !dropped[i] && losses[i] < k;
			if (!active[i])
				continue;
			count++;
			if (losses[i] > maxl)
				maxl = losses[i];
		}
		if (!keep_even || count % 2 == 0 || maxl == 0)
			continue;
		points_before(ev, t, pts);
		for (int i = 0; i < ev->nplayers; i++)
			if (active[i] && losses[i] == maxl &&
			    (worst < 0 || placed_below(ev, pts, i, worst)))
				worst = i;
		dropped[worst] = true;
		active[worst] = false;
		count--;
	}
	*nactive = count;
out:
	free(losses);
	free(pts);
	free(dropped);
	return ret;
}

int elim_swiss_round(const struct event *ev, int k, bool keep_even, int round,
		struct pairing_out *out)
{
	int ret = check(ev, k, round), nactive = 0;
	if (ret || !out || (ev->system != SYSTEM_SWISS && ev->system != SYSTEM_MCMAHON))
		return ret ? ret : PAIRING_EINVAL;
	size_t n1 = (size_t)ev->nplayers + 1;
	bool *active = malloc(n1 * sizeof(bool)), *was = malloc(n1 * sizeof(bool));
	struct event_player *pl = malloc(n1 * sizeof *pl);
	if (!active || !was || !pl) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	memcpy(pl, ev->players, (size_t)ev->nplayers * sizeof *pl);
	/* an eliminated player is, for the pairing, one who withdrew after the last round of
	 * the field it was in */
	for (int i = 0; i < ev->nplayers; i++)
		was[i] = true;
	for (int t = 1; t <= round; t++) {
		ret = elim_swiss_field(ev, k, keep_even, t, active, &nactive);
		if (ret)
			goto out;
		for (int i = 0; i < ev->nplayers; i++) {
			if (was[i] && !active[i] && in_event_at(&ev->players[i], t))
				pl[i].withdrawn_after = t - 1;
			was[i] = was[i] && active[i];
		}
	}
	if (nactive < 2) {
		ret = PAIRING_EOVER;
		goto out;
	}
	struct event copy = *ev;
	copy.players = pl;
	ret = pairing_round(&copy, round, out);
out:
	free(active);
	free(was);
	free(pl);
	return ret;
}

/* ---- knockout after k losses ---- */

/* A knockout round needs a decisive game between each pair that met: PAIRING_EPENDING if,
 * in some round before `round`, two players have only draws or void games. */
static int ko_decided(const struct event *ev, int round)
{
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round >= round || (x->result != RESULT_DRAW && x->result != RESULT_VOID))
			continue;
		bool decided = false;
		for (int h = 0; h < ev->ngames && !decided; h++) {
			const struct event_game *y = &ev->games[h];
			decided = y->round == x->round && y->result != RESULT_DRAW &&
				y->result != RESULT_VOID && y->result != RESULT_NONE &&
				((y->black == x->black && y->white == x->white) ||
				 (y->black == x->white && y->white == x->black));
		}
		if (!decided)
			return PAIRING_EPENDING;
	}
	return PAIRING_OK;
}

/* The knockout round's state: the field sorted by losses then seed. */
struct ko {
	const struct event *ev;
	int nf;
	int *pl;       /* the field, sorted */
	int *losses;   /* per player */
	int *byes;     /* per player */
	int *wb;       /* per player: Whites - Blacks in played games */
	int *gpos;     /* per place: position in its loss group */
	int *gsize;    /* per place: size of its loss group */
};

/* Does player a come before b in the field (fewer losses, then the better seed)? */
static bool field_before(const struct ko *c, int a, int b)
{
	if (c->losses[a] != c->losses[b])
		return c->losses[a] < c->losses[b];
	if (c->ev->players[a].seed != c->ev->players[b].seed)
		return c->ev->players[a].seed < c->ev->players[b].seed;
	return a < b;
}

static bool have_met(const struct event *ev, int round, int a, int b)
{
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round < round && ((x->black == a && x->white == b) ||
					 (x->black == b && x->white == a)))
			return true;
	}
	return false;
}

static int64_t seed_cost(int d)
{
	if (d < 0)
		d = -d;
	if (d > SEED_CAP)
		d = SEED_CAP;
	return (int64_t)d * d;
}

/* The candidate edges: every pair of the field, and the bye's dummy (vertex nf). */
static int ko_edges(const struct ko *c, int round, struct match_edge **out, size_t *m)
{
	int nf = c->nf, minb = -1, minl = c->losses[c->pl[0]];
	size_t cap = (size_t)nf * (size_t)(nf + 1) / 2 + 1, k = 0;
	struct match_edge *e = malloc(cap * sizeof *e);
	if (!e)
		return PAIRING_ENOMEM;
	for (int i = 0; i < nf; i++)
		if (minb < 0 || c->byes[c->pl[i]] < minb)
			minb = c->byes[c->pl[i]];
	for (int i = 0; i < nf; i++)
		for (int j = i + 1; j < nf; j++) {
			int a = c->pl[i], b = c->pl[j];
			int64_t cost = COST_LOSS * abs(c->losses[a] - c->losses[b]);
			if (have_met(c->ev, round, a, b))
				cost += COST_REMATCH;
			if (c->losses[a] == c->losses[b])
				cost += seed_cost(c->gpos[j] - (c->gsize[i] - 1 - c->gpos[i]));
			e[k++] = (struct match_edge){ i, j, WEIGHT_BASE - cost };
		}
	if (nf % 2)
		for (int i = 0; i < nf; i++) {
			int a = c->pl[i];
			if (c->byes[a] != minb)
				continue;
			int64_t cost = COST_BYE_LOSS * (c->losses[a] - minl) + seed_cost(i);
			e[k++] = (struct match_edge){ i, nf, WEIGHT_BASE - cost };
		}
	*out = e;
	*m = k;
	return PAIRING_OK;
}

/* Colours of a pair on board `board` (0 = top): more Whites takes Black; equal: the better
 * seed White on even boards. */
static void ko_colours(const struct ko *c, int a, int b, int board, struct pairing_pair *p)
{
	bool a_white;
	if (c->wb[a] != c->wb[b])
		a_white = c->wb[a] < c->wb[b];
	else {
		bool a_better = c->ev->players[a].seed < c->ev->players[b].seed ||
			(c->ev->players[a].seed == c->ev->players[b].seed && a < b);
		a_white = a_better == (board % 2 == 0);
	}
	memset(p, 0, sizeof *p);
	p->white = a_white ? a : b;
	p->black = a_white ? b : a;
}

/* Counts (byes, colour balance) and the field of round `round`: players in the event with
 * fewer than k losses, sorted. */
static int ko_field(struct ko *c, int k, int round)
{
	const struct event *ev = c->ev;
	for (int b = 0; b < ev->nbyes; b++)
		if (ev->byes[b].round < round)
			c->byes[ev->byes[b].player]++;
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (x->round < round && (x->result == RESULT_BLACK_WIN ||
					 x->result == RESULT_WHITE_WIN || x->result == RESULT_DRAW)) {
			c->wb[x->white]++;
			c->wb[x->black]--;
		}
	}
	c->nf = 0;
	for (int i = 0; i < ev->nplayers; i++)
		if (in_event_at(&ev->players[i], round) && c->losses[i] < k)
			c->pl[c->nf++] = i;
	if (c->nf < 2)
		return PAIRING_EOVER;
	if (c->nf > ELIM_KO_MAX_PLAYERS)
		return PAIRING_EINVAL;
	for (int i = 1; i < c->nf; i++) { /* insertion sort: nf <= ELIM_KO_MAX_PLAYERS */
		int v = c->pl[i], j = i - 1;
		while (j >= 0 && field_before(c, v, c->pl[j])) {
			c->pl[j + 1] = c->pl[j];
			j--;
		}
		c->pl[j + 1] = v;
	}
	for (int i = 0; i < c->nf;) {
		int j = i;
		while (j < c->nf && c->losses[c->pl[j]] == c->losses[c->pl[i]])
			j++;
		for (int q = i; q < j; q++) {
			c->gpos[q] = q - i;
			c->gsize[q] = j - i;
		}
		i = j;
	}
	return PAIRING_OK;
}

/* The matching's pairs into out, in board order (the first place of each pair). */
static void ko_output(const struct ko *c, int round, const int *mate,
		struct pairing_out *out)
{
	memset(out, 0, sizeof *out);
	out->round = round;
	for (int i = 0; i < c->nf; i++) {
		int j = mate[i];
		if (j == c->nf) {
			out->byes[out->nbyes++] = c->pl[i];
			continue;
		}
		if (j < i)
			continue;
		int a = c->pl[i], b = c->pl[j];
		struct pairing_pair *p = &out->pairs[out->npairs];
		ko_colours(c, a, b, out->npairs, p);
		if (c->nf == 2)
			p->bracket = PAIRING_BRACKET_FINAL;
		else if (c->losses[a] > 0 || c->losses[b] > 0)
			p->bracket = PAIRING_BRACKET_LOSERS;
		out->npairs++;
	}
}

int elim_knockout_round(const struct event *ev, int k, int round, struct pairing_out *out)
{
	int ret = check(ev, k, round);
	if (ret || !out)
		return ret ? ret : PAIRING_EINVAL;
	ret = ko_decided(ev, round);
	if (ret)
		return ret;
	size_t n1 = (size_t)ev->nplayers + 1;
	struct ko c = { .ev = ev };
	struct match_edge *e = NULL;
	size_t m = 0;
	int *mate = NULL;
	c.pl = malloc(n1 * sizeof(int));
	c.losses = malloc(n1 * sizeof(int));
	c.byes = calloc(n1, sizeof(int));
	c.wb = calloc(n1, sizeof(int));
	c.gpos = malloc(n1 * sizeof(int));
	c.gsize = malloc(n1 * sizeof(int));
	mate = malloc((n1 + 1) * sizeof(int));
	if (!c.pl || !c.losses || !c.byes || !c.wb || !c.gpos || !c.gsize || !mate) {
		ret = PAIRING_ENOMEM;
		goto out;
	}
	ret = elim_losses(ev, round, c.losses);
	if (!ret)
		ret = ko_field(&c, k, round);
	if (!ret)
		ret = ko_edges(&c, round, &e, &m);
	if (ret)
		goto out;
	int r = match_max_weight(c.nf + c.nf % 2, e, m, MATCH_MAX_CARDINALITY, mate, NULL);
	if (r) {
		ret = r == MATCH_ENOMEM ? PAIRING_ENOMEM : PAIRING_EMATCH;
		goto out;
	}
	ko_output(&c, round, mate, out);
out:
	free(c.pl);
	free(c.losses);
	free(c.byes);
	free(c.wb);
	free(c.gpos);
	free(c.gsize);
	free(mate);
	free(e);
	return ret;
}
