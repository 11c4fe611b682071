/* board: the Go board and the rules of play. See board.h. */
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "board_int.h"

#define HIST_INITIAL 64
#define SEEN_INITIAL 256 /* power of two; grows (doubling) as a game goes on */
#define CAPLOG_INITIAL 256

static uint64_t zobrist[3][BOARD_POINTS_MAX];
static bool zobrist_ready;

/* splitmix64: a fixed, well-mixed sequence, so hashes are the same in every process. */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void zobrist_init(void)
{
	uint64_t s = 0x74656e67656eULL; /* "tengen" */
	if (zobrist_ready)
		return;
	for (int c = 0; c < 3; c++)
		for (int p = 0; p < BOARD_POINTS_MAX; p++)
			zobrist[c][p] = c == EMPTY ? 0 : splitmix64(&s);
	zobrist_ready = true;
}

/* ---- the set of position hashes seen ---- */

static uint64_t seen_key(uint64_t h)
{
	h ^= 0x5bd1e9955bd1e995ULL;
	return h ? h : 1; /* 0 marks an empty slot; a remapped key only costs a confirming scan */
}

static int seen_insert_raw(uint64_t *tab, size_t cap, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (cap - 1);
	while (tab[i]) {
		if (tab[i] == key)
			return 0;
		i = (i + 1) & (cap - 1);
	}
	tab[i] = key;
	return 1;
}

static int seen_add(struct board *b, uint64_t hash)
{
	if ((b->seen_n + 1) * 2 > b->seen_cap) {
		size_t ncap = b->seen_cap * 2;
		uint64_t *nt = calloc(ncap, sizeof *nt);
		if (!nt)
			return -1;
		for (size_t i = 0; i < b->seen_cap; i++)
			if (b->seen[i])
				seen_insert_raw(nt, ncap, b->seen[i]);
		free(b->seen);
		b->seen = nt;
		b->seen_cap = ncap;
	}
	b->seen_n += (size_t)seen_insert_raw(b->seen, b->seen_cap, seen_key(hash));
	return 0;
}

static bool seen_has(const struct board *b, uint64_t hash)
{
	uint64_t key = seen_key(hash);
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (b->seen_cap - 1);
	while (b->seen[i]) {
		if (b->seen[i] == key)
			return true;
		i = (i + 1) & (b->seen_cap - 1);
	}
	return false;
}

/* ---- history ---- */

static int hist_push(struct board *b, int pt, enum color c)
{
	if (b->nhist == b->caphist) {
		size_t ncap = b->caphist ? b->caphist * 2 : HIST_INITIAL;
		struct board_hist *nh = realloc(b->hist, ncap * sizeof *nh);
		if (!nh)
			return -1;
		b->hist = nh;
		b->caphist = ncap;
	}
	if (seen_add(b, b->hash) < 0)
		return -1;
	b->hist[b->nhist++] = (struct board_hist){.hash = b->hash, .pt = pt, .color = (uint8_t)c,
		.to_move = (uint8_t)b->to_move, .cap0 = (uint32_t)b->ncaplog};
	return 0;
}

int board_int_hist_push(struct board *b, int pt, enum color c)
{
	return hist_push(b, pt, c);
}

/* Make room for `need` entries in the capture log. Returns 0 or -1 (no memory). */
static int caplog_grow(struct board *b, size_t need)
{
	size_t ncap = b->capcaplog ? b->capcaplog : CAPLOG_INITIAL;
	while (ncap < need)
		ncap *= 2;
	int16_t *nl = realloc(b->caplog, ncap * sizeof *nl);
	if (!nl)
		return -1;
	b->caplog = nl;
	b->capcaplog = ncap;
	return 0;
}

int board_int_caplog_reserve(struct board *b, size_t need)
{
	return need > b->capcaplog ? caplog_grow(b, need) : 0;
}

/* ---- set-up ---- */

/* Point the per-point arrays and `setup` into b->mem (laid out by falling alignment);
 * returns the block's size in bytes. With mem NULL, only the size. */
