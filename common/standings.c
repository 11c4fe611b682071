/* standings: points, tie-breaks and Art. 28 withdrawals (see standings.h, docs/tiebreaks.md). */
#include "standings.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

#include "rating.h"

/* Values are sums of halves and quarters, exact in a double; the tolerance only absorbs
 * rounding when a caller sets MMS credits that are not binary fractions. */
#define STANDINGS_EPSILON 1e-9

/* A player's slot in a round (the round table). */
#define SLOT_EMPTY (-1)  /* no game and no bye */
#define SLOT_BYE (-2)

static const char *const tiebreak_names[TIEBREAK_COUNT] = {
	"PTS", "MMS", "KO", "SOS", "SOSOS", "SODOS", "DE", "WARN", "SEED", "SOS-1", "SOS-2", "MOS",
	"CUSS"
};

static const char *const default_rr[] = { "SODOS", "WARN" };
static const char *const default_swiss[] = { "SOS", "WARN" };
static const char *const default_mcmahon[] = { "SOS", "SOSOS" };
static const char *const default_knockout[] = { "SEED" };

int standings_tiebreak_parse(const char *name)
{
	int i;

	if (!name)
		return STANDINGS_EUNKNOWN;
	for (i = 0; i < TIEBREAK_COUNT; i++)
		if (strcasecmp(name, tiebreak_names[i]) == 0)
			return i;
	if (strcasecmp(name, "SB") == 0)
		return TIEBREAK_SODOS;
	if (strcasecmp(name, "WARNINGS") == 0)
		return TIEBREAK_WARN;
	return STANDINGS_EUNKNOWN;
}

const char *standings_tiebreak_name(int tiebreak)
{
	if (tiebreak < 0 || tiebreak >= TIEBREAK_COUNT)
		return NULL;
	return tiebreak_names[tiebreak];
}

static bool system_valid(enum event_system s)
{
	return s == SYSTEM_ROUND_ROBIN || s == SYSTEM_DOUBLE_ROUND_ROBIN || s == SYSTEM_SWISS ||
		s == SYSTEM_MCMAHON || s == SYSTEM_KNOCKOUT;
}

static bool is_round_robin(enum event_system s)
{
	return s == SYSTEM_ROUND_ROBIN || s == SYSTEM_DOUBLE_ROUND_ROBIN;
}

const char *standings_score_name(enum event_system system)
{
	if (!system_valid(system))
		return NULL;
	if (system == SYSTEM_MCMAHON)
		return tiebreak_names[TIEBREAK_MMS];
	if (system == SYSTEM_KNOCKOUT)
		return tiebreak_names[TIEBREAK_KO];
	return tiebreak_names[TIEBREAK_PTS];
}

int standings_default_tiebreaks(enum event_system system, const char *const **names)
{
	if (!names || !system_valid(system))
		return STANDINGS_EINVAL;
	switch (system) {
	case SYSTEM_SWISS:
		*names = default_swiss;
		return (int)(sizeof default_swiss / sizeof default_swiss[0]);
	case SYSTEM_MCMAHON:
		*names = default_mcmahon;
		return (int)(sizeof default_mcmahon / sizeof default_mcmahon[0]);
	case SYSTEM_KNOCKOUT:
		*names = default_knockout;
		return (int)(sizeof default_knockout / sizeof default_knockout[0]);
	default:
		*names = default_rr;
		return (int)(sizeof default_rr / sizeof default_rr[0]);
	}
}

static bool result_valid(enum event_result r)
{
	return (int)r >= (int)RESULT_NONE && (int)r <= (int)RESULT_VOID;
}

static bool credit_valid(double c)
{
	return isfinite(c) && c >= 0.0 && c <= STANDINGS_MMS_CREDIT_MAX;
}

/* Marks (player, round) in `seen` (nplayers * EVENT_MAX_ROUNDS bytes); false if taken. */
static bool take_slot(unsigned char *seen, int player, int round)
{
	size_t k = (size_t)player * EVENT_MAX_ROUNDS + (size_t)(round - 1);

	if (seen[k])
		return false;
	seen[k] = 1;
	return true;
}

