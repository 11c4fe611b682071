/* arena: the arena team match (see arena.h). */
#include "arena.h"

#include <string.h>

int arena_init(struct arena *a, int size0, int size1, enum arena_draw draw, bool t0_black_first)
{
	if (!a || size0 < 1 || size0 > ARENA_MAX_PLAYERS || size1 < 1 ||
	    size1 > ARENA_MAX_PLAYERS || (draw != ARENA_DRAW_BOTH_OUT && draw != ARENA_DRAW_REPLAY))
		return ARENA_EINVAL;
	memset(a, 0, sizeof *a);
	a->size[0] = size0;
	a->size[1] = size1;
	a->draw = draw;
	a->t0_black_first = t0_black_first;
	a->winner = -1;
	return ARENA_OK;
}

static bool t0_black(const struct arena *a)
{
	return (a->games % 2 == 0) == a->t0_black_first;
}

int arena_next(const struct arena *a, int *player0, int *player1, bool *t0_black_out)
{
	if (!a || !player0 || !player1 || !t0_black_out)
		return ARENA_EINVAL;
	if (a->winner >= 0)
		return ARENA_EOVER;
	*player0 = a->next[0];
	*player1 = a->next[1];
	*t0_black_out = t0_black(a);
	return ARENA_OK;
}

int arena_record(struct arena *a, enum event_result r)
{
	int won = -1; /* the team that won the game: 0, 1; -1 none */
	bool both_out = false;

	if (!a || (unsigned)r > RESULT_VOID)
		return ARENA_EINVAL;
	if (a->winner >= 0)
		return ARENA_EOVER;
	if (a->games >= ARENA_MAX_GAMES)
		return ARENA_ELIMIT;
	int black = t0_black(a) ? 0 : 1;
	switch (r) {
	case RESULT_NONE:
		return ARENA_EPENDING;
	case RESULT_BLACK_WIN:
	case RESULT_BLACK_FORFEIT_WIN:
		won = black;
		break;
	case RESULT_WHITE_WIN:
	case RESULT_WHITE_FORFEIT_WIN:
		won = 1 - black;
		break;
	case RESULT_DRAW:
		both_out = a->draw == ARENA_DRAW_BOTH_OUT;
		break;
	case RESULT_DOUBLE_LOSS:
		both_out = true;
		break;
	default: /* void: replayed */
		break;
	}
	a->games++;
	if (won >= 0) {
		a->wins[won][a->next[won]]++;
		a->next[1 - won]++;
	} else if (both_out) {
		a->next[0]++;
		a->next[1]++;
	}
	bool out0 = a->next[0] >= a->size[0], out1 = a->next[1] >= a->size[1];
	if (out0 && out1)
		a->winner = 2;
	else if (out0)
		a->winner = 1;
	else if (out1)
		a->winner = 0;
	return ARENA_OK;
}

const char *arena_strerror(int err)
{
	switch (err) {
	case ARENA_OK:
		return "ok";
	case ARENA_EINVAL:
		return "invalid arena match or argument";
	case ARENA_EOVER:
		return "the arena match is already decided";
	case ARENA_ELIMIT:
		return "too many games in the arena match";
	case ARENA_EPENDING:
		return "a game has no result yet";
	default:
		return "unknown arena error";
	}
}
