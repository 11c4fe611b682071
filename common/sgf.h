/* sgf: read and write Go game records in SGF (FF[4], https://www.red-bean.com/sgf/), from and
 * to memory buffers only. No I/O.
 *
 * Coordinates follow the rest of tengen (GTP convention): x is the column from the left, y the
 * row from the BOTTOM, both 0-based. SGF points are two letters, column then row, "aa" being
 * the top-left corner, so the SGF column letter is x and the SGF row letter is size-1-y. A pass
 * is x = y = -1; it is read from an empty value (B[]) and, on boards up to 19x19, from "tt"
 * (FF[3] form); it is always written as the empty value.
 *
 * Reader (sgf_parse):
 * - the full FF[4] grammar: collections of game trees, nested variations, nodes, properties
 *   with several values (AB[aa][bb]) and compressed point lists (AB[aa:cc]), escapes (`\]`,
 *   `\\`, `\` + newline is a soft line break and is removed), whitespace between tokens,
 *   lowercase letters inside property identifiers ignored (FF[3] style, "AddBlack" = AB);
 * - only the first game tree of a collection is read (later ones are checked for syntax only),
 *   and in it only the MAIN LINE: the first variation at every branch;
 * - unknown properties are skipped; properties that take one value reject a second value or a
 *   repetition in the same node;
 * - GM must be 1 (Go) when present; SZ defaults to 19, must be square and within
 *   BOARD_MIN_SIZE..BOARD_MAX_SIZE, and is accepted in the root node only;
 * - setup stones (AB, AW, AE) are applied in the root and in any later node that comes before
 *   the first move; a setup property after the first move is rejected with an error
 *   (positions edited mid-game are not a game record the server can replay);
 * - a node with both B and W is rejected; a node without a move (other than the root) adds
 *   its comment to the previous move's comment (or to the root comment before any move);
 * - BL/WL and OB/OW are kept with a move only for the colour that moved;
 * - game-information properties (PB, PW, KM, RE, ...) are read from any node on the main line;
 *   a later value replaces an earlier one;
 * - TB/TW (territory, FF4; points or compressed lists) are read from any main-line node, those
 *   of the last node that has them kept: the count of the final position, dead stones listed
 *   in the territory of the side that surrounds them;
 * - DS, tengen's private property (with TB/TW, the last node that has it kept): the stones the
 *   count took as dead (agreed, Art. 8), every stone, as points; TB/TW alone cannot say that a
 *   stone standing in no one's territory (a region touching both colours) was dead;
 * - WN[b:w], tengen's private property (root): the warnings given to Black and White, each of
 *   which moved one point of the count to the opponent (Chinese Rules 2002, Art. 24.1);
 * - text is kept as bytes (CA is not interpreted: UTF-8 is expected). C (text) keeps its line
 *   breaks, each normalised to "\n"; simple text values (names, result...) have every line
 *   break and other whitespace turned into a space (FF[4] SimpleText).
 *
 * Writer (sgf_write): one game tree, the root node with
 *   GM[1]FF[4]CA[UTF-8]AP[tengen:0.1]SZ KM HA AB AW PL RU PB PW BR WR DT EV RO TM OT RE WN C
 * (only the properties that are set; KM always) and then one node per move, each on its own
 * line: ;B[dd]BL[295.5]OB[3]C[...]. TB, TW and DS, when set, end the last node (the root if
 * there is no move). Property values escape `]` and `\`.
 */
#ifndef TENGEN_SGF_H
#define TENGEN_SGF_H

#include <stddef.h>
#include <stdint.h>

/* Limits. Every one is checked; going over one is an error, never a truncation. */
#define SGF_MAX_INPUT (4 * 1024 * 1024) /* bytes of SGF text sgf_parse accepts */
#define SGF_MAX_MOVES 100000            /* moves on the main line */
#define SGF_MAX_NODE_VALUES 4096        /* values of known properties in one main-line node */
#define SGF_MAX_SETUP_POINTS 100000     /* AB/AW/AE points applied (after expanding a:b) */
#define SGF_MAX_PROP_ID 8               /* uppercase letters in a property identifier kept */
#define SGF_MAX_KOMI 1000.0             /* |KM| in points */
#define SGF_MAX_HANDICAP 99             /* HA */
#define SGF_MAX_TIME_S 1000000.0        /* TM, BL, WL in seconds (about 11.6 days) */
#define SGF_MAX_PERIODS 32767           /* OB, OW */
#define SGF_MAX_WARNINGS 999            /* each number of WN */
#define SGF_ERROR_MAX 160               /* bytes of an error message, with its NUL */

/* The AP[] value the writer puts in the root. */
#define SGF_APPLICATION "tengen:0.1"

/* Return codes. */
enum sgf_status {
	SGF_OK = 0,
	SGF_ESYNTAX,      /* not SGF: bad or truncated grammar, unterminated value, empty input */
	SGF_EVALUE,       /* a property value is malformed or out of range (point, number, size) */
	SGF_EUNSUPPORTED, /* valid SGF we do not take: GM other than 1, non-square board,
	                     setup after the first move */
	SGF_ELIMIT,       /* one of the SGF_MAX_* limits was exceeded */
	SGF_EINVAL,       /* a caller's argument is invalid (helpers) */
	SGF_ENOMEM        /* out of memory */
};

/* Where and why sgf_parse failed. offset is a byte offset into the input (0-based);
 * message is a NUL-terminated sentence that ends with "at byte <offset>", e.g.
 * "unterminated property value at byte 123". */
struct sgf_error {
	size_t offset;
	char message[SGF_ERROR_MAX];
};