int standings_validate(const struct event *ev)
{
	unsigned char *seen = NULL;
	int i, err = STANDINGS_EINVAL;

	if (!ev || !system_valid(ev->system))
		return STANDINGS_EINVAL;
	if (ev->nplayers < 0 || ev->nplayers > EVENT_MAX_PLAYERS ||
			(ev->nplayers > 0 && !ev->players))
		return STANDINGS_EINVAL;
	if (ev->ngames < 0 || ev->ngames > STANDINGS_MAX_GAMES || (ev->ngames > 0 && !ev->games))
		return STANDINGS_EINVAL;
	if (ev->nbyes < 0 || ev->nbyes > STANDINGS_MAX_BYES || (ev->nbyes > 0 && !ev->byes))
		return STANDINGS_EINVAL;
	if (ev->rounds_played < 0 || ev->rounds_played > EVENT_MAX_ROUNDS ||
			ev->rounds_planned < 0 || ev->rounds_planned > EVENT_MAX_ROUNDS)
		return STANDINGS_EINVAL;
	if (ev->bye_points < 0 || ev->bye_points > STANDINGS_BYE_POINTS_MAX ||
			ev->absent_points < 0 || ev->absent_points > ev->bye_points)
		return STANDINGS_EINVAL;
	if (!credit_valid(ev->mms_bye) || !credit_valid(ev->mms_absent) ||
			ev->mcmahon_floor < RANK_MIN || ev->mcmahon_bar > RANK_MAX ||
			ev->mcmahon_floor > ev->mcmahon_bar)
		return STANDINGS_EINVAL;
	for (i = 0; i < ev->nplayers; i++) {
		const struct event_player *p = &ev->players[i];

		if (p->rank < RANK_MIN || p->rank > RANK_MAX || !isfinite(p->rating) ||
				p->withdrawn_after < 0 || p->withdrawn_after > EVENT_MAX_ROUNDS)
			return STANDINGS_EINVAL;
	}
	if (ev->nplayers > 0) {
		seen = calloc((size_t)ev->nplayers * EVENT_MAX_ROUNDS, 1);
		if (!seen)
			return STANDINGS_ENOMEM;
	}
	for (i = 0; i < ev->ngames; i++) {
		const struct event_game *g = &ev->games[i];

		if (g->round < 1 || g->round > EVENT_MAX_ROUNDS || g->black < 0 ||
				g->black >= ev->nplayers || g->white < 0 || g->white >= ev->nplayers ||
				g->black == g->white || !result_valid(g->result) || g->handicap < 0 ||
				g->handicap > STANDINGS_HANDICAP_MAX || g->black_warnings < 0 ||
				g->black_warnings > STANDINGS_GAME_WARNINGS_MAX ||
				g->white_warnings < 0 ||
				g->white_warnings > STANDINGS_GAME_WARNINGS_MAX)
			goto out;
		if (g->result == RESULT_VOID)
			continue;
		if (!take_slot(seen, g->black, g->round) || !take_slot(seen, g->white, g->round))
			goto out;
	}
	for (i = 0; i < ev->nbyes; i++) {
		const struct event_bye *b = &ev->byes[i];

		if (b->round < 1 || b->round > EVENT_MAX_ROUNDS || b->player < 0 ||
				b->player >= ev->nplayers || !take_slot(seen, b->player, b->round))
			goto out;
	}
	err = STANDINGS_OK;
out:
	free(seen);
	return err;
}

int standings_mms_start(const struct event *ev, int player)
{
	int r = ev->players[player].rank;

	if (r < ev->mcmahon_floor)
		r = ev->mcmahon_floor;
	if (r > ev->mcmahon_bar)
		r = ev->mcmahon_bar;
	return r + STANDINGS_MMS_OFFSET;
}

/* ---- standings_compute ---- */

struct pstat {
	bool active;        /* not withdrawn before the start */
	int points, wins, draws, losses, byes, warnings;
	int absent;         /* rounds without a game or bye, before any withdrawal */
	int elim_round;     /* knockout: round of elimination, 0 = not eliminated */
	int ko_losses;
	double start;       /* start score: start MMS in McMahon, else 0 */
	double value;       /* the score opponents see: MMS in McMahon, else points */
	double mms, score, sos, sosos, sodos;
	double sos1, sos2, mos, cuss;
};

struct ctx {
	const struct event *ev;
	int R;              /* rounds counted */
	struct pstat *ps;
	int *slot;          /* nplayers * R: game index, SLOT_BYE or SLOT_EMPTY */
};

