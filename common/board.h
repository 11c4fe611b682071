/* board: the Go board and the rules of play (Chinese Weiqi Rules 2002, Art. 1-6).
 *
 * A board of size N (BOARD_MIN_SIZE..BOARD_MAX_SIZE) is stored with a one-point border, so a
 * point ("pt") is an int index (y + 1) * (N + 2) + (x + 1), where x is the column from the left
 * and y the row from the bottom, both 0-based (GTP convention). BOARD_PASS (0) is a pass.
 *
 * Chains are kept incrementally: each stone links to the next stone of its chain (a ring) and
 * to the chain's head; each chain keeps its size, its pseudo-liberties (count, sum and sum of
 * squares of liberty points, so "in atari" and "no liberty" are O(1)) and the XOR of its
 * stones' Zobrist keys. No flood fill happens per move.
 *
 * Every position of the game is recorded by its Zobrist hash and the colour to move; a
 * repetition is confirmed against the real board (replayed from the move list) before a move
 * is called illegal, so a hash collision can never ban a legal move.
 */
#ifndef TENGEN_BOARD_H
#define TENGEN_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOARD_MIN_SIZE 2
#define BOARD_MAX_SIZE 25
#define BOARD_STRIDE_MAX (BOARD_MAX_SIZE + 2)
#define BOARD_POINTS_MAX (BOARD_STRIDE_MAX * BOARD_STRIDE_MAX)
#define BOARD_PASS 0

/* Point contents. BORDER only appears off the board. */
enum color { EMPTY = 0, BLACK = 1, WHITE = 2, BORDER = 3 };

static inline enum color color_other(enum color c) { return (enum color)(3 - c); }

/* Repetition rule (Chinese Rules 2002, Art. 6; docs/rules.md §1, option `ko`). */
enum ko_rule {
	KO_SITUATIONAL = 0, /* the same board with the same player to move may not recur */
	KO_POSITIONAL,      /* no earlier board may recur, whoever is to move */
	KO_SIMPLE           /* only the immediate retake of a single-stone ko is forbidden */
};

/* Why a move is illegal. BOARD_OK is a legal move. */
enum board_status {
	BOARD_OK = 0,
	BOARD_OCCUPIED, /* the point holds a stone (Art. 19, online practice) */
	BOARD_SUICIDE,  /* the new chain has no liberty and captures nothing (Art. 5) */
	BOARD_KO,       /* the immediate retake of a single-stone ko (Art. 6, 18.3) */
	BOARD_SUPERKO,  /* recreates an earlier position under the ko rule (Art. 6, 20) */
	BOARD_BADPOINT  /* not a point on this board */
};

/* One entry of the game's history: what was played and the position it produced. */
struct board_hist {
	uint64_t hash;    /* Zobrist hash of the board (stones only) after the move */
	int32_t pt;       /* the point played, BOARD_PASS for a pass, -1 for setup */
	uint8_t color;    /* the colour that moved (or the setup stone's colour) */
	uint8_t to_move;  /* colour to move after this entry */
	uint8_t own;      /* 1: the move removed the mover's own chains (common/capture: the
			   * prediction ruleset's suicide); its caplog holds the mover's stones */
	uint32_t cap0;    /* its captured points are caplog[cap0 .. next entry's cap0) */
};

/* One setup stone. */
struct board_setup_stone { int16_t pt; uint8_t color; };

struct board {
	int size;   /* N */
	int stride; /* N + 2 */
	enum ko_rule ko_rule;
	uint8_t stone[BOARD_POINTS_MAX]; /* enum color per point */
	/* Per point (stride * stride entries each, in one allocation `mem`, so a board costs
	 * only what its size uses). */
	int16_t *next;    /* next stone in the same chain (ring) */
	int16_t *head;    /* the chain's head point */
	/* Per chain, indexed by head point. */
	int16_t *csize;
	int16_t *plibs;   /* pseudo-liberties: (empty neighbour, stone) pairs */
	int32_t *lsum;    /* sum of pseudo-liberty points */
	int64_t *lsum2;   /* sum of their squares */
	uint64_t *chash;  /* XOR of the chain's stones' keys */
	void *mem;        /* the block holding the per-point arrays and `setup` */
	size_t memsize;   /* its size in bytes */
	uint64_t hash;       /* Zobrist hash of the stones */
	int ko_point;        /* the point a simple-ko retake would play, or BOARD_PASS */
	enum color ko_color; /* the colour that may not retake at ko_point */
	enum color to_move;
	int captures[3];     /* stones captured by BLACK / WHITE (index by colour) */
	int passes;          /* consecutive passes at the end of the history */
	/* Setup stones (handicap, SGF AB/AW), placed before the first move: room for N * N. */
	struct board_setup_stone *setup;
	size_t nsetup;
	/* History: entry 0 is the initial (possibly handicap) position. */
	struct board_hist *hist;
	size_t nhist, caphist;
	int16_t *caplog;     /* captured points of every move, in order */
	size_t ncaplog, capcaplog;
	/* Open-addressing set of board hashes seen, for O(1) repetition look-ups. */
	uint64_t *seen;
	size_t seen_cap, seen_n;
};

