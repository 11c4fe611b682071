/* sgf_read: the SGF reader, sgf_parse (see sgf.h). */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgf_int.h"

/* ------------------------------------------------------------------------------------------ */
/* Reader                                                                                     */

/* The properties we interpret. Everything else is skipped. */
enum prop {
	P_B, P_W, P_AB, P_AW, P_AE, P_C, P_BL, P_WL, P_OB, P_OW,
	P_GM, P_SZ, P_KM, P_HA, P_PL, P_PB, P_PW, P_BR, P_WR, P_DT, P_EV, P_RO, P_RU, P_RE, P_OT,
	P_TM, P_TB, P_TW, P_WN, P_DS,
	P_COUNT,
	P_UNKNOWN = P_COUNT
};

static const struct {
	const char *id;
	bool list; /* takes several values, and may repeat in a node */
} prop_info[P_COUNT] = {
	[P_B] = {"B", false},   [P_W] = {"W", false},   [P_AB] = {"AB", true},
	[P_AW] = {"AW", true},  [P_AE] = {"AE", true},  [P_C] = {"C", false},
	[P_BL] = {"BL", false}, [P_WL] = {"WL", false}, [P_OB] = {"OB", false},
	[P_OW] = {"OW", false}, [P_GM] = {"GM", false}, [P_SZ] = {"SZ", false},
	[P_KM] = {"KM", false}, [P_HA] = {"HA", false}, [P_PL] = {"PL", false},
	[P_PB] = {"PB", false}, [P_PW] = {"PW", false}, [P_BR] = {"BR", false},
	[P_WR] = {"WR", false}, [P_DT] = {"DT", false}, [P_EV] = {"EV", false},
	[P_RO] = {"RO", false}, [P_RU] = {"RU", false}, [P_RE] = {"RE", false},
	[P_OT] = {"OT", false}, [P_TM] = {"TM", false}, [P_TB] = {"TB", true},
	[P_TW] = {"TW", true},  [P_WN] = {"WN", false}, [P_DS] = {"DS", true},
};

/* One value of a known property in the node being read: the bytes between '[' and ']'. */
struct pval {
	uint8_t prop;
	size_t open;  /* offset of '[' */
	size_t start; /* offset of the first byte of the value */
	size_t len;   /* raw length, escapes included */
};