static size_t layout(struct board *b, char *mem)
{
	size_t n = (size_t)b->stride * (size_t)b->stride, off = 0;
#define BOARD_PLACE(field, count) do { \
		if (mem) \
			b->field = (void *)(mem + off); \
		off += (count) * sizeof *b->field; \
	} while (0)
	BOARD_PLACE(chash, n);
	BOARD_PLACE(lsum2, n);
	BOARD_PLACE(lsum, n);
	BOARD_PLACE(next, n);
	BOARD_PLACE(head, n);
	BOARD_PLACE(csize, n);
	BOARD_PLACE(plibs, n);
	BOARD_PLACE(setup, (size_t)b->size * (size_t)b->size);
#undef BOARD_PLACE
	return off;
}

int board_init(struct board *b, int size, enum ko_rule ko)
{
	memset(b, 0, sizeof *b);
	if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE)
		return -1;
	zobrist_init();
	b->size = size;
	b->stride = size + 2;
	b->ko_rule = ko;
	b->memsize = layout(b, NULL);
	b->mem = calloc(1, b->memsize);
	if (!b->mem)
		return -1;
	layout(b, b->mem);
	memset(b->stone, BORDER, sizeof b->stone);
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++)
			b->stone[board_pt(b, x, y)] = EMPTY;
	b->to_move = BLACK;
	b->ko_point = BOARD_PASS;
	b->seen_cap = SEEN_INITIAL;
	b->seen = calloc(b->seen_cap, sizeof *b->seen);
	if (!b->seen || hist_push(b, -1, EMPTY) < 0) {
		board_free(b);
		return -1;
	}
	return 0;
}

void board_free(struct board *b)
{
	free(b->caplog);
	b->caplog = NULL;
	b->ncaplog = b->capcaplog = 0;
	free(b->hist);
	free(b->seen);
	free(b->mem);
	b->hist = NULL;
	b->seen = NULL;
	b->mem = NULL;
	b->next = b->head = b->csize = b->plibs = NULL;
	b->lsum = NULL;
	b->lsum2 = NULL;
	b->chash = NULL;
	b->setup = NULL;
	b->nhist = b->caphist = b->seen_n = b->seen_cap = 0;
}

int board_copy(struct board *dst, const struct board *src)
{
	*dst = *src;
	dst->mem = malloc(src->memsize);
	dst->hist = malloc(src->caphist * sizeof *dst->hist);
	dst->seen = malloc(src->seen_cap * sizeof *dst->seen);
	dst->caplog = NULL;
	if (!dst->mem || !dst->hist || !dst->seen) {
		board_free(dst);
		return -1;
	}
	memcpy(dst->mem, src->mem, src->memsize);
	layout(dst, dst->mem);
	memcpy(dst->hist, src->hist, src->nhist * sizeof *dst->hist);
	memcpy(dst->seen, src->seen, src->seen_cap * sizeof *dst->seen);
	if (src->capcaplog) {
		dst->caplog = malloc(src->capcaplog * sizeof *dst->caplog);
		if (!dst->caplog) {
			board_free(dst);
			return -1;
		}
		memcpy(dst->caplog, src->caplog, src->ncaplog * sizeof *dst->caplog);
	}
	return 0;
}

/* ---- chains ---- */

static inline int nb(const struct board *b, int pt, int k)
{
	switch (k) {
	case 0: return pt - 1;
	case 1: return pt + 1;
	case 2: return pt - b->stride;
	default: return pt + b->stride;
	}
}

static inline void lib_add(struct board *b, int h, int lib)
{
	b->plibs[h]++;
	b->lsum[h] += lib;
	b->lsum2[h] += (int64_t)lib * lib;
}

static inline void lib_del(struct board *b, int h, int lib)
{
	b->plibs[h]--;
	b->lsum[h] -= lib;
	b->lsum2[h] -= (int64_t)lib * lib;
}

