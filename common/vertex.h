/* vertex: GTP vertices ("D4", "pass") and SGF points ("dp") for a board size.
 * GTP 2 §2.11: a column letter A-Z without I, then the row from the bottom (1-based). */
#ifndef TENGEN_VERTEX_H
#define TENGEN_VERTEX_H

#include <stdbool.h>
#include "board.h"

#define VERTEX_MAX_LEN 8 /* "pass" or "Z25" plus NUL fits */

/* Parse a GTP vertex (case-insensitive) for a board of `b`. Returns the point, BOARD_PASS for
 * "pass", or -1 if it does not parse or lies off the board. */
int vertex_parse(const struct board *b, const char *s);
/* Same, for a board size without a board: *x, *y 0-based (y from the bottom); returns 1 for a
 * point, 0 for a pass, -1 for an error. */
int vertex_parse_xy(int size, const char *s, int *x, int *y);
/* Format point `pt` of `b` (BOARD_PASS -> "pass") into out[VERTEX_MAX_LEN]. Returns out. */
char *vertex_format(const struct board *b, int pt, char *out);
/* Format (x, y) for a board size. */
char *vertex_format_xy(int size, int x, int y, char *out);

#endif