static int *slot_at(const struct ctx *c, int player, int round)
{
	return &c->slot[(size_t)player * (size_t)c->R + (size_t)(round - 1)];
}

/* A game that counts at all: in the rounds counted, not void, both players in the event. */
static bool game_counts(const struct ctx *c, const struct event_game *g)
{
	return g->round <= c->R && g->result != RESULT_VOID && c->ps[g->black].active &&
		c->ps[g->white].active;
}

/* Played over the board with a final result (the only games tie-breaks look at). A double
 * loss is not: like a forfeit, the round is unplayed for the tie-breaks of both (the virtual
 * opponent in SOS), as the h9 writes it (`0-` for both, EGF's unplayed round) and as OpenGotha
 * reads that file; counted as played, an h9's SOS column could not be had from its own rows. */
static bool over_the_board(enum event_result r)
{
	return r == RESULT_BLACK_WIN || r == RESULT_WHITE_WIN || r == RESULT_DRAW;
}

/* Outcome for `player` in game g: 2 win, 1 draw, 0 loss, -1 unfinished. */
static int outcome_for(const struct event_game *g, int player)
{
	bool black = g->black == player;

	switch (g->result) {
	case RESULT_BLACK_WIN:
	case RESULT_BLACK_FORFEIT_WIN:
		return black ? 2 : 0;
	case RESULT_WHITE_WIN:
	case RESULT_WHITE_FORFEIT_WIN:
		return black ? 0 : 2;
	case RESULT_DRAW:
		return 1;
	case RESULT_DOUBLE_LOSS:
		return 0;
	default:
		return -1;
	}
}

static int opponent_of(const struct event_game *g, int player)
{
	return g->black == player ? g->white : g->black;
}

static void tally(struct ctx *c)
{
	const struct event *ev = c->ev;
	int limit = ev->elimination_losses > 0 ? ev->elimination_losses :
		    ev->double_elimination ? 2 : 1;
	int i, r;

	for (i = 0; i < ev->nplayers; i++) {
		c->ps[i].active = !ev->players[i].withdrawn_before_start;
		for (r = 1; r <= c->R; r++)
			*slot_at(c, i, r) = SLOT_EMPTY;
	}
	for (i = 0; i < ev->ngames; i++) {
		const struct event_game *g = &ev->games[i];

		if (!game_counts(c, g))
			continue;
		*slot_at(c, g->black, g->round) = i;
		*slot_at(c, g->white, g->round) = i;
		c->ps[g->black].warnings += g->black_warnings;
		c->ps[g->white].warnings += g->white_warnings;
	}
	for (i = 0; i < ev->nbyes; i++) {
		const struct event_bye *b = &ev->byes[i];
		int wd = ev->players[b->player].withdrawn_after;

		/* a round after the player's withdrawal earns nothing, a bye the schedule still
		 * gave them (a round robin's Berger table) included */
		if (b->round <= c->R && c->ps[b->player].active && !(wd > 0 && b->round > wd))
			*slot_at(c, b->player, b->round) = SLOT_BYE;
	}
	for (i = 0; i < ev->nplayers; i++) {
		struct pstat *p = &c->ps[i];
		int wd = ev->players[i].withdrawn_after;

		if (!p->active)
			continue;
		for (r = 1; r <= c->R; r++) {
			int s = *slot_at(c, i, r), o;

			if (s == SLOT_BYE) {
				p->byes++;
				continue;
			}
			if (s == SLOT_EMPTY) {
				if (wd == 0 || r <= wd)
					p->absent++;
				continue;
			}
			o = outcome_for(&ev->games[s], i);
			if (o == 2)
				p->wins++;
			else if (o == 1)
				p->draws++;
			else if (o == 0)
				p->losses++;
			if (o == 0 && ++p->ko_losses == limit && p->elim_round == 0)
				p->elim_round = r;
		}
		if (p->elim_round == 0 && wd > 0 && wd < c->R)
			p->elim_round = wd + 1;
		p->points = STANDINGS_WIN_POINTS * p->wins + STANDINGS_DRAW_POINTS * p->draws +
			ev->bye_points * p->byes + ev->absent_points * p->absent;
		p->mms = standings_mms_start(ev, i) + p->wins + 0.5 * p->draws +
			ev->mms_bye * p->byes + ev->mms_absent * p->absent;
		if (ev->system == SYSTEM_MCMAHON) {
			p->start = standings_mms_start(ev, i);
			p->value = p->mms;
			p->score = p->mms;
		} else {
			p->value = p->points;
			p->score = p->points;
			if (ev->system == SYSTEM_KNOCKOUT)
				p->score = p->elim_round ? p->elim_round - 1 : c->R;
		}
	}
}