/* Make an empty board of `size` (2..25) with Black to move and the given ko rule.
 * Returns 0, or -1 for a size out of range or no memory. Free with board_free. */
int board_init(struct board *b, int size, enum ko_rule ko);
void board_free(struct board *b);
/* Deep copy `src` into an uninitialised `dst`. Returns 0 or -1 (no memory). */
int board_copy(struct board *dst, const struct board *src);

/* Point helpers. board_pt returns the point for (x, y), both 0-based, y from the bottom. */
static inline int board_pt(const struct board *b, int x, int y) { return (y + 1) * b->stride + (x + 1); }
static inline int board_x(const struct board *b, int pt) { return pt % b->stride - 1; }
static inline int board_y(const struct board *b, int pt) { return pt / b->stride - 1; }
static inline bool board_on(const struct board *b, int pt)
{
	return pt > 0 && pt < b->stride * b->stride && b->stone[pt] != BORDER;
}
static inline enum color board_at(const struct board *b, int pt) { return (enum color)b->stone[pt]; }

/* Place a setup stone (handicap, SGF AB/AW) on an empty point without captures or history
 * of a move; recorded as the new initial position. Only before the first move.
 * Returns 0, or -1 if the point is not an empty point or moves were already played. */
int board_setup(struct board *b, enum color c, int pt);
/* Set the colour to move (after setup, e.g. White first after handicap, Art. 2). */
void board_set_to_move(struct board *b, enum color c);

/* Would `c` playing at `pt` be legal? Does not change the board. `pt` may be BOARD_PASS
 * (always legal). Art. 5 (suicide), 6 (repetition, per b->ko_rule), 19 (occupied). */
enum board_status board_check(const struct board *b, enum color c, int pt);

/* Play `c` at `pt` (or pass) if legal: removes the opponent's liberty-less chains (Art. 3-4),
 * records the position. On success returns BOARD_OK and, if `captured` is non-NULL, stores up
 * to BOARD_POINTS_MAX captured points there and their count in *ncaptured. On an illegal move
 * returns the reason and changes nothing. Either colour may play (the referee judges turns);
 * afterwards the other colour is to move. */
enum board_status board_play(struct board *b, enum color c, int pt, int *captured, int *ncaptured);

/* Would playing `c` at `pt` recreate an earlier position under `rule`? For the `cycle` event
 * option: with ko_rule KO_SIMPLE the referee asks this with KO_SITUATIONAL. A legal-by-stones
 * move (not occupied, not suicide) is assumed. */
bool board_repeats(const struct board *b, enum color c, int pt, enum ko_rule rule);

/* The chain containing `pt`: writes its points to `out` (capacity BOARD_POINTS_MAX) and returns
 * their count; 0 if `pt` is empty or off the board. */
int board_chain(const struct board *b, int pt, int *out);
/* Exact number of liberties of the chain at `pt` (0 for an empty point). */
int board_liberties(const struct board *b, int pt);
/* Number of stones of each colour on the board. */
int board_count(const struct board *b, enum color c);

/* Number of moves (incl. passes) played since the initial position. */
static inline size_t board_moves(const struct board *b) { return b->nhist - 1; }

/* Handicap placements of GTP 2 §4.1.1 (fixed_handicap): star points 3 lines from the edge
 * (2 on boards under 13x13), in GTP's order (D4 Q16 D16 Q4, then the centre and side points).
 * Sizes 7x7 and up; 5 or more stones need an odd size of at least 9x9 (a centre line).
 * Writes `n` points to `out` and returns n, or -1 if there is no such placement. Checked
 * against GNU Go's fixed_handicap by tests/unit/test_oracle.c. */
int board_fixed_handicap(int size, int n, int *out, int stride);

/* The most handicap a board of `size` can hold (Art. 2; GTP 2 §4.1.1 fixed placements, as
 * board_fixed_handicap): 9 stones on odd sizes from 9x9, 4 on 7x7 and even sizes from 8x8, and
 * 1 below 7x7 (no stones: Black moves first, with the handicap komi). A tournament caps a
 * computed handicap at this. Returns the count, or -1 for a size outside
 * BOARD_MIN_SIZE..BOARD_MAX_SIZE. */
int board_handicap_max(int size);

/* Recompute chains and liberties from scratch and compare with the incremental state.
 * Returns true if consistent (used by tests and fuzzing). */
bool board_selfcheck(const struct board *b);

/* Text diagram: `size` lines, top row first, of '.', 'X' (Black), 'O' (White), each ended by
 * '\n', into `out` of at least size*(size+1)+1 bytes. */
void board_diagram(const struct board *b, char *out);

#endif