/* In atari: every pseudo-liberty is the same point (count * sum of squares = sum squared). */
static inline bool in_atari(const struct board *b, int h)
{
	return b->plibs[h] > 0 && (int64_t)b->plibs[h] * b->lsum2[h] == (int64_t)b->lsum[h] * b->lsum[h];
}

static void chain_merge(struct board *b, int h1, int h2)
{
	if (b->csize[h1] < b->csize[h2]) {
		int t = h1;
		h1 = h2;
		h2 = t;
	}
	int s = h2;
	do {
		b->head[s] = (int16_t)h1;
		s = b->next[s];
	} while (s != h2);
	int16_t t = b->next[h1];
	b->next[h1] = b->next[h2];
	b->next[h2] = t;
	b->csize[h1] += b->csize[h2];
	b->plibs[h1] += b->plibs[h2];
	b->lsum[h1] += b->lsum[h2];
	b->lsum2[h1] += b->lsum2[h2];
	b->chash[h1] ^= b->chash[h2];
}

/* Put a stone of colour c at the empty point pt, updating chains (no captures). */
static void stone_add(struct board *b, enum color c, int pt)
{
	b->stone[pt] = (uint8_t)c;
	b->hash ^= zobrist[c][pt];
	b->head[pt] = (int16_t)pt;
	b->next[pt] = (int16_t)pt;
	b->csize[pt] = 1;
	b->plibs[pt] = 0;
	b->lsum[pt] = 0;
	b->lsum2[pt] = 0;
	b->chash[pt] = zobrist[c][pt];
	for (int k = 0; k < 4; k++) {
		int n = nb(b, pt, k);
		if (b->stone[n] == EMPTY)
			lib_add(b, pt, n);
		else if (b->stone[n] != BORDER)
			lib_del(b, b->head[n], pt);
	}
	for (int k = 0; k < 4; k++) {
		int n = nb(b, pt, k);
		if (b->stone[n] == c && b->head[n] != b->head[pt])
			chain_merge(b, b->head[n], b->head[pt]);
	}
}

/* Remove the chain with head h; writes its points to out (if non-NULL). Returns its size. */
static int chain_remove(struct board *b, int h, int *out)
{
	int n = 0, s = h;
	enum color c = (enum color)b->stone[h];
	do {
		b->stone[s] = EMPTY;
		b->hash ^= zobrist[c][s];
		if (out)
			out[n] = s;
		n++;
		s = b->next[s];
	} while (s != h);
	s = h;
	do {
		for (int k = 0; k < 4; k++) {
			int m = nb(b, s, k);
			if (b->stone[m] == BLACK || b->stone[m] == WHITE)
				lib_add(b, b->head[m], s);
		}
		s = b->next[s];
	} while (s != h);
	return n;
}

int board_int_chain_remove(struct board *b, int h, int *out)
{
	return chain_remove(b, h, out);
}

uint64_t board_int_zobrist(enum color c, int pt)
{
	return zobrist[c][pt];
}

static int analyse(const struct board *b, enum color c, int pt, int *caps, bool *suicide);

int board_setup(struct board *b, enum color c, int pt)
{
	if (b->nhist != 1 || (c != BLACK && c != WHITE) || !board_on(b, pt) || b->stone[pt] != EMPTY)
		return -1;
	/* A setup stone that would capture, or be without liberties, is refused: a setup
	 * position is a legal one. */
	int caps[4];
	bool suicide;
	if (analyse(b, c, pt, caps, &suicide) > 0 || suicide)
		return -1;
	stone_add(b, c, pt);
	b->setup[b->nsetup].pt = (int16_t)pt;
	b->setup[b->nsetup++].color = (uint8_t)c;
	b->seen_n = 0;
	memset(b->seen, 0, b->seen_cap * sizeof *b->seen);
	seen_add(b, b->hash);
	b->hist[0].hash = b->hash;
	return 0;
}

void board_set_to_move(struct board *b, enum color c)
{
	b->to_move = c;
	b->hist[b->nhist - 1].to_move = (uint8_t)c;
}

