/* sgf: SGF FF[4] reader and writer over memory buffers. See sgf.h for the rules applied.
 * This file: the record helpers and the writer; the reader is in sgf_read.c. */
#include "sgf.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgf_int.h"

/* ------------------------------------------------------------------------------------------ */
/* Record helpers                                                                             */

void sgf_game_init(struct sgf_game *g)
{
	memset(g, 0, sizeof *g);
	g->size = 19;
	g->time_limit_s = -1;
}

void sgf_game_free(struct sgf_game *g)
{
	if (!g)
		return;
	free(g->setup_black);
	free(g->setup_white);
	free(g->black);
	free(g->white);
	free(g->black_rank);
	free(g->white_rank);
	free(g->date);
	free(g->event);
	free(g->round);
	free(g->rules);
	free(g->result);
	free(g->overtime);
	free(g->comment);
	free(g->territory_black);
	free(g->territory_white);
	free(g->dead);
	for (size_t i = 0; i < g->nmoves; i++)
		free(g->moves[i].comment);
	free(g->moves);
	sgf_game_init(g);
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

int sgf_game_set_text(char **field, const char *value)
{
	char *copy = NULL;
	if (!field)
		return SGF_EINVAL;
	if (value && !(copy = dup_str(value)))
		return SGF_ENOMEM;
	free(*field);
	*field = copy;
	return SGF_OK;
}

/* Make room for one more move. */
int sgf_moves_reserve(struct sgf_game *g)
{
	if (g->nmoves >= SGF_MAX_MOVES)
		return SGF_ELIMIT;
	if (g->nmoves < g->capmoves)
		return SGF_OK;
	size_t cap = g->capmoves ? g->capmoves * 2 : 64;
	if (cap > SGF_MAX_MOVES)
		cap = SGF_MAX_MOVES;
	struct sgf_move *m = realloc(g->moves, cap * sizeof *m);
	if (!m)
		return SGF_ENOMEM;
	g->moves = m;
	g->capmoves = cap;
	return SGF_OK;
}

int sgf_game_add_move(struct sgf_game *g, int color, int x, int y, int32_t time_left_ms,
                      int periods_left, const char *comment)
{
	if (!g || (color != SGF_BLACK && color != SGF_WHITE) || !size_ok(g->size))
		return SGF_EINVAL;
	if (!(x == -1 && y == -1) && !on_board(g->size, x, y))
		return SGF_EINVAL;
	if (time_left_ms < -1 || periods_left < -1 || periods_left > SGF_MAX_PERIODS)
		return SGF_EINVAL;
	int rc = sgf_moves_reserve(g);
	if (rc)
		return rc;
	char *c = NULL;
	if (comment && !(c = dup_str(comment)))
		return SGF_ENOMEM;
	struct sgf_move *m = &g->moves[g->nmoves++];
	m->color = (uint8_t)color;
	m->x = (int16_t)x;
	m->y = (int16_t)y;
	m->time_left_ms = time_left_ms;
	m->periods_left = (int16_t)periods_left;
	m->comment = c;
	return SGF_OK;
}

static bool setup_has(const struct sgf_point *p, size_t n, int x, int y)
{
	for (size_t i = 0; i < n; i++)
		if (p[i].x == x && p[i].y == y)
			return true;
	return false;
}

/* Append the point (x, y) to *list of *n points. SGF_OK or SGF_ENOMEM (the list unchanged). */
static int point_append(struct sgf_point **list, size_t *n, int x, int y)
{
	struct sgf_point *p = realloc(*list, (*n + 1) * sizeof *p);
	if (!p)
		return SGF_ENOMEM;
	p[*n].x = (int16_t)x;
	p[*n].y = (int16_t)y;
	*list = p;
	(*n)++;
	return SGF_OK;
}

int sgf_game_add_setup(struct sgf_game *g, int color, int x, int y)
{
	if (!g || (color != SGF_BLACK && color != SGF_WHITE) || !size_ok(g->size) ||
	    !on_board(g->size, x, y))
		return SGF_EINVAL;
	if (setup_has(g->setup_black, g->nsetup_black, x, y) ||
	    setup_has(g->setup_white, g->nsetup_white, x, y))
		return SGF_EINVAL;
	struct sgf_point **list = color == SGF_BLACK ? &g->setup_black : &g->setup_white;
	size_t *n = color == SGF_BLACK ? &g->nsetup_black : &g->nsetup_white;
	return point_append(list, n, x, y);
}

int sgf_game_add_territory(struct sgf_game *g, int color, int x, int y)
{
	if (!g || (color != SGF_BLACK && color != SGF_WHITE) || !size_ok(g->size) ||
	    !on_board(g->size, x, y))
		return SGF_EINVAL;
	return color == SGF_BLACK ? point_append(&g->territory_black, &g->nterritory_black, x, y)
				  : point_append(&g->territory_white, &g->nterritory_white, x, y);
}

int sgf_game_add_dead(struct sgf_game *g, int x, int y)
{
	if (!g || !size_ok(g->size) || !on_board(g->size, x, y))
		return SGF_EINVAL;
	return point_append(&g->dead, &g->ndead, x, y);
}

/* ------------------------------------------------------------------------------------------ */
/* Writer                                                                                     */

struct sbuf {
	char *buf;
	size_t len, cap;
	bool oom;
};

static void sb_grow(struct sbuf *b, size_t more)
{
	if (b->oom)
		return;
	if (more > SIZE_MAX / 2 - b->len) {
		b->oom = true;
		return;
	}
	size_t need = b->len + more + 1;
	if (need <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	char *n = realloc(b->buf, cap);
	if (!n) {
		b->oom = true;
		return;
	}
	b->buf = n;
	b->cap = cap;
}

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
	sb_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

/* Property value text with ']' and '\' escaped. */
static void sb_escaped(struct sbuf *b, const char *s)
{
	const char *run = s;
	for (; *s; s++) {
		if (*s == ']' || *s == '\\') {
			sb_put(b, run, (size_t)(s - run));
			sb_put(b, "\\", 1);
			run = s;
		}
	}
	sb_put(b, run, (size_t)(s - run));
}

static void sb_text_prop(struct sbuf *b, const char *id, const char *value)
{
	if (!value)
		return;
	sb_puts(b, id);
	sb_put(b, "[", 1);
	sb_escaped(b, value);
	sb_put(b, "]", 1);
}

/* Milliseconds as seconds with up to 3 decimals: 295500 -> "295.5", 30000 -> "30". */
static void fmt_ms(char *out, size_t outsz, long long ms)
{
	bool neg = ms < 0;
	unsigned long long a = neg ? (unsigned long long)(-(ms + 1)) + 1 : (unsigned long long)ms;
	int n = snprintf(out, outsz, "%s%llu.%03llu", neg ? "-" : "", a / 1000, a % 1000);
	if (n <= 0 || (size_t)n >= outsz)
		return;
	while (n > 0 && out[n - 1] == '0')
		out[--n] = '\0';
	if (n > 0 && out[n - 1] == '.')
		out[--n] = '\0';
}

static void sb_point(struct sbuf *b, int size, int x, int y)
{
	char p[2];
	if (x < 0) {
		sb_put(b, "[]", 2);
		return;
	}
	p[0] = (char)('a' + x);
	p[1] = (char)('a' + (size - 1 - y));
	sb_put(b, "[", 1);
	sb_put(b, p, 2);
	sb_put(b, "]", 1);
}

/* A point-list property (AB, AW, TB, TW): nothing when the list is empty. */
static void sb_point_list(struct sbuf *b, const char *prop, int size, const struct sgf_point *pts,
			  size_t n)
{
	if (!n)
		return;
	sb_puts(b, prop);
	for (size_t i = 0; i < n; i++)
		sb_point(b, size, pts[i].x, pts[i].y);
}

static bool points_ok(const struct sgf_point *p, size_t n, int size)
{
	if (n && !p)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!on_board(size, p[i].x, p[i].y))
			return false;
	return true;
}

char *sgf_write(const struct sgf_game *g)
{
	if (!g || !size_ok(g->size) || !isfinite(g->komi) || fabs(g->komi) > SGF_MAX_KOMI ||
	    g->handicap < 0 || g->handicap > SGF_MAX_HANDICAP ||
	    !points_ok(g->setup_black, g->nsetup_black, g->size) ||
	    !points_ok(g->setup_white, g->nsetup_white, g->size) ||
	    !points_ok(g->territory_black, g->nterritory_black, g->size) ||
	    !points_ok(g->territory_white, g->nterritory_white, g->size) ||
	    !points_ok(g->dead, g->ndead, g->size) ||
	    g->warnings_black < 0 || g->warnings_black > SGF_MAX_WARNINGS ||
	    g->warnings_white < 0 || g->warnings_white > SGF_MAX_WARNINGS ||
	    (g->nmoves && !g->moves) || isnan(g->time_limit_s) ||
	    g->time_limit_s > SGF_MAX_TIME_S)
		return NULL;
	for (size_t i = 0; i < g->nmoves; i++) {
		const struct sgf_move *m = &g->moves[i];
		if (m->color != SGF_BLACK && m->color != SGF_WHITE)
			return NULL;
		if (!(m->x == -1 && m->y == -1) && !on_board(g->size, m->x, m->y))
			return NULL;
	}

	struct sbuf b = {0};
	char num[64];
	sb_puts(&b, "(;GM[1]FF[4]CA[UTF-8]AP[" SGF_APPLICATION "]");
	snprintf(num, sizeof num, "SZ[%d]", g->size);
	sb_puts(&b, num);
	/* komi: to the ms, trailing zeros dropped */
	fmt_ms(num, sizeof num, llround(g->komi * 1000.0));
	if (!strcmp(num, "-0"))
		strcpy(num, "0");
	sb_puts(&b, "KM[");
	sb_puts(&b, num);
	sb_puts(&b, "]");
	if (g->handicap >= 2) { /* FF4: HA is 2 or more; a handicap of 1 places no stones */
		snprintf(num, sizeof num, "HA[%d]", g->handicap);
		sb_puts(&b, num);
	}
	sb_point_list(&b, "AB", g->size, g->setup_black, g->nsetup_black);
	sb_point_list(&b, "AW", g->size, g->setup_white, g->nsetup_white);
	if (g->first_color == SGF_BLACK)
		sb_puts(&b, "PL[B]");
	else if (g->first_color == SGF_WHITE)
		sb_puts(&b, "PL[W]");
	sb_text_prop(&b, "RU", g->rules);
	sb_text_prop(&b, "PB", g->black);
	sb_text_prop(&b, "PW", g->white);
	sb_text_prop(&b, "BR", g->black_rank);
	sb_text_prop(&b, "WR", g->white_rank);
	sb_text_prop(&b, "DT", g->date);
	sb_text_prop(&b, "EV", g->event);
	sb_text_prop(&b, "RO", g->round);
	if (g->time_limit_s >= 0) {
		fmt_ms(num, sizeof num, llround(g->time_limit_s * 1000.0));
		sb_puts(&b, "TM[");
		sb_puts(&b, num);
		sb_puts(&b, "]");
	}
	sb_text_prop(&b, "OT", g->overtime);
	sb_text_prop(&b, "RE", g->result);
	if (g->warnings_black || g->warnings_white) {
		snprintf(num, sizeof num, "WN[%d:%d]", g->warnings_black, g->warnings_white);
		sb_puts(&b, num);
	}
	sb_text_prop(&b, "C", g->comment);
	for (size_t i = 0; i < g->nmoves; i++) {
		const struct sgf_move *m = &g->moves[i];
		bool black = m->color == SGF_BLACK;
		sb_puts(&b, black ? "\n;B" : "\n;W");
		sb_point(&b, g->size, m->x, m->y);
		if (m->time_left_ms >= 0) {
			fmt_ms(num, sizeof num, m->time_left_ms);
			sb_puts(&b, black ? "BL[" : "WL[");
			sb_puts(&b, num);
			sb_puts(&b, "]");
		}
		if (m->periods_left >= 0) {
			snprintf(num, sizeof num, "%s[%d]", black ? "OB" : "OW", m->periods_left);
			sb_puts(&b, num);
		}
		sb_text_prop(&b, "C", m->comment);
	}
	/* The count of the final position ends the last node. */
	sb_point_list(&b, "TB", g->size, g->territory_black, g->nterritory_black);
	sb_point_list(&b, "TW", g->size, g->territory_white, g->nterritory_white);
	sb_point_list(&b, "DS", g->size, g->dead, g->ndead);
	sb_puts(&b, ")\n");
	if (b.oom) {
		free(b.buf);
		return NULL;
	}
	return b.buf;
}