struct sgf_point {
	int16_t x, y; /* 0-based, x from the left, y from the bottom */
};

#define SGF_BLACK 1
#define SGF_WHITE 2

struct sgf_move {
	uint8_t color;          /* SGF_BLACK or SGF_WHITE */
	int16_t x, y;           /* the point played, or -1, -1 for a pass */
	int32_t time_left_ms;   /* BL/WL of the mover, in ms (rounded); -1 if none */
	int16_t periods_left;   /* OB/OW of the mover (byo-yomi periods or Canadian stones); -1 if none */
	char *comment;          /* C[], or NULL (warnings and forfeited turns are written here) */
};

/* A game record. Strings are malloc'd, NUL-terminated UTF-8, NULL when absent. */
struct sgf_game {
	int size;               /* SZ, board size N (default 19) */
	double komi;            /* KM, points, to 0.001 (0 when absent; always written) */
	int handicap;           /* HA, 0 when absent or below 2 (written only when 2 or more: SGF
				   FF4) */
	struct sgf_point *setup_black, *setup_white; /* AB, AW: initial stones, in input order */
	size_t nsetup_black, nsetup_white;
	int first_color;        /* PL: SGF_BLACK/SGF_WHITE, 0 if none */
	char *black, *white;    /* PB, PW */
	char *black_rank, *white_rank; /* BR, WR */
	char *date;             /* DT */
	char *event, *round;    /* EV, RO */
	char *rules;            /* RU */
	char *result;           /* RE, SGF form: "B+R", "W+3.5", "0", "Void" */
	char *overtime;         /* OT, free text, e.g. "3x30 byo-yomi" */
	double time_limit_s;    /* TM, main time in seconds; -1 if none */
	char *comment;          /* C[] of the root node */
	struct sgf_point *territory_black, *territory_white; /* TB, TW of the final position */
	size_t nterritory_black, nterritory_white;
	struct sgf_point *dead; /* DS: the stones counted dead in the final position */
	size_t ndead;
	int warnings_black, warnings_white; /* WN[b:w]: 0..SGF_MAX_WARNINGS; written when either
	                                       is not 0 */
	struct sgf_move *moves; /* the main line, in order */
	size_t nmoves;
	size_t capmoves;        /* allocated length of moves (internal) */
};

/* Set *g to an empty record: size 19, komi 0, no handicap, no moves, time_limit_s -1, every
 * string NULL. Use it before filling a record by hand; sgf_game_free releases it. */
void sgf_game_init(struct sgf_game *g);

/* Free everything *g owns and leave it as sgf_game_init does. g may be NULL. */
void sgf_game_free(struct sgf_game *g);

/* Parse len bytes of SGF text (no NUL needed; a NUL byte inside is an error) into *out.
 * Returns SGF_OK, or another enum sgf_status with *err (if err is not NULL) holding the byte
 * offset and a message. On failure *out is not written. On success the caller owns *out and
 * releases it with sgf_game_free. Input over SGF_MAX_INPUT bytes fails with SGF_ELIMIT. */
int sgf_parse(const char *data, size_t len, struct sgf_game *out, struct sgf_error *err);

/* Write *g as SGF text (see the top of this file). Returns a malloc'd NUL-terminated string
 * that the caller frees, or NULL when out of memory or when *g is invalid: size outside
 * BOARD_MIN_SIZE..BOARD_MAX_SIZE, a colour that is not SGF_BLACK/SGF_WHITE, a point off the
 * board, komi not finite or over SGF_MAX_KOMI, handicap outside 0..SGF_MAX_HANDICAP. Times
 * are written in seconds with up to 3 decimals; komi minimally (7.5, 6, 0.5). */
char *sgf_write(const struct sgf_game *g);

/* Replace the string *field (one of g's strings) with a copy of value (NULL clears it).
 * Returns SGF_OK or SGF_ENOMEM (then *field is unchanged). */
int sgf_game_set_text(char **field, const char *value);

/* Append a move to g's main line: color SGF_BLACK/SGF_WHITE, (x, y) on g->size's board or
 * (-1, -1) for a pass, time_left_ms >= 0 or -1, periods_left 0..SGF_MAX_PERIODS or -1,
 * comment copied (may be NULL). Returns SGF_OK, SGF_EINVAL (nothing changed), SGF_ELIMIT
 * (SGF_MAX_MOVES reached) or SGF_ENOMEM. */
int sgf_game_add_move(struct sgf_game *g, int color, int x, int y, int32_t time_left_ms,
                      int periods_left, const char *comment);

/* Append a setup stone (AB for SGF_BLACK, AW for SGF_WHITE) at (x, y) on g->size's board.
 * Returns SGF_OK, SGF_EINVAL (bad colour or point, or the point already holds a setup stone;
 * nothing changed) or SGF_ENOMEM. */
int sgf_game_add_setup(struct sgf_game *g, int color, int x, int y);

/* Append a territory point of the final position (TB for SGF_BLACK, TW for SGF_WHITE; SGF FF4:
 * an empty point or a dead stone counted for that colour) at (x, y) on g->size's board.
 * Returns SGF_OK, SGF_EINVAL (bad colour or point; nothing changed) or SGF_ENOMEM. */
int sgf_game_add_territory(struct sgf_game *g, int color, int x, int y);

/* Append a stone of the final position that the count took as dead (DS) at (x, y) on g->size's
 * board. Returns SGF_OK, SGF_EINVAL (bad point; nothing changed) or SGF_ENOMEM. */
int sgf_game_add_dead(struct sgf_game *g, int x, int y);

#endif
