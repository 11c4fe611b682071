/* bestof: best-of-N matches (see bestof.h). */
#include "bestof.h"

#include <string.h>

int bestof_init(struct bestof *m, int n, enum bestof_draw draw, bool a_black_first)
{
	if (!m || n < BESTOF_MIN_GAMES || n > BESTOF_MAX_GAMES || n % 2 == 0 ||
	    (draw != BESTOF_DRAW_REPLAY && draw != BESTOF_DRAW_HALF))
		return BESTOF_EINVAL;
	memset(m, 0, sizeof *m);
	m->n = n;
	m->draw = draw;
	m->a_black_first = a_black_first;
	m->winner = -1;
	return BESTOF_OK;
}

bool bestof_a_black_next(const struct bestof *m)
{
	return (m->games % 2 == 0) == m->a_black_first;
}

/* Set m->winner if the match is decided. */
static void decide(struct bestof *m)
{
	if (m->score_a > m->n)
		m->winner = 0;
	else if (m->score_b > m->n)
		m->winner = 1;
	else if (m->counted >= m->n && m->score_a != m->score_b)
		m->winner = m->score_a > m->score_b ? 0 : 1;
}

int bestof_record(struct bestof *m, enum event_result r)
{
	int a = 0, b = 0;
	bool counts = true;

	if (!m || (unsigned)r > RESULT_VOID)
		return BESTOF_EINVAL;
	if (m->winner >= 0)
		return BESTOF_EOVER;
	if (m->games >= m->n + BESTOF_MAX_EXTRA)
		return BESTOF_ELIMIT;
	bool a_black = bestof_a_black_next(m);
	int *black = a_black ? &a : &b, *white = a_black ? &b : &a;
	switch (r) {
	case RESULT_NONE:
		return BESTOF_EPENDING;
	case RESULT_BLACK_WIN:
	case RESULT_BLACK_FORFEIT_WIN:
		*black = 2;
		break;
	case RESULT_WHITE_WIN:
	case RESULT_WHITE_FORFEIT_WIN:
		*white = 2;
		break;
	case RESULT_DRAW:
		a = b = 1;
		counts = m->draw == BESTOF_DRAW_HALF;
		break;
	case RESULT_DOUBLE_LOSS:
		counts = m->draw == BESTOF_DRAW_HALF;
		break;
	default: /* void: replayed */
		counts = false;
		break;
	}
	m->games++;
	if (counts) {
		m->counted++;
		m->score_a += a;
		m->score_b += b;
	}
	decide(m);
	return BESTOF_OK;
}

static bool between(const struct event_game *x, int round, int a, int b)
{
	return x->round == round &&
		((x->black == a && x->white == b) || (x->black == b && x->white == a));
}

int bestof_replay(const struct event *ev, int round, int a, int b, int n,
		enum bestof_draw draw, struct bestof *m)
{
	bool first = true;
	int ret;

	if (!ev || !m || (ev->ngames > 0 && !ev->games) || a == b)
		return BESTOF_EINVAL;
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		if (!between(x, round, a, b))
			continue;
		if (first) {
			ret = bestof_init(m, n, draw, x->black == a);
			if (ret)
				return ret;
			first = false;
		}
		if (x->result == RESULT_NONE)
			break;
		if ((x->black == a) != bestof_a_black_next(m))
			return BESTOF_EINVAL;
		ret = bestof_record(m, x->result);
		if (ret)
			return ret;
	}
	return first ? bestof_init(m, n, draw, true) : BESTOF_OK;
}

/* Did player p win a game of x's match (x's round, x's two players) at the board? */
static bool won_at_board(const struct event *ev, const struct event_game *x, int p)
{
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *y = &ev->games[g];
		if (y->round != x->round || !((y->black == x->black && y->white == x->white) ||
					      (y->black == x->white && y->white == x->black)))
			continue;
		if ((y->result == RESULT_BLACK_WIN && y->black == p) ||
		    (y->result == RESULT_WHITE_WIN && y->white == p))
			return true;
	}
	return false;
}

int bestof_reduce(const struct event *ev, int n, enum bestof_draw draw, struct event_game *out,
		int *nout)
{
	int k = 0;

	if (!ev || !out || !nout || ev->ngames < 0 || (ev->ngames > 0 && !ev->games))
		return BESTOF_EINVAL;
	for (int g = 0; g < ev->ngames; g++) {
		const struct event_game *x = &ev->games[g];
		bool seen = false;
		for (int i = 0; i < k && !seen; i++)
			seen = between(&out[i], x->round, x->black, x->white);
		if (seen)
			continue;
		struct bestof m;
		int ret = bestof_replay(ev, x->round, x->black, x->white, n, draw, &m);
		if (ret)
			return ret;
		memset(&out[k], 0, sizeof out[k]);
		out[k].round = x->round;
		out[k].black = x->black;
		out[k].white = x->white;
		out[k].result = m.winner < 0 ? RESULT_NONE :
			m.winner == 0 ? RESULT_BLACK_WIN : RESULT_WHITE_WIN;
		/* a match its winner won by forfeits only was not won at the board: a forfeit win
		 * (unplayed in SOS and SODOS, `!` in the h9, which the EGD does not rate) */
		if (m.winner >= 0 && !won_at_board(ev, x, m.winner == 0 ? x->black : x->white))
			out[k].result = m.winner == 0 ? RESULT_BLACK_FORFEIT_WIN : RESULT_WHITE_FORFEIT_WIN;
		k++;
	}
	*nout = k;
	return BESTOF_OK;
}

const char *bestof_strerror(int err)
{
	switch (err) {
	case BESTOF_OK:
		return "ok";
	case BESTOF_EINVAL:
		return "invalid match or argument";
	case BESTOF_EOVER:
		return "the match is already decided";
	case BESTOF_ELIMIT:
		return "too many games without a decision";
	case BESTOF_EPENDING:
		return "a game has no result yet";
	default:
		return "unknown best-of error";
	}
}