struct parser {
	const char *s;
	size_t len;
	size_t pos;
	struct sgf_error *err;
	struct sgf_game g;
	/* the main-line node being read */
	struct pval vals[SGF_MAX_NODE_VALUES];
	size_t nvals;
	uint32_t seen; /* bit per enum prop seen in this node */
	size_t node_open; /* offset of its ';' */
	size_t nodes_done; /* main-line nodes interpreted so far */
	/* setup: colour per point and the order points were last set in */
	uint8_t setup_color[BOARD_MAX_SIZE][BOARD_MAX_SIZE];
	uint32_t setup_seq[BOARD_MAX_SIZE][BOARD_MAX_SIZE];
	uint32_t seq;
	size_t setup_ops;
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(struct parser *ps, size_t off, const char *fmt, ...)
{
	if (ps->err) {
		char msg[SGF_ERROR_MAX];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		ps->err->offset = off;
		snprintf(ps->err->message, sizeof ps->err->message, "%.*s at byte %zu",
		         (int)(SGF_ERROR_MAX - 32), msg, off);
	}
	return -1;
}

static bool is_ws(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static bool is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }

static void skip_ws(struct parser *ps)
{
	while (ps->pos < ps->len && is_ws((unsigned char)ps->s[ps->pos]))
		ps->pos++;
}

/* A short printable rendering of a raw value for messages ("zz", "a\"...). */
static void show_raw(char *out, size_t outsz, const char *s, size_t len)
{
	size_t keep = outsz - 4, j = 0;
	for (size_t i = 0; i < len && j < keep; i++) {
		unsigned char c = (unsigned char)s[i];
		out[j++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (len > keep) {
		memcpy(out + j, "...", 3);
		j += 3;
	}
	out[j] = '\0';
}

/* Describe the byte at pos for "unexpected ..." messages. */
static void show_byte(char *out, size_t outsz, unsigned char c)
{
	if (c >= 0x21 && c < 0x7f)
		snprintf(out, outsz, "character '%c'", c);
	else
		snprintf(out, outsz, "byte 0x%02x", c);
}

enum text_kind { TEXT_FULL, TEXT_SIMPLE };

/* Decode a raw value (escapes, soft line breaks; line breaks normalised to "\n" for TEXT_FULL,
 * whitespace to ' ' for TEXT_SIMPLE) into a new string. NULL when out of memory. */
static char *decode_text(const char *s, size_t len, enum text_kind kind)
{
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	size_t j = 0;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < len) {
			char n = s[++i];
			if (n == '\n' || n == '\r') {
				/* soft line break: drop it, with the other half of \r\n or \n\r */
				if (i + 1 < len && (s[i + 1] == '\n' || s[i + 1] == '\r') && s[i + 1] != n)
					i++;
				continue;
			}
			c = n;
			if (kind == TEXT_SIMPLE && is_ws((unsigned char)c))
				c = ' ';
			out[j++] = c;
			continue;
		}
		if (c == '\n' || c == '\r') {
			if (i + 1 < len && (s[i + 1] == '\n' || s[i + 1] == '\r') && s[i + 1] != c)
				i++;
			out[j++] = kind == TEXT_SIMPLE ? ' ' : '\n';
			continue;
		}
		if (kind == TEXT_SIMPLE && is_ws((unsigned char)c))
			c = ' ';
		out[j++] = c;
	}
	out[j] = '\0';
	return out;
}

static int decode_value(struct parser *ps, const struct pval *v, enum text_kind kind, char **out)
{
	*out = decode_text(ps->s + v->start, v->len, kind);
	if (!*out)
		return fail(ps, v->open, "out of memory"), SGF_ENOMEM;
	return SGF_OK;
}

/* Parse a decoded number: optional sign, digits, optional '.' and digits, surrounding spaces
 * allowed. integer_only forbids the fraction. Returns false when malformed. */
static bool parse_number(const char *s, bool integer_only, double *out)
{
	while (*s == ' ')
		s++;
	bool neg = false;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	uint64_t mant = 0;
	int digits = 0, frac = 0, sig = 0, dropped = 0;
	while (*s >= '0' && *s <= '9') {
		if (sig < 17) {
			mant = mant * 10 + (uint64_t)(*s - '0');
			if (mant)
				sig++;
		} else {
			dropped++;
		}
		digits++;
		s++;
	}
	if (*s == '.') {
		if (integer_only)
			return false;
		s++;
		while (*s >= '0' && *s <= '9') {
			if (sig < 17 && frac < 20) {
				mant = mant * 10 + (uint64_t)(*s - '0');
				if (mant)
					sig++;
				frac++;
			}
			digits++;
			s++;
		}
	}
	while (*s == ' ')
		s++;
	if (!digits || *s || dropped > 20)
		return false;
	double v = (double)mant;
	for (int i = 0; i < dropped; i++)
		v *= 10;
	static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	                               1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20};
	v /= pow10[frac];
	*out = neg ? -v : v;
	return true;
}

/* Read a number value within [lo, hi]. */
static int read_number(struct parser *ps, const struct pval *v, bool integer_only, double lo,
                       double hi, double *out)
{
	char *t;
	int rc = decode_value(ps, v, TEXT_SIMPLE, &t);
	if (rc)
		return rc;
	double d = 0;
	bool ok = parse_number(t, integer_only, &d);
	free(t);
	char raw[24];
	show_raw(raw, sizeof raw, ps->s + v->start, v->len);
	const char *id = prop_info[v->prop].id;
	if (!ok)
		return fail(ps, v->open, "%s[%s] is not %s", id, raw,
		            integer_only ? "an integer" : "a number"), SGF_EVALUE;
	if (!(d >= lo && d <= hi))
		return fail(ps, v->open, "%s[%s] is out of range (%g..%g)", id, raw, lo, hi),
		       SGF_EVALUE;
	*out = d;
	return SGF_OK;
}

static int letter_coord(char c)
{
	if (c >= 'a' && c <= 'z')
		return c - 'a';
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 26;
	return -1;
}

/* Decode the two-letter point at s[0..1] (raw bytes; len must be 2). allow_pass reads "tt" on
 * boards up to 19 as a pass. Returns SGF_OK with *x, *y (or -1, -1 for a pass). */