/* CUSS: the sum over rounds r = 1..R of the player's score after round r (points, or MMS in
 * McMahon), i.e. R x start + the sum of each round's gain times the rounds it stays counted. */
static void cumulative(struct ctx *c)
{
	const struct event *ev = c->ev;
	bool mcmahon = ev->system == SYSTEM_MCMAHON;
	int i, r;

	for (i = 0; i < ev->nplayers; i++) {
		struct pstat *p = &c->ps[i];
		int wd = ev->players[i].withdrawn_after;

		if (!p->active)
			continue;
		p->cuss = c->R * p->start;
		for (r = 1; r <= c->R; r++) {
			int s = *slot_at(c, i, r), o;
			double gain = 0.0;

			if (s == SLOT_BYE) {
				gain = mcmahon ? ev->mms_bye : ev->bye_points;
			} else if (s == SLOT_EMPTY) {
				if (mcmahon && (wd == 0 || r <= wd))
					gain = ev->mms_absent;
			} else {
				o = outcome_for(&ev->games[s], i);
				if (o == 2)
					gain = mcmahon ? 1.0 : STANDINGS_WIN_POINTS;
				else if (o == 1)
					gain = mcmahon ? 0.5 : STANDINGS_DRAW_POINTS;
			}
			p->cuss += gain * (c->R - r + 1);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* SOS-1, SOS-2 and MOS from one value per round (sorted here). */
static void sos_cuts(struct pstat *p, double *vals, int n)
{
	double sum = 0.0;
	int k;

	qsort(vals, (size_t)n, sizeof *vals, cmp_double);
	for (k = 0; k < n; k++)
		sum += vals[k];
	p->sos1 = n >= 1 ? sum - vals[0] : 0.0;
	p->sos2 = n >= 2 ? sum - vals[0] - vals[1] : 0.0;
	p->mos = n >= 2 ? sum - vals[0] - vals[n - 1] : 0.0;
}

/* SOS and SODOS, then SOSOS (it needs every SOS). */
static void opponents(struct ctx *c)
{
	const struct event *ev = c->ev;
	int i, r, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < ev->nplayers; i++) {
			struct pstat *p = &c->ps[i];
			double vals[EVENT_MAX_ROUNDS];

			if (!p->active)
				continue;
			for (r = 1; r <= c->R; r++) {
				int s = *slot_at(c, i, r), opp;
				const struct event_game *g;

				if (s < 0 || !over_the_board(ev->games[s].result)) {
					/* Unplayed: the virtual opponent frozen at our start score. */
					vals[r - 1] = p->start;
					if (pass == 0)
						p->sos += p->start;
					else
						p->sosos += c->R * p->start;
					continue;
				}
				g = &ev->games[s];
				opp = opponent_of(g, i);
				vals[r - 1] = c->ps[opp].value;
				if (pass == 0) {
					int o = outcome_for(g, i);

					p->sos += c->ps[opp].value;
					if (o == 2)
						p->sodos += c->ps[opp].value;
					else if (o == 1)
						p->sodos += c->ps[opp].value / 2.0;
				} else {
					p->sosos += c->ps[opp].sos;
				}
			}
			if (pass == 0)
				sos_cuts(p, vals, c->R);
		}
	}
}

struct sortrow {
	double key[1 + STANDINGS_MAX_TIEBREAKS]; /* higher is better */
	int nkeys;
	int seed;
	struct standing row;
};

static double criterion_value(const struct ctx *c, int player, int tb)
{
	const struct pstat *p = &c->ps[player];

	switch (tb) {
	case TIEBREAK_PTS: return p->points;
	case TIEBREAK_MMS: return p->mms;
	case TIEBREAK_KO: return p->elim_round ? p->elim_round - 1 : c->R;
	case TIEBREAK_SOS: return p->sos;
	case TIEBREAK_SOSOS: return p->sosos;
	case TIEBREAK_SODOS: return p->sodos;
	case TIEBREAK_WARN: return p->warnings;
	case TIEBREAK_SEED: return c->ev->players[player].seed + 1; /* shown 1-based: seed 1 is the top */
	case TIEBREAK_SOS1: return p->sos1;
	case TIEBREAK_SOS2: return p->sos2;
	case TIEBREAK_MOS: return p->mos;
	case TIEBREAK_CUSS: return p->cuss;
	default: return 0.0; /* DE: computed separately */
	}
}

static bool lower_is_better(int tb)
{
	return tb == TIEBREAK_WARN || tb == TIEBREAK_SEED;
}

static bool same(double a, double b)
{
	return fabs(a - b) <= STANDINGS_EPSILON;
}

/* Equal on the main score and on keys 1..k (the first k tie-breaks). */
static bool tied_before(const struct sortrow *a, const struct sortrow *b, int k)
{
	int j;

	for (j = 0; j <= k; j++)
		if (!same(a->key[j], b->key[j]))
			return false;
	return true;
}

static int cmp_rows(const void *pa, const void *pb)
{
	const struct sortrow *a = pa, *b = pb;
	int j;

	for (j = 0; j < a->nkeys; j++) {
		if (same(a->key[j], b->key[j]))
			continue;
		return a->key[j] > b->key[j] ? -1 : 1;
	}
	if (a->seed != b->seed)
		return a->seed < b->seed ? -1 : 1;
	return (a->row.player > b->row.player) - (a->row.player < b->row.player);
}

/* Direct encounter as tie-break number k: points scored against players equal on every
 * key before it. by_player maps a player index to its sort row (or NULL). */
static void direct_encounter(const struct ctx *c, struct sortrow **by_player, int k)
{
	const struct event *ev = c->ev;
	int i;

	for (i = 0; i < ev->ngames; i++) {
		const struct event_game *g = &ev->games[i];
		struct sortrow *b, *w;

		if (!game_counts(c, g) || !over_the_board(g->result))
			continue;
		b = by_player[g->black];
		w = by_player[g->white];
		if (!tied_before(b, w, k))
			continue;
		b->key[k + 1] += outcome_for(g, g->black);
		w->key[k + 1] += outcome_for(g, g->white);
	}
	for (i = 0; i < ev->nplayers; i++)
		if (by_player[i])
			by_player[i]->row.tiebreak[k] = by_player[i]->key[k + 1];
}

int standings_compute(const struct event *ev, int after_round, const char *const *tiebreaks,
		int ntb, struct standing *out)
{
	struct ctx c = { 0 };
	struct sortrow *rows = NULL, **by_player = NULL;
	int tb[STANDINGS_MAX_TIEBREAKS];
	int i, j, n = 0, err;

	if (!out)
		return STANDINGS_EINVAL;
	err = standings_validate(ev);
	if (err)
		return err;
	if (after_round < 0 || after_round > ev->rounds_played)
		return STANDINGS_EINVAL;
	if (!tiebreaks)
		ntb = standings_default_tiebreaks(ev->system, &tiebreaks);
	if (ntb < 0 || ntb > STANDINGS_MAX_TIEBREAKS)
		return STANDINGS_EINVAL;
	for (j = 0; j < ntb; j++) {
		tb[j] = standings_tiebreak_parse(tiebreaks[j]);
		if (tb[j] < 0)
			return STANDINGS_EUNKNOWN;
	}
	if (ev->nplayers == 0)
		return 0;

	c.ev = ev;
	c.R = after_round ? after_round : ev->rounds_played;
	err = STANDINGS_ENOMEM;
	c.ps = calloc((size_t)ev->nplayers, sizeof *c.ps);
	c.slot = malloc((size_t)ev->nplayers * (size_t)(c.R ? c.R : 1) * sizeof *c.slot);
	rows = calloc((size_t)ev->nplayers, sizeof *rows);
	by_player = calloc((size_t)ev->nplayers, sizeof *by_player);
	if (!c.ps || !c.slot || !rows || !by_player)
		goto out;

	tally(&c);
	opponents(&c);
	cumulative(&c);

	for (i = 0; i < ev->nplayers; i++) {
		const struct pstat *p = &c.ps[i];
		struct sortrow *s;

		if (!p->active)
			continue;
		s = &rows[n++];
		by_player[i] = s;
		s->nkeys = 1 + ntb;
		s->seed = ev->players[i].seed;
		s->key[0] = p->score;
		s->row.player = i;
		s->row.score = p->score;
		s->row.points = p->points;
		s->row.wins = p->wins;
		s->row.draws = p->draws;
		s->row.losses = p->losses;
		s->row.byes = p->byes;
		s->row.warnings = p->warnings;
		s->row.ntiebreaks = ntb;
		for (j = 0; j < ntb; j++) {
			double v = criterion_value(&c, i, tb[j]);

			s->row.tiebreak[j] = v;
			s->key[j + 1] = lower_is_better(tb[j]) ? -v : v;
		}
	}
	/* DE depends on the keys before it, so fill each DE key in list order. */
	for (j = 0; j < ntb; j++)
		if (tb[j] == TIEBREAK_DE)
			direct_encounter(&c, by_player, j);

	qsort(rows, (size_t)n, sizeof *rows, cmp_rows);
	for (i = 0; i < n; i++) {
		rows[i].row.place = (i > 0 && tied_before(&rows[i], &rows[i - 1], ntb)) ?
			rows[i - 1].row.place : i + 1;
		out[i] = rows[i].row;
	}
	err = n;
out:
	free(c.ps);
	free(c.slot);
	free(rows);
	free(by_player);
	return err;
}

/* ---- Art. 28 ---- */

int standings_apply_withdrawals(struct event *ev)
{
	bool *voided = NULL;
	int i, nactive = 0, legs, scheduled, changed = 0, err;

	err = standings_validate(ev);
	if (err)
		return err;
	if (ev->nplayers == 0)
		return 0;
	voided = calloc((size_t)ev->nplayers, sizeof *voided);
	if (!voided)
		return STANDINGS_ENOMEM;

	for (i = 0; i < ev->nplayers; i++)
		if (!ev->players[i].withdrawn_before_start)
			nactive++;
	legs = ev->system == SYSTEM_DOUBLE_ROUND_ROBIN ? 2 : 1;
	scheduled = nactive > 0 ? (nactive - 1) * legs : 0;

	/* Decide first, on counts no change below can alter (void results count as played),
	 * so the outcome does not depend on the order of the players and a second call changes
	 * nothing. */
	for (i = 0; i < ev->nplayers; i++) {
		const struct event_player *p = &ev->players[i];
		int k, played = 0;

		if (p->withdrawn_before_start) {
			voided[i] = true;
			continue;
		}
		if (p->withdrawn_after == 0 || !is_round_robin(ev->system))
			continue;
		for (k = 0; k < ev->ngames; k++) {
			const struct event_game *g = &ev->games[k];

			if ((g->black == i || g->white == i) && g->round <= p->withdrawn_after &&
					g->result != RESULT_NONE)
				played++;
		}
		voided[i] = 2 * played < scheduled;
	}

	for (i = 0; i < ev->ngames; i++) {
		struct event_game *g = &ev->games[i];
		int wb = ev->players[g->black].withdrawn_after;
		int ww = ev->players[g->white].withdrawn_after;
		bool b_gone = wb > 0 && g->round > wb, w_gone = ww > 0 && g->round > ww;
		enum event_result to = g->result;

		if (voided[g->black] || voided[g->white])
			to = RESULT_VOID;
		else if (g->result == RESULT_NONE && b_gone && w_gone)
			to = RESULT_DOUBLE_LOSS;
		else if (g->result == RESULT_NONE && b_gone)
			to = RESULT_WHITE_FORFEIT_WIN;
		else if (g->result == RESULT_NONE && w_gone)
			to = RESULT_BLACK_FORFEIT_WIN;
		if (to != g->result) {
			g->result = to;
			changed++;
		}
	}
	free(voided);
	return changed;
}

const char *standings_strerror(int err)
{
	switch (err) {
	case STANDINGS_OK: return "ok";
	case STANDINGS_EINVAL: return "invalid argument or inconsistent event";
	case STANDINGS_ENOMEM: return "out of memory";
	case STANDINGS_EUNKNOWN: return "unknown tie-break";
	default: return "unknown error";
	}
}
