/* vertex: GTP vertices and their points. See vertex.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "vertex.h"

static const char columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ"; /* GTP 2 §2.11: no I */

int vertex_parse_xy(int size, const char *s, int *x, int *y)
{
	if (!s)
		return -1;
	if (strcasecmp(s, "pass") == 0)
		return 0;
	int c = toupper((unsigned char)s[0]), col = -1;
	for (int i = 0; columns[i]; i++)
		if (columns[i] == c)
			col = i;
	if (col < 0 || !isdigit((unsigned char)s[1]) || s[1] == '0')
		return -1;
	int row = 0, i = 1;
	for (; isdigit((unsigned char)s[i]) && i < 3; i++)
		row = row * 10 + (s[i] - '0');
	if (s[i] != '\0' || col >= size || row < 1 || row > size)
		return -1;
	*x = col;
	*y = row - 1;
	return 1;
}

int vertex_parse(const struct board *b, const char *s)
{
	int x, y, r = vertex_parse_xy(b->size, s, &x, &y);
	return r < 0 ? -1 : r == 0 ? BOARD_PASS : board_pt(b, x, y);
}

char *vertex_format_xy(int size, int x, int y, char *out)
{
	if (x < 0 || y < 0 || x >= size || y >= size) {
		memcpy(out, "pass", 5);
		return out;
	}
	/* A letter and the row, 1..99 (written by hand: this runs for every move sent). */
	int row = (y + 1) % 100, n = 0;
	out[n++] = columns[x];
	if (row >= 10)
		out[n++] = (char)('0' + row / 10);
	out[n++] = (char)('0' + row % 10);
	out[n] = '\0';
	return out;
}

char *vertex_format(const struct board *b, int pt, char *out)
{
	if (pt == BOARD_PASS || !board_on(b, pt))
		return vertex_format_xy(b->size, -1, -1, out);
	return vertex_format_xy(b->size, board_x(b, pt), board_y(b, pt), out);
}