static int read_point2(struct parser *ps, const struct pval *v, const char *s, size_t len,
                       bool allow_pass, int *x, int *y)
{
	int size = ps->g.size;
	char raw[24];
	show_raw(raw, sizeof raw, s, len);
	int cx = len == 2 ? letter_coord(s[0]) : -1;
	int cy = len == 2 ? letter_coord(s[1]) : -1;
	if (cx < 0 || cy < 0)
		return fail(ps, v->open, "bad point '%s' in %s", raw, prop_info[v->prop].id),
		       SGF_EVALUE;
	if (allow_pass && size <= 19 && cx == 19 && cy == 19) {
		*x = *y = -1;
		return SGF_OK;
	}
	if (cx >= size || cy >= size)
		return fail(ps, v->open, "point '%s' off the %dx%d board", raw, size, size),
		       SGF_EVALUE;
	*x = cx;
	*y = size - 1 - cy;
	return SGF_OK;
}

/* A move value: empty (pass), "tt" (pass on boards up to 19) or a point. */
static int read_move_point(struct parser *ps, const struct pval *v, int *x, int *y)
{
	const char *s = ps->s + v->start;
	size_t len = v->len;
	/* surrounding whitespace is tolerated */
	while (len && is_ws((unsigned char)s[0]))
		s++, len--;
	while (len && is_ws((unsigned char)s[len - 1]))
		len--;
	if (len == 0) {
		*x = *y = -1;
		return SGF_OK;
	}
	return read_point2(ps, v, s, len, true, x, y);
}

static int setup_apply(struct parser *ps, const struct pval *v, uint8_t color, int x, int y)
{
	if (++ps->setup_ops > SGF_MAX_SETUP_POINTS)
		return fail(ps, v->open, "more than %d setup points", SGF_MAX_SETUP_POINTS),
		       SGF_ELIMIT;
	ps->setup_color[y][x] = color;
	ps->setup_seq[y][x] = ++ps->seq;
	return SGF_OK;
}

/* AB/AW/AE value: a point or a rectangle "aa:cc". */
static int read_setup(struct parser *ps, const struct pval *v)
{
	const char *s = ps->s + v->start;
	size_t len = v->len;
	uint8_t color = v->prop == P_AB ? SGF_BLACK : v->prop == P_AW ? SGF_WHITE : 0;
	const char *colon = memchr(s, ':', len);
	int x0, y0, x1, y1, rc;
	if (colon) {
		size_t l0 = (size_t)(colon - s);
		if ((rc = read_point2(ps, v, s, l0, false, &x0, &y0)))
			return rc;
		if ((rc = read_point2(ps, v, colon + 1, len - l0 - 1, false, &x1, &y1)))
			return rc;
	} else {
		if ((rc = read_point2(ps, v, s, len, false, &x0, &y0)))
			return rc;
		x1 = x0;
		y1 = y0;
	}
	int xa = x0 < x1 ? x0 : x1, xb = x0 < x1 ? x1 : x0;
	int ya = y0 < y1 ? y0 : y1, yb = y0 < y1 ? y1 : y0;
	for (int y = yb; y >= ya; y--) /* top row first, as SGF lists them */
		for (int x = xa; x <= xb; x++)
			if ((rc = setup_apply(ps, v, color, x, y)))
				return rc;
	return SGF_OK;
}

/* TB/TW value: a point or a rectangle "aa:cc", appended to the colour's territory; a DS value
 * the same way to the dead stones. */