/* ---- legality ---- */

/* Analyse c at the empty point pt: the distinct heads of the chains it captures (out, up to
 * 4) and whether it is suicide. Returns the number of captured chains. */
static int analyse(const struct board *b, enum color c, int pt, int *caps, bool *suicide)
{
	enum color o = color_other(c);
	int ncap = 0;
	bool alive = false;
	for (int k = 0; k < 4; k++) {
		int n = nb(b, pt, k);
		enum color s = (enum color)b->stone[n];
		if (s == EMPTY) {
			alive = true;
		} else if (s == o) {
			int h = b->head[n];
			if (in_atari(b, h)) {
				bool dup = false;
				for (int i = 0; i < ncap; i++)
					dup |= caps[i] == h;
				if (!dup)
					caps[ncap++] = h;
			}
		} else if (s == c) {
			if (!in_atari(b, b->head[n]))
				alive = true;
		}
	}
	*suicide = !alive && ncap == 0;
	return ncap;
}

/* Was the position `after` (stones per point, hash h) on the board before, under rule (with
 * `next` to move, for KO_SITUATIONAL)? A hash match is confirmed on real boards: walking back
 * from the current position, undoing moves (stones only) with the capture log. */
bool board_int_seen(const struct board *b, uint64_t h, const uint8_t *after, enum color next,
		    enum ko_rule rule)
{
	if (!seen_has(b, h))
		return false;
	size_t n = (size_t)(b->stride * b->stride);
	uint8_t then[BOARD_POINTS_MAX];
	memcpy(then, b->stone, n);
	for (size_t k = b->nhist; k-- > 0;) {
		const struct board_hist *e = &b->hist[k];
		if (e->hash == h && (rule != KO_SITUATIONAL || e->to_move == next) && memcmp(then, after, n) == 0)
			return true;
		if (k == 0 || e->pt <= 0)
			continue;
		/* Undo entry k: the board after entry k - 1. An own removal (e->own) took the
		 * mover's stones and left its point empty. */
		uint32_t end = k + 1 < b->nhist ? b->hist[k + 1].cap0 : (uint32_t)b->ncaplog;
		enum color was = e->own ? (enum color)e->color : color_other((enum color)e->color);
		then[e->pt] = EMPTY;
		for (uint32_t i = e->cap0; i < end; i++)
			then[b->caplog[i]] = (uint8_t)was;
	}
	return false;
}

/* Does the position after c at pt (capturing caps) equal an earlier one under rule? */
static bool repeats(const struct board *b, enum color c, int pt, const int *caps, int ncap,
		    enum ko_rule rule)
{
	uint64_t h = b->hash ^ zobrist[c][pt];
	for (int i = 0; i < ncap; i++)
		h ^= b->chash[caps[i]];
	if (!seen_has(b, h))
		return false;
	size_t n = (size_t)(b->stride * b->stride);
	uint8_t after[BOARD_POINTS_MAX];
	memcpy(after, b->stone, n);
	for (int i = 0; i < ncap; i++) {
		int s = caps[i];
		do {
			after[s] = EMPTY;
			s = b->next[s];
		} while (s != caps[i]);
	}
	after[pt] = (uint8_t)c;
	return board_int_seen(b, h, after, color_other(c), rule);
}

/* The rules of play for c at the point pt (not a pass): Art. 19 (occupied), the simple ko,
 * Art. 5 (suicide), Art. 6 (repetition under b->ko_rule). On BOARD_OK, caps[0..*nchains)
 * are the heads of the chains the move captures. */
static enum board_status judge(const struct board *b, enum color c, int pt, int *caps, int *nchains)
{
	if (!board_on(b, pt) || (c != BLACK && c != WHITE))
		return BOARD_BADPOINT;
	if (b->stone[pt] != EMPTY)
		return BOARD_OCCUPIED;
	if (pt == b->ko_point && c == b->ko_color)
		return BOARD_KO;
	bool suicide;
	*nchains = analyse(b, c, pt, caps, &suicide);
	if (suicide)
		return BOARD_SUICIDE;
	if (b->ko_rule != KO_SIMPLE && repeats(b, c, pt, caps, *nchains, b->ko_rule))
		return BOARD_SUPERKO;
	return BOARD_OK;
}

