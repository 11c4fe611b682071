/* capture: the prediction ruleset's removal rule on common/board. See capture.h. */
#include <string.h>
#include "board_int.h"
#include "capture.h"

static inline int nbr(const struct board *b, int pt, int k)
{
	return k == 0 ? pt - 1 : k == 1 ? pt + 1 : k == 2 ? pt - b->stride : pt + b->stride;
}

/* The chain at head h has exactly one liberty (all its pseudo-liberties are one point). */
static bool one_liberty(const struct board *b, int h)
{
	return b->plibs[h] > 0 &&
	       (int64_t)b->plibs[h] * b->lsum2[h] == (int64_t)b->lsum[h] * b->lsum[h];
}

/* Add head h to heads[*n] unless there. */
static void add_head(int *heads, int *n, int h)
{
	for (int i = 0; i < *n; i++)
		if (heads[i] == h)
			return;
	heads[(*n)++] = h;
}

/* The chains c at pt leaves without liberties: the opponent's (opp, up to 4) and the mover's
 * own that the new stone joins (own, up to 4), and whether the new chain has no liberty. */
static void analyse(const struct board *b, enum color c, int pt, int *opp, int *nopp, int *own,
		    int *nown, bool *own_dead)
{
	enum color o = color_other(c);
	bool alive = false;
	*nopp = *nown = 0;
	for (int k = 0; k < 4; k++) {
		int n = nbr(b, pt, k);
		enum color s = board_at(b, n);
		if (s == EMPTY) {
			alive = true;
		} else if (s == o) {
			if (one_liberty(b, b->head[n]))
				add_head(opp, nopp, b->head[n]);
		} else if (s == c) {
			add_head(own, nown, b->head[n]);
			if (!one_liberty(b, b->head[n]))
				alive = true;
		}
	}
	*own_dead = !alive;
}

/* The board after removing the chains heads[0..n) (and placing c at pt unless own): its
 * stones into after[], its hash returned. */
static uint64_t after_of(const struct board *b, enum color c, int pt, const int *heads, int n,
			 bool own, uint8_t *after)
{
	uint64_t h = b->hash;
	memcpy(after, b->stone, (size_t)(b->stride * b->stride));
	for (int i = 0; i < n; i++) {
		int s = heads[i];
		h ^= b->chash[heads[i]];
		do {
			after[s] = EMPTY;
			s = b->next[s];
		} while (s != heads[i]);
	}
	if (!own) {
		after[pt] = (uint8_t)c;
		h ^= board_int_zobrist(c, pt);
	}
	return h;
}

void capture_check(const struct board *b, enum color c, int pt, enum capture_choice choice,
		   struct capture_move *out)
{
	int opp[4], own[4], nopp, nown;
	out->opp_dead = out->own_dead = false;
	out->removed = EMPTY;
	out->ncaptured = 0;
	if ((c != BLACK && c != WHITE) || !board_on(b, pt)) {
		out->status = BOARD_BADPOINT;
		return;
	}
	if (board_at(b, pt) != EMPTY) {
		out->status = BOARD_OCCUPIED;
		return;
	}
	analyse(b, c, pt, opp, &nopp, own, &nown, &out->own_dead);
	out->opp_dead = nopp > 0;
	/* Art. 4: only the opponent's -> theirs; only one's own -> one's own; both -> the choice */
	bool take_own = out->own_dead && (!out->opp_dead || choice == CAPTURE_OWN);
	if (take_own)
		out->removed = c;
	else if (out->opp_dead)
		out->removed = color_other(c);
	uint8_t after[BOARD_POINTS_MAX];
	uint64_t h = take_own ? after_of(b, c, pt, own, nown, true, after)
			      : after_of(b, c, pt, opp, nopp, false, after);
	/* Art. 5.4: no earlier whole-board position may recur (positional) */
	out->status = board_int_seen(b, h, after, color_other(c), KO_POSITIONAL) ? BOARD_SUPERKO
										 : BOARD_OK;
}

/* The mover's chains heads[0..n) and the stone at pt are removed: the board's history
 * records an own removal. Returns BOARD_OK, or BOARD_BADPOINT when memory runs out (nothing
 * changed). */
static enum board_status play_own(struct board *b, enum color c, int pt, const int *heads, int n,
				  struct capture_move *out)
{
	size_t need = b->ncaplog;
	for (int i = 0; i < n; i++)
		need += (size_t)b->csize[heads[i]];
	if (board_int_caplog_reserve(b, need) < 0)
		return BOARD_BADPOINT;
	size_t cap0 = b->ncaplog;
	out->captured[0] = pt;
	out->ncaptured = 1;
	for (int i = 0; i < n; i++)
		out->ncaptured += board_int_chain_remove(b, heads[i], out->captured + out->ncaptured);
	for (int i = 1; i < out->ncaptured; i++)
		b->caplog[b->ncaplog++] = (int16_t)out->captured[i];
	/* the placed stone counts too: GNU Go (with suicide allowed) removes the whole chain */
	b->captures[color_other(c)] += out->ncaptured;
	b->ko_point = BOARD_PASS;
	b->to_move = color_other(c);
	b->passes = 0;
	if (board_int_hist_push(b, pt, c) < 0)
		return BOARD_BADPOINT;
	b->hist[b->nhist - 1].cap0 = (uint32_t)cap0;
	b->hist[b->nhist - 1].own = 1;
	return BOARD_OK;
}

enum board_status capture_play(struct board *b, enum color c, int pt, enum capture_choice choice,
			       struct capture_move *out)
{
	if (pt == BOARD_PASS) {
		memset(out, 0, sizeof *out);
		out->status = board_play(b, c, BOARD_PASS, NULL, NULL);
		return out->status;
	}
	capture_check(b, c, pt, choice, out);
	if (out->status != BOARD_OK)
		return out->status;
	if (out->removed == c) {
		int opp[4], own[4], nopp, nown;
		bool own_dead;
		analyse(b, c, pt, opp, &nopp, own, &nown, &own_dead);
		out->status = play_own(b, c, pt, own, nown, out);
		return out->status;
	}
	/* Nothing removed, or the opponent's chains: the board's own move (its judge agrees:
	 * the stone has a liberty once they are gone, and the position is new). */
	enum ko_rule saved = b->ko_rule;
	b->ko_rule = KO_SIMPLE; /* repetition already judged above (positional) */
	b->ko_point = BOARD_PASS;
	enum board_status st = board_play(b, c, pt, out->captured, &out->ncaptured);
	b->ko_rule = saved;
	out->status = st;
	return st;
}

static const char *const choice_names[] = {"opponent", "own"};

int capture_choice_parse(const char *s, enum capture_choice *out)
{
	for (int i = 0; s && i < 2; i++)
		if (strcmp(s, choice_names[i]) == 0) {
			*out = (enum capture_choice)i;
			return 0;
		}
	return -1;
}

const char *capture_choice_name(enum capture_choice c)
{
	return (unsigned)c < 2 ? choice_names[c] : "?";
}