static int read_territory(struct parser *ps, const struct pval *v)
{
	const char *s = ps->s + v->start;
	size_t len = v->len;
	const char *colon = memchr(s, ':', len);
	int x0, y0, x1, y1, rc;
	if (colon) {
		size_t l0 = (size_t)(colon - s);
		if ((rc = read_point2(ps, v, s, l0, false, &x0, &y0)) ||
		    (rc = read_point2(ps, v, colon + 1, len - l0 - 1, false, &x1, &y1)))
			return rc;
	} else {
		if ((rc = read_point2(ps, v, s, len, false, &x0, &y0)))
			return rc;
		x1 = x0;
		y1 = y0;
	}
	struct sgf_game *g = &ps->g;
	bool black = v->prop == P_TB;
	int xa = x0 < x1 ? x0 : x1, xb = x0 < x1 ? x1 : x0;
	int ya = y0 < y1 ? y0 : y1, yb = y0 < y1 ? y1 : y0;
	for (int y = yb; y >= ya; y--)
		for (int x = xa; x <= xb; x++) {
			if (g->nterritory_black + g->nterritory_white + g->ndead >= SGF_MAX_SETUP_POINTS)
				return fail(ps, v->open, "more than %d territory points",
				            SGF_MAX_SETUP_POINTS), SGF_ELIMIT;
			if ((v->prop == P_DS ? sgf_game_add_dead(g, x, y)
					     : sgf_game_add_territory(g, black ? SGF_BLACK : SGF_WHITE, x, y))
			    != SGF_OK)
				return fail(ps, v->open, "out of memory"), SGF_ENOMEM;
		}
	return SGF_OK;
}

/* WN[b:w]: two numbers of warnings. */
static int read_warnings(struct parser *ps, const struct pval *v)
{
	const char *s = ps->s + v->start;
	const char *colon = memchr(s, ':', v->len);
	if (!colon)
		return fail(ps, v->open, "WN is not two numbers b:w"), SGF_EVALUE;
	struct pval a = *v, b = *v;
	a.len = (size_t)(colon - s);
	b.start = v->start + a.len + 1;
	b.len = v->len - a.len - 1;
	double wb, ww;
	int rc;
	if ((rc = read_number(ps, &a, true, 0, SGF_MAX_WARNINGS, &wb)) ||
	    (rc = read_number(ps, &b, true, 0, SGF_MAX_WARNINGS, &ww)))
		return rc;
	ps->g.warnings_black = (int)wb;
	ps->g.warnings_white = (int)ww;
	return SGF_OK;
}

static char **text_field(struct sgf_game *g, int prop)
{
	switch (prop) {
	case P_PB: return &g->black;
	case P_PW: return &g->white;
	case P_BR: return &g->black_rank;
	case P_WR: return &g->white_rank;
	case P_DT: return &g->date;
	case P_EV: return &g->event;
	case P_RO: return &g->round;
	case P_RU: return &g->rules;
	case P_RE: return &g->result;
	case P_OT: return &g->overtime;
	default: return NULL;
	}
}

/* Append text to *dst with a "\n" between (takes ownership of add). */
static int append_comment(struct parser *ps, const struct pval *v, char **dst, char *add)
{
	if (!*dst) {
		*dst = add;
		return SGF_OK;
	}
	size_t a = strlen(*dst), b = strlen(add);
	char *n = realloc(*dst, a + b + 2);
	if (!n) {
		free(add);
		return fail(ps, v->open, "out of memory"), SGF_ENOMEM;
	}
	n[a] = '\n';
	memcpy(n + a + 1, add, b + 1);
	free(add);
	*dst = n;
	return SGF_OK;
}

/* GM and SZ of a node (only in the root): points in this node depend on the size. */
static int node_size(struct parser *ps, bool root)
{
	struct sgf_game *g = &ps->g;
	int rc;
	double d;

	for (size_t i = 0; i < ps->nvals; i++) {
		const struct pval *v = &ps->vals[i];
		if (v->prop != P_GM && v->prop != P_SZ)
			continue;
		if (!root)
			return fail(ps, v->open, "%s is only allowed in the root node",
			            prop_info[v->prop].id), SGF_EUNSUPPORTED;
		if (v->prop == P_GM) {
			if ((rc = read_number(ps, v, true, -1e9, 1e9, &d)))
				return rc;
			if (d != 1)
				return fail(ps, v->open, "GM[%d] is not Go (only GM[1] is read)", (int)d),
				       SGF_EUNSUPPORTED;
			continue;
		}
		/* SZ[n] or SZ[n:n] */
		const char *s = ps->s + v->start;
		const char *colon = memchr(s, ':', v->len);
		struct pval a = *v, b = *v;
		if (colon) {
			a.len = (size_t)(colon - s);
			b.start = v->start + a.len + 1;
			b.len = v->len - a.len - 1;
		}
		double w, h;
		if ((rc = read_number(ps, &a, true, -1e9, 1e9, &w)))
			return rc;
		if ((rc = read_number(ps, &b, true, -1e9, 1e9, &h)))
			return rc;
		if (w != h)
			return fail(ps, v->open, "board %dx%d is not square", (int)w, (int)h),
			       SGF_EUNSUPPORTED;
		if (!size_ok((int)w))
			return fail(ps, v->open, "board size %d out of range (%d..%d)", (int)w,
			            BOARD_MIN_SIZE, BOARD_MAX_SIZE), SGF_EVALUE;
		g->size = (int)w;
	}
	return SGF_OK;
}