enum board_status board_check(const struct board *b, enum color c, int pt)
{
	int caps[4], nchains;
	return pt == BOARD_PASS ? BOARD_OK : judge(b, c, pt, caps, &nchains);
}

bool board_repeats(const struct board *b, enum color c, int pt, enum ko_rule rule)
{
	if (pt == BOARD_PASS || !board_on(b, pt) || b->stone[pt] != EMPTY)
		return false;
	int caps[4];
	bool suicide;
	int ncap = analyse(b, c, pt, caps, &suicide);
	return !suicide && repeats(b, c, pt, caps, ncap, rule);
}

enum board_status board_play(struct board *b, enum color c, int pt, int *captured, int *ncaptured)
{
	if (ncaptured)
		*ncaptured = 0;
	if (c != BLACK && c != WHITE)
		return BOARD_BADPOINT;
	if (pt == BOARD_PASS) {
		b->to_move = color_other(c);
		b->ko_point = BOARD_PASS;
		b->passes++;
		return hist_push(b, BOARD_PASS, c) < 0 ? BOARD_BADPOINT : BOARD_OK;
	}
	int caps[4], nchains;
	enum board_status st = judge(b, c, pt, caps, &nchains);
	if (st != BOARD_OK)
		return st;
	/* Room in the capture log first, so that running out of memory changes nothing. */
	size_t need = b->ncaplog;
	for (int i = 0; i < nchains; i++)
		need += (size_t)b->csize[caps[i]];
	if (need > b->capcaplog && caplog_grow(b, need) < 0)
		return BOARD_BADPOINT;
	int ncap = 0, buf[BOARD_POINTS_MAX];
	size_t cap_start = b->ncaplog;
	for (int i = 0; i < nchains; i++)
		ncap += chain_remove(b, caps[i], buf + ncap);
	for (int i = 0; i < ncap; i++) {
		b->caplog[b->ncaplog++] = (int16_t)buf[i];
		if (captured)
			captured[i] = buf[i];
	}
	stone_add(b, c, pt);
	/* A simple ko: one stone captured by a lone stone left with that one liberty. */
	int h = b->head[pt];
	if (ncap == 1 && b->csize[h] == 1 && b->plibs[h] == 1)
		b->ko_point = b->lsum[h];
	else
		b->ko_point = BOARD_PASS;
	b->ko_color = color_other(c);
	b->captures[c] += ncap;
	b->to_move = color_other(c);
	b->passes = 0;
	if (ncaptured)
		*ncaptured = ncap;
	if (hist_push(b, pt, c) < 0)
		return BOARD_BADPOINT;
	b->hist[b->nhist - 1].cap0 = (uint32_t)cap_start;
	return BOARD_OK;
}

/* ---- queries ---- */

int board_chain(const struct board *b, int pt, int *out)
{
	if (!board_on(b, pt) || (b->stone[pt] != BLACK && b->stone[pt] != WHITE))
		return 0;
	int n = 0, h = b->head[pt], s = h;
	do {
		out[n++] = s;
		s = b->next[s];
	} while (s != h);
	return n;
}

int board_liberties(const struct board *b, int pt)
{
	if (!board_on(b, pt) || (b->stone[pt] != BLACK && b->stone[pt] != WHITE))
		return 0;
	bool mark[BOARD_POINTS_MAX] = {false};
	int n = 0, h = b->head[pt], s = h;
	do {
		for (int k = 0; k < 4; k++) {
			int m = nb(b, s, k);
			if (b->stone[m] == EMPTY && !mark[m]) {
				mark[m] = true;
				n++;
			}
		}
		s = b->next[s];
	} while (s != h);
	return n;
}