/* PL: B or W (either case, spaces around), into g->first_color. */
static int read_first_player(struct parser *ps, const struct pval *v)
{
	char *t;
	int rc;
	if ((rc = decode_value(ps, v, TEXT_SIMPLE, &t)))
		return rc;
	char *p = t;
	while (*p == ' ')
		p++;
	size_t n = strlen(p);
	while (n && p[n - 1] == ' ')
		n--;
	int c = 0;
	if (n == 1 && (*p == 'B' || *p == 'b'))
		c = SGF_BLACK;
	else if (n == 1 && (*p == 'W' || *p == 'w'))
		c = SGF_WHITE;
	free(t);
	if (!c) {
		char raw[24];
		show_raw(raw, sizeof raw, ps->s + v->start, v->len);
		return fail(ps, v->open, "PL[%s] is not B or W", raw), SGF_EVALUE;
	}
	ps->g.first_color = c;
	return SGF_OK;
}

/* The values of a node read after the others: the move, its comment and its times. */
struct node_later {
	const struct pval *move, *comment;
	const struct pval *time[3], *period[3]; /* by SGF_BLACK, SGF_WHITE */
};

/* Read a number property of the game information (KM, HA, TM) into g. */
static int read_info_number(struct parser *ps, const struct pval *v)
{
	struct sgf_game *g = &ps->g;
	int rc;
	double d;
	switch (v->prop) {
	case P_KM:
		if ((rc = read_number(ps, v, false, -SGF_MAX_KOMI, SGF_MAX_KOMI, &d)))
			return rc;
		/* To the thousandth of a point, as sgf_write writes it: a record read back
		 * from what we wrote has the same komi. */
		g->komi = round(d * 1000.0) / 1000.0;
		break;
	case P_HA:
		if ((rc = read_number(ps, v, true, 0, SGF_MAX_HANDICAP, &d)))
			return rc;
		/* FF4: HA is 2 or more; HA[1] (no stones placed) reads as none, as it is
		 * written, so that a record reads back the same */
		g->handicap = d >= 2 ? (int)d : 0;
		break;
	default: /* P_TM */
		if ((rc = read_number(ps, v, false, 0, SGF_MAX_TIME_S, &d)))
			return rc;
		g->time_limit_s = d;
		break;
	}
	return SGF_OK;
}

/* Interpret the node's values but GM and SZ (node_size) and those kept for later in *lt. */
static int node_props(struct parser *ps, struct node_later *lt)
{
	struct sgf_game *g = &ps->g;
	int rc;

	/* A node with TB, TW or DS gives the count anew. */
	if (ps->seen & ((1u << P_TB) | (1u << P_TW) | (1u << P_DS))) {
		free(g->territory_black);
		free(g->territory_white);
		free(g->dead);
		g->territory_black = g->territory_white = g->dead = NULL;
		g->nterritory_black = g->nterritory_white = g->ndead = 0;
	}
	for (size_t i = 0; i < ps->nvals; i++) {
		const struct pval *v = &ps->vals[i];
		char *t;
		switch (v->prop) {
		case P_GM:
		case P_SZ:
			break;
		case P_B:
		case P_W:
			if (lt->move)
				return fail(ps, v->open, "node has both B and W"), SGF_EVALUE;
			lt->move = v;
			break;
		case P_AB:
		case P_AW:
		case P_AE:
			if (g->nmoves)
				return fail(ps, v->open, "setup property %s after the first move is not "
				            "supported", prop_info[v->prop].id), SGF_EUNSUPPORTED;
			if ((rc = read_setup(ps, v)))
				return rc;
			break;
		case P_C: lt->comment = v; break;
		case P_TB:
		case P_TW:
		case P_DS:
			if ((rc = read_territory(ps, v)))
				return rc;
			break;
		case P_WN:
			if ((rc = read_warnings(ps, v)))
				return rc;
			break;
		case P_BL: lt->time[SGF_BLACK] = v; break;
		case P_WL: lt->time[SGF_WHITE] = v; break;
		case P_OB: lt->period[SGF_BLACK] = v; break;
		case P_OW: lt->period[SGF_WHITE] = v; break;
		case P_KM:
		case P_HA:
		case P_TM:
			if ((rc = read_info_number(ps, v)))
				return rc;
			break;
		case P_PL:
			if ((rc = read_first_player(ps, v)))
				return rc;
			break;
		default: {
			char **f = text_field(g, v->prop);
			if (!f)
				break;
			if ((rc = decode_value(ps, v, TEXT_SIMPLE, &t)))
				return rc;
			free(*f);
			*f = t;
			break;
		}
		}
	}
	return SGF_OK;
}

/* Append the node's move (lt->move) with its time left, periods and comment. */
static int node_move(struct parser *ps, const struct node_later *lt)
{
	struct sgf_game *g = &ps->g;
	const struct pval *movev = lt->move;
	int rc, x, y;
	double d;
	if ((rc = read_move_point(ps, movev, &x, &y)))
		return rc;
	if ((rc = sgf_moves_reserve(g))) {
		if (rc == SGF_ELIMIT)
			return fail(ps, movev->open, "more than %d moves", SGF_MAX_MOVES), rc;
		return fail(ps, movev->open, "out of memory"), rc;
	}
	uint8_t color = movev->prop == P_B ? SGF_BLACK : SGF_WHITE;
	int32_t ms = -1;
	int periods = -1;
	if (lt->time[color]) {
		if ((rc = read_number(ps, lt->time[color], false, 0, SGF_MAX_TIME_S, &d)))
			return rc;
		ms = (int32_t)llround(d * 1000.0);
	}
	if (lt->period[color]) {
		if ((rc = read_number(ps, lt->period[color], true, 0, SGF_MAX_PERIODS, &d)))
			return rc;
		periods = (int)d;
	}
	char *c = NULL;
	if (lt->comment && (rc = decode_value(ps, lt->comment, TEXT_FULL, &c)))
		return rc;
	struct sgf_move *m = &g->moves[g->nmoves++];
	m->color = color;
	m->x = (int16_t)x;
	m->y = (int16_t)y;
	m->time_left_ms = ms;
	m->periods_left = (int16_t)periods;
	m->comment = c;
	return SGF_OK;
}

/* Interpret the buffered values of one main-line node. */
static int process_node(struct parser *ps)
{
	struct sgf_game *g = &ps->g;
	bool root = ps->nodes_done == 0;
	struct node_later lt = { 0 };
	int rc;

	if ((rc = node_size(ps, root)) || (rc = node_props(ps, &lt)))
		return rc;
	if (lt.move)
		return node_move(ps, &lt);
	if (lt.comment) {
		char *c;
		if ((rc = decode_value(ps, lt.comment, TEXT_FULL, &c)))
			return rc;
		char **dst = (root || !g->nmoves) ? &g->comment : &g->moves[g->nmoves - 1].comment;
		if ((rc = append_comment(ps, lt.comment, dst, c)))
			return rc;
	}
	return SGF_OK;
}

/* Scan one property value starting at '[' (ps->pos). On return ps->pos is past ']'. */
static int scan_value(struct parser *ps, size_t *start, size_t *len)
{
	size_t open = ps->pos;
	size_t i = open + 1;
	while (i < ps->len) {
		char c = ps->s[i];
		if (c == ']') {
			*start = open + 1;
			*len = i - open - 1;
			ps->pos = i + 1;
			return SGF_OK;
		}
		if (c == '\0')
			return fail(ps, i, "NUL byte in property value"), SGF_ESYNTAX;
		if (c == '\\') {
			i++;
			if (i < ps->len && ps->s[i] == '\0')
				return fail(ps, i, "NUL byte in property value"), SGF_ESYNTAX;
		}
		i++;
	}
	return fail(ps, open, "unterminated property value"), SGF_ESYNTAX;
}

static int lookup_prop(const char *id)
{
	for (int i = 0; i < P_COUNT; i++)
		if (!strcmp(prop_info[i].id, id))
			return i;
	return P_UNKNOWN;
}