int board_count(const struct board *b, enum color c)
{
	int n = 0;
	for (int p = 0; p < b->stride * b->stride; p++)
		n += b->stone[p] == c;
	return n;
}

bool board_selfcheck(const struct board *b)
{
	uint64_t hash = 0;
	for (int p = 0; p < b->stride * b->stride; p++) {
		enum color c = (enum color)b->stone[p];
		if (c != BLACK && c != WHITE)
			continue;
		hash ^= zobrist[c][p];
		int h = b->head[p];
		if (b->stone[h] != c || b->head[h] != h)
			return false;
		for (int k = 0; k < 4; k++) {
			int n = nb(b, p, k);
			if (b->stone[n] == c && b->head[n] != h)
				return false; /* adjacent same colour in different chains */
		}
		if (h != p)
			continue;
		/* Recount the chain rooted here. */
		int size = 0, plibs = 0, s = h;
		int64_t lsum = 0, lsum2 = 0;
		uint64_t chash = 0;
		do {
			if (b->head[s] != h || b->stone[s] != c || size > b->size * b->size)
				return false;
			size++;
			chash ^= zobrist[c][s];
			for (int k = 0; k < 4; k++) {
				int n = nb(b, s, k);
				if (b->stone[n] == EMPTY) {
					plibs++;
					lsum += n;
					lsum2 += (int64_t)n * n;
				}
			}
			s = b->next[s];
		} while (s != h);
		if (size != b->csize[h] || plibs != b->plibs[h] || lsum != b->lsum[h] ||
		    lsum2 != b->lsum2[h] || chash != b->chash[h] || plibs == 0)
			return false;
	}
	/* Every stone's chain ring must cover all stones with that head. */
	for (int p = 0; p < b->stride * b->stride; p++) {
		if (b->stone[p] != BLACK && b->stone[p] != WHITE)
			continue;
		int h = b->head[p], s = h, steps = 0;
		bool seen = false;
		do {
			seen |= s == p;
			s = b->next[s];
		} while (s != h && ++steps <= b->size * b->size);
		if (!seen)
			return false;
	}
	return hash == b->hash;
}

void board_diagram(const struct board *b, char *out)
{
	static const char sym[] = ".XO#";
	char *o = out;
	for (int y = b->size - 1; y >= 0; y--) {
		for (int x = 0; x < b->size; x++)
			*o++ = sym[b->stone[board_pt(b, x, y)]];
		*o++ = '\n';
	}
	*o = '\0';
}

/* ---- handicap ---- */

int board_fixed_handicap(int size, int n, int *out, int stride)
{
	/* GTP 2 §4.1.1 / GNU Go: star points at distance 2 (size < 13) or 3 from the edge;
	 * more than 4 stones need a centre line, so an odd size; 7x7 takes at most 4. */
	if (size < 7 || n < 2 || n > 9 || (n > 4 && (size % 2 == 0 || size == 7)))
		return -1;
	int e = size < 13 ? 2 : 3, lo = e, hi = size - 1 - e, mid = size / 2;
	int xs[9], ys[9], k = 0;
#define PUT(X, Y) (xs[k] = (X), ys[k] = (Y), k++)
	PUT(lo, lo);
	PUT(hi, hi);
	if (n >= 3)
		PUT(lo, hi);
	if (n >= 4)
		PUT(hi, lo);
	if (n == 5 || n == 7 || n == 9)
		PUT(mid, mid);
	if (n >= 6) {
		PUT(lo, mid);
		PUT(hi, mid);
	}
	if (n >= 8) {
		PUT(mid, lo);
		PUT(mid, hi);
	}
#undef PUT
	for (int i = 0; i < k; i++)
		out[i] = (ys[i] + 1) * stride + xs[i] + 1;
	return k;
}

int board_handicap_max(int size)
{
	if (size < BOARD_MIN_SIZE || size > BOARD_MAX_SIZE)
		return -1;
	if (size < 7)
		return 1;
	return size % 2 == 1 && size >= 9 ? 9 : 4;
}