/* Read one property (identifier and its values) at ps->pos. on_main: buffer known values. */
static int parse_property(struct parser *ps, bool on_main)
{
	size_t idpos = ps->pos;
	char id[SGF_MAX_PROP_ID + 1];
	size_t nid = 0;
	bool overlong = false;
	while (ps->pos < ps->len) {
		unsigned char c = (unsigned char)ps->s[ps->pos];
		if (is_upper(c)) {
			if (nid < SGF_MAX_PROP_ID)
				id[nid++] = (char)c;
			else
				overlong = true;
		} else if (!is_lower(c)) {
			break;
		}
		ps->pos++;
	}
	id[nid] = '\0';
	if (nid == 0)
		return fail(ps, idpos, "property identifier has no uppercase letter"), SGF_ESYNTAX;
	skip_ws(ps);
	if (ps->pos >= ps->len || ps->s[ps->pos] != '[')
		return fail(ps, ps->pos, "property %s%s has no value", id, overlong ? "..." : ""),
		       SGF_ESYNTAX;
	int prop = (on_main && !overlong) ? lookup_prop(id) : P_UNKNOWN;
	if (prop != P_UNKNOWN) {
		uint32_t bit = 1u << prop;
		if ((ps->seen & bit) && !prop_info[prop].list)
			return fail(ps, idpos, "property %s repeated in one node", id), SGF_EVALUE;
		ps->seen |= bit;
	}
	size_t nvalues = 0;
	while (ps->pos < ps->len && ps->s[ps->pos] == '[') {
		size_t open = ps->pos, start, len;
		int rc = scan_value(ps, &start, &len);
		if (rc)
			return rc;
		if (prop != P_UNKNOWN) {
			if (nvalues && !prop_info[prop].list)
				return fail(ps, open, "property %s takes one value", id), SGF_EVALUE;
			if (ps->nvals >= SGF_MAX_NODE_VALUES)
				return fail(ps, open, "more than %d property values in one node",
				            SGF_MAX_NODE_VALUES), SGF_ELIMIT;
			struct pval *v = &ps->vals[ps->nvals++];
			v->prop = (uint8_t)prop;
			v->open = open;
			v->start = start;
			v->len = len;
		}
		nvalues++;
		skip_ws(ps);
	}
	return SGF_OK;
}

static int point_seq_cmp(const void *a, const void *b)
{
	uint32_t x = ((const uint32_t *)a)[0], y = ((const uint32_t *)b)[0];
	return x < y ? -1 : x > y;
}

/* Turn the setup grid into the AB/AW lists, in the order the points were last set. */
static int build_setup(struct parser *ps)
{
	struct sgf_game *g = &ps->g;
	uint32_t order[BOARD_MAX_SIZE * BOARD_MAX_SIZE][2]; /* seq, y * MAX + x */
	size_t n = 0, nb = 0, nw = 0;
	for (int y = 0; y < g->size; y++)
		for (int x = 0; x < g->size; x++) {
			uint8_t c = ps->setup_color[y][x];
			if (c == SGF_BLACK || c == SGF_WHITE) {
				order[n][0] = ps->setup_seq[y][x];
				order[n][1] = (uint32_t)(y * BOARD_MAX_SIZE + x);
				n++;
				if (c == SGF_BLACK)
					nb++;
				else
					nw++;
			}
		}
	if (!n)
		return SGF_OK;
	qsort(order, n, sizeof order[0], point_seq_cmp);
	if (nb && !(g->setup_black = malloc(nb * sizeof *g->setup_black)))
		return fail(ps, 0, "out of memory"), SGF_ENOMEM;
	if (nw && !(g->setup_white = malloc(nw * sizeof *g->setup_white)))
		return fail(ps, 0, "out of memory"), SGF_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int x = (int)(order[i][1] % BOARD_MAX_SIZE), y = (int)(order[i][1] / BOARD_MAX_SIZE);
		struct sgf_point p = {(int16_t)x, (int16_t)y};
		if (ps->setup_color[y][x] == SGF_BLACK)
			g->setup_black[g->nsetup_black++] = p;
		else
			g->setup_white[g->nsetup_white++] = p;
	}
	return SGF_OK;
}

/* The grammar walk. The main line is the first game tree's root sequence followed, at every
 * branch, by the first variation: main-line trees are a prefix of the open trees, so it is
 * enough to know the depth of the deepest main-line tree open and whether the main line has
 * ended (its deepest tree closed). */
static int parse_all(struct parser *ps)
{
	int rc;
	size_t depth = 0, main_depth = 0;
	bool main_done = false, node_open = false, node_main = false, after_child = false;

	/* optional UTF-8 byte order mark, then whitespace, then '(' */
	if (ps->len >= 3 && !memcmp(ps->s, "\xEF\xBB\xBF", 3))
		ps->pos = 3;
	skip_ws(ps);
	if (ps->pos >= ps->len)
		return fail(ps, ps->pos, "expected '(' (empty input)"), SGF_ESYNTAX;
	if (ps->s[ps->pos] != '(')
		return fail(ps, ps->pos, "expected '('"), SGF_ESYNTAX;

	for (;;) {
		skip_ws(ps);
		if (ps->pos >= ps->len)
			break;
		char c = ps->s[ps->pos];
		if (depth == 0 && c != '(') {
			char what[24];
			show_byte(what, sizeof what, (unsigned char)c);
			return fail(ps, ps->pos, "unexpected %s after the game tree", what), SGF_ESYNTAX;
		}
		if (c == '(' || c == ')' || c == ';') {
			if (node_open && node_main) {
				if ((rc = process_node(ps)))
					return rc;
				ps->nodes_done++;
			}
			node_open = false;
		}
		if (c == '(') {
			bool on_main = !main_done && depth == main_depth;
			depth++;
			if (on_main)
				main_depth = depth;
			ps->pos++;
			skip_ws(ps);
			if (ps->pos >= ps->len)
				return fail(ps, ps->pos, "unexpected end of input (expected ';')"),
				       SGF_ESYNTAX;
			if (ps->s[ps->pos] != ';')
				return fail(ps, ps->pos, "expected ';' to start a game tree"), SGF_ESYNTAX;
			after_child = false;
		} else if (c == ')') {
			if (!main_done && depth == main_depth)
				main_done = true;
			depth--;
			ps->pos++;
			after_child = true;
		} else if (c == ';') {
			if (after_child)
				return fail(ps, ps->pos, "node after a variation"), SGF_ESYNTAX;
			node_open = true;
			node_main = !main_done && depth == main_depth;
			ps->nvals = 0;
			ps->seen = 0;
			ps->node_open = ps->pos;
			ps->pos++;
		} else if (is_upper((unsigned char)c) || is_lower((unsigned char)c)) {
			if (!node_open)
				return fail(ps, ps->pos, "property outside a node"), SGF_ESYNTAX;
			if ((rc = parse_property(ps, node_main)))
				return rc;
		} else {
			char what[24];
			show_byte(what, sizeof what, (unsigned char)c);
			return fail(ps, ps->pos, "unexpected %s", what), SGF_ESYNTAX;
		}
	}
	if (depth > 0)
		return fail(ps, ps->len, "unexpected end of input (%zu game tree%s not closed)", depth,
		            depth == 1 ? "" : "s"), SGF_ESYNTAX;
	return build_setup(ps);
}

int sgf_parse(const char *data, size_t len, struct sgf_game *out, struct sgf_error *err)
{
	if (err) {
		err->offset = 0;
		err->message[0] = '\0';
	}
	if (!out || (!data && len))
		return SGF_EINVAL;
	struct parser *ps = calloc(1, sizeof *ps);
	if (!ps) {
		if (err) {
			err->offset = 0;
			snprintf(err->message, sizeof err->message, "out of memory at byte 0");
		}
		return SGF_ENOMEM;
	}
	ps->s = data ? data : "";
	ps->len = len;
	ps->err = err;
	sgf_game_init(&ps->g);
	int rc;
	if (len > SGF_MAX_INPUT) {
		fail(ps, SGF_MAX_INPUT, "input is over %d bytes", SGF_MAX_INPUT);
		rc = SGF_ELIMIT;
	} else {
		rc = parse_all(ps);
	}
	if (rc == SGF_OK)
		*out = ps->g;
	else
		sgf_game_free(&ps->g);
	free(ps);
	return rc;
}
