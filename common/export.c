/* export: JSON and CSV renderings of a tournament, and the parts the h9 and HTML renderings
 * share (export_int.h); see export.h. */
#include "export.h"
#include "export_int.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rating.h"
#include "standings.h"

/* A bye or absence credited with at least these fractions of a win shows as "+" / "=". */
#define EXPORT_CREDIT_WIN 0.75
#define EXPORT_CREDIT_HALF 0.25

/* ---- A growable string ---- */

void export_buf_add(struct export_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *s;

		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		s = realloc(b->s, cap);
		if (!s) {
			b->failed = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Hands the string to *out, or frees it: EXPORT_OK or EXPORT_ENOMEM. */
int export_buf_finish(struct export_buf *b, char **out)
{
	if (!b->failed && !b->s)
		export_buf_add(b, "%s", "");
	if (b->failed) {
		free(b->s);
		return EXPORT_ENOMEM;
	}
	*out = b->s;
	return EXPORT_OK;
}

/* ---- Text checks ---- */

/* Valid UTF-8 (no overlongs, surrogates or values above U+10FFFF), no control characters,
 * at most EXPORT_TEXT_MAX bytes. */
bool export_text_ok(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s);

	if (len > EXPORT_TEXT_MAX)
		return false;
	while (*p) {
		unsigned c = *p;
		int n, i;
		unsigned long cp;

		if (c < 0x20 || c == 0x7f)
			return false;
		if (c < 0x80) {
			p++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else if (c >= 0xf0 && c <= 0xf4) {
			n = 3;
			cp = c & 0x07;
		} else {
			return false;
		}
		for (i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (p[i] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
				(cp >= 0xd800 && cp <= 0xdfff))
			return false;
		p += n + 1;
	}
	return true;
}

/* A token for h9: non-empty text without spaces. */
bool export_token_ok(const char *s)
{
	return s && *s && export_text_ok(s) && !strchr(s, ' ');
}

/* yyyy-mm-dd with month 01..12 and day 01..31. */
bool export_date_ok(const char *s)
{
	int i, m, d;

	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return false;
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	return m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/* Two ASCII letters (ISO 3166-1 alpha-2), either case. */
static bool country_ok(const char *s)
{
	return strlen(s) == 2 && isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1]);
}

/* EXPORT_PIN_DIGITS decimal digits. */
static bool pin_ok(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return i == EXPORT_PIN_DIGITS;
}

/* ---- The common part: standings, numbering, round table ---- */


void export_ctx_free(struct export_ctx *x)
{
	free(x->rows);
	free(x->num);
	free(x->slot);
}

int *export_ctx_slot(const struct export_ctx *x, int player, int round)
{
	return &x->slot[(size_t)player * (size_t)x->R + (size_t)(round - 1)];
}

static int map_err(int err)
{
	return err == STANDINGS_ENOMEM ? EXPORT_ENOMEM : EXPORT_EINVAL;
}

int export_ctx_init(struct export_ctx *x, const struct event *ev, const struct export_info *info)
{
	static const struct export_info none = { 0 };
	const char *const *tbs;
	int ntb, i, rc;

	memset(x, 0, sizeof *x);
	if (!info)
		info = &none;
	rc = standings_validate(ev);
	if (rc)
		return map_err(rc);
	for (i = 0; i < ev->nplayers; i++) {
		const struct event_player *p = &ev->players[i];

		if (p->withdrawn_before_start)
			continue;
		if (!p->name || !export_text_ok(p->name) ||
				(p->full_name && !export_text_ok(p->full_name)) || (p->country && !country_ok(p->country)) ||
				(p->club && (!p->club[0] || !export_text_ok(p->club))) || (p->egd_pin && !pin_ok(p->egd_pin)))
			return EXPORT_EINVAL;
	}
	tbs = info->tiebreaks;
	ntb = info->ntiebreaks;
	if (!tbs)
		ntb = standings_default_tiebreaks(ev->system, &tbs);
	x->ev = ev;
	x->rows = malloc(((size_t)ev->nplayers + 1) * sizeof *x->rows);
	x->num = calloc((size_t)ev->nplayers + 1, sizeof *x->num);
	if (!x->rows || !x->num) {
		export_ctx_free(x);
		return EXPORT_ENOMEM;
	}
	rc = standings_compute(ev, info->after_round, tbs, ntb, x->rows);
	if (rc < 0) {
		export_ctx_free(x);
		return map_err(rc);
	}
	x->n = rc;
	x->ntb = ntb;
	for (i = 0; i < ntb; i++)
		x->tbname[i] = standings_tiebreak_name(standings_tiebreak_parse(tbs[i]));
	x->R = info->after_round ? info->after_round : ev->rounds_played;
	for (i = 0; i < x->n; i++)
		x->num[x->rows[i].player] = i + 1;
	x->slot = malloc(((size_t)ev->nplayers * (size_t)x->R + 1) * sizeof *x->slot);
	if (!x->slot) {
		export_ctx_free(x);
		return EXPORT_ENOMEM;
	}
	for (i = 0; i < ev->nplayers * x->R; i++)
		x->slot[i] = SLOT_EMPTY;
	for (i = 0; i < ev->ngames; i++) {
		const struct event_game *g = &ev->games[i];

		if (g->round > x->R || g->result == RESULT_VOID || !x->num[g->black] ||
				!x->num[g->white])
			continue;
		*export_ctx_slot(x, g->black, g->round) = i;
		*export_ctx_slot(x, g->white, g->round) = i;
	}
	for (i = 0; i < ev->nbyes; i++) {
		const struct event_bye *b = &ev->byes[i];

		int wd = ev->players[b->player].withdrawn_after;

		/* after the withdrawal: unplayed (`0-`), as the standings count it */
		if (b->round <= x->R && x->num[b->player] && !(wd > 0 && b->round > wd))
			*export_ctx_slot(x, b->player, b->round) = SLOT_BYE;
	}
	return EXPORT_OK;
}

/* A number with at most two decimals, trailing zeros dropped: "12", "7.5", "3.25". */
void export_fmt_num(char *out, double v)
{
	char *p;

	snprintf(out, EXPORT_FIELD_MAX, "%.2f", v);
	p = out + strlen(out) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	if (strcmp(out, "-0") == 0)
		strcpy(out, "0");
}

static char credit_sign(double credit, double win)
{
	if (credit >= EXPORT_CREDIT_WIN * win)
		return '+';
	if (credit >= EXPORT_CREDIT_HALF * win)
		return '=';
	return '-';
}



struct export_round export_round_view(const struct export_ctx *x, int player, int r)
{
	const struct event *ev = x->ev;
	struct export_round v = { 0 };
	int s = *export_ctx_slot(x, player, r);
	bool mcmahon = ev->system == SYSTEM_MCMAHON;

	if (s == SLOT_BYE) {
		v.kind = EXPORT_ROUND_BYE;
		v.result = mcmahon ? credit_sign(ev->mms_bye, 1.0) :
			credit_sign(ev->bye_points, STANDINGS_WIN_POINTS);
		return v;
	}
	if (s == SLOT_EMPTY) {
		int wd = ev->players[player].withdrawn_after;

		v.kind = EXPORT_ROUND_ABSENT;
		v.result = mcmahon && (wd == 0 || r <= wd) ? credit_sign(ev->mms_absent, 1.0) : '-';
		return v;
	}
	v.g = &ev->games[s];
	v.color = v.g->black == player ? 'b' : 'w';
	v.opp = x->num[v.g->black == player ? v.g->white : v.g->black];
	switch (v.g->result) {
	case RESULT_BLACK_WIN:
	case RESULT_BLACK_FORFEIT_WIN:
		v.result = v.color == 'b' ? '+' : '-';
		break;
	case RESULT_WHITE_WIN:
	case RESULT_WHITE_FORFEIT_WIN:
		v.result = v.color == 'w' ? '+' : '-';
		break;
	case RESULT_DRAW:
		v.result = '=';
		break;
	case RESULT_DOUBLE_LOSS:
		v.result = '-';
		break;
	default:
		v.kind = EXPORT_ROUND_PENDING;
		v.result = '?';
		return v;
	}
	/* A double loss is a double forfeit (Art. 17.5, 23.1): unplayed, "-!" for both. */
	v.kind = (v.g->result == RESULT_BLACK_FORFEIT_WIN ||
		v.g->result == RESULT_WHITE_FORFEIT_WIN ||
		v.g->result == RESULT_DOUBLE_LOSS) ? EXPORT_ROUND_FORFEIT : EXPORT_ROUND_GAME;
	return v;
}

/* "3+/w", "12-/b2", "5+!w"; the shared part of the CSV and h9 fields. */
void export_game_field(char *out, const struct export_round *v)
{
	char hc[16] = "";

	if (v->g->handicap > 0)
		snprintf(hc, sizeof hc, "%d", v->g->handicap);
	snprintf(out, EXPORT_FIELD_MAX, "%d%c%c%c%s", v->opp, v->result,
		v->kind == EXPORT_ROUND_FORFEIT ? '!' : '/', v->color, hc);
}

void export_rank_str(char *out, int rank)
{
	if (rank_format(rank, out, RANK_STR_MAX) != RATING_OK)
		strcpy(out, "?");
}

/* ---- JSON ---- */

static int jset(json_t *o, const char *k, json_t *v)
{
	return v ? json_object_set_new(o, k, v) : -1;
}

static json_t *json_round(const struct export_ctx *x, int player, int r)
{
	struct export_round v = export_round_view(x, player, r);
	json_t *o = json_object();
	const char *res;
	int bad = 0;

	if (!o)
		return NULL;
	bad |= jset(o, "round", json_integer(r));
	if (v.kind == EXPORT_ROUND_BYE || v.kind == EXPORT_ROUND_ABSENT) {
		bad |= jset(o, "result", json_string(v.kind == EXPORT_ROUND_BYE ? "bye" : "absent"));
	} else {
		if (v.kind == EXPORT_ROUND_PENDING)
			res = "pending";
		else if (v.g->result == RESULT_DOUBLE_LOSS)
			res = "double_loss";
		else
			res = v.result == '+' ? "win" : v.result == '-' ? "loss" : "draw";
		bad |= jset(o, "result", json_string(res));
		bad |= jset(o, "opponent", json_integer(v.opp));
		bad |= jset(o, "color", json_string(v.color == 'b' ? "b" : "w"));
		bad |= jset(o, "handicap", json_integer(v.g->handicap));
		bad |= jset(o, "forfeit", json_boolean(v.kind == EXPORT_ROUND_FORFEIT));
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *json_row(const struct export_ctx *x, const struct standing *s, int num)
{
	const struct event_player *p = &x->ev->players[s->player];
	json_t *o = json_object(), *tb = json_array(), *rounds = json_array();
	char rank[RANK_STR_MAX];
	int bad = 0, j, r;

	if (!o || !tb || !rounds) {
		json_decref(o);
		json_decref(tb);
		json_decref(rounds);
		return NULL;
	}
	export_rank_str(rank, p->rank);
	for (j = 0; j < s->ntiebreaks; j++)
		bad |= json_array_append_new(tb, json_real(s->tiebreak[j]));
	for (r = 1; r <= x->R; r++) {
		json_t *jr = json_round(x, s->player, r);

		bad |= jr ? json_array_append_new(rounds, jr) : -1;
	}
	bad |= jset(o, "num", json_integer(num));
	bad |= jset(o, "place", json_integer(s->place));
	bad |= jset(o, "player", json_integer(s->player));
	bad |= jset(o, "id", json_integer(p->id));
	bad |= jset(o, "name", json_string(p->name));
	if (p->full_name && p->full_name[0])
		bad |= jset(o, "full_name", json_string(p->full_name));
	bad |= jset(o, "rank", json_string(rank));
	bad |= jset(o, "rating", json_real(p->rating));
	bad |= jset(o, "score", json_real(s->score));
	bad |= jset(o, "points", json_integer(s->points));
	bad |= jset(o, "wins", json_integer(s->wins));
	bad |= jset(o, "draws", json_integer(s->draws));
	bad |= jset(o, "losses", json_integer(s->losses));
	bad |= jset(o, "byes", json_integer(s->byes));
	bad |= jset(o, "warnings", json_integer(s->warnings));
	bad |= jset(o, "tiebreaks", tb);
	bad |= jset(o, "rounds", rounds);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int export_json(const struct event *ev, const struct export_info *info, char **out)
{
	struct export_ctx x;
	json_t *root = NULL, *names, *rows;
	char *s;
	int rc, i, bad = 0;

	if (!out)
		return EXPORT_EINVAL;
	if (info && info->name && !export_text_ok(info->name))
		return EXPORT_EINVAL;
	rc = export_ctx_init(&x, ev, info);
	if (rc)
		return rc;
	rc = EXPORT_ENOMEM;
	root = json_object();
	if (!root)
		goto out;
	if (info && info->name)
		bad |= jset(root, "event", json_string(info->name));
	bad |= jset(root, "system", json_string(event_system_name(ev->system)));
	bad |= jset(root, "rounds", json_integer(x.R));
	bad |= jset(root, "score", json_string(standings_score_name(ev->system)));
	names = json_array();
	bad |= jset(root, "tiebreaks", names);
	for (i = 0; names && i < x.ntb; i++)
		bad |= json_array_append_new(names, json_string(x.tbname[i]));
	rows = json_array();
	bad |= jset(root, "standings", rows);
	for (i = 0; rows && i < x.n; i++) {
		json_t *row = json_row(&x, &x.rows[i], i + 1);

		bad |= row ? json_array_append_new(rows, row) : -1;
	}
	if (bad)
		goto out;
	s = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (!s)
		goto out;
	*out = s;
	rc = EXPORT_OK;
out:
	json_decref(root);
	export_ctx_free(&x);
	return rc;
}

/* ---- CSV ---- */

/* A text field: quoted when needed (RFC 4180), a leading ' before = + - @. */
static void csv_text(struct export_buf *b, const char *s)
{
	const char *p;
	bool quote = strpbrk(s, ",\"\r\n") != NULL;

	if (quote)
		export_buf_add(b, "\"");
	if (s[0] && strchr("=+-@", s[0]))
		export_buf_add(b, "'");
	for (p = s; *p; p++) {
		if (*p == '"')
			export_buf_add(b, "\"\"");
		else
			export_buf_add(b, "%c", *p);
	}
	if (quote)
		export_buf_add(b, "\"");
}

int export_csv(const struct event *ev, const struct export_info *info, char **out)
{
	struct export_buf b = { 0 };
	struct export_ctx x;
	const char *score = NULL;
	char f[EXPORT_FIELD_MAX];
	int rc, i, j, r;

	if (!out)
		return EXPORT_EINVAL;
	rc = export_ctx_init(&x, ev, info);
	if (rc)
		return rc;
	if (ev->system == SYSTEM_MCMAHON || ev->system == SYSTEM_KNOCKOUT)
		score = standings_score_name(ev->system);
	export_buf_add(&b, "Num,Place,Name,Rank,Rating");
	for (r = 1; r <= x.R; r++)
		export_buf_add(&b, ",R%d", r);
	export_buf_add(&b, ",Points");
	if (score)
		export_buf_add(&b, ",%s", score);
	for (j = 0; j < x.ntb; j++)
		export_buf_add(&b, ",%s", x.tbname[j]);
	export_buf_add(&b, "\r\n");
	for (i = 0; i < x.n; i++) {
		const struct standing *s = &x.rows[i];
		const struct event_player *p = &ev->players[s->player];
		char rank[RANK_STR_MAX];

		export_rank_str(rank, p->rank);
		export_buf_add(&b, "%d,%d,", i + 1, s->place);
		csv_text(&b, event_player_person(p));
		export_buf_add(&b, ",%s,%.0f", rank, p->rating);
		for (r = 1; r <= x.R; r++) {
			struct export_round v = export_round_view(&x, s->player, r);

			if (v.kind == EXPORT_ROUND_BYE)
				snprintf(f, sizeof f, "bye%c", v.result);
			else if (v.kind == EXPORT_ROUND_ABSENT)
				strcpy(f, "-");
			else
				export_game_field(f, &v);
			export_buf_add(&b, ",%s", f);
		}
		export_buf_add(&b, ",%d", s->points);
		if (score) {
			export_fmt_num(f, s->score);
			export_buf_add(&b, ",%s", f);
		}
		for (j = 0; j < s->ntiebreaks; j++) {
			export_fmt_num(f, s->tiebreak[j]);
			export_buf_add(&b, ",%s", f);
		}
		export_buf_add(&b, "\r\n");
	}
	export_ctx_free(&x);
	return export_buf_finish(&b, out);
}

const char *export_strerror(int err)
{
	switch (err) {
	case EXPORT_OK: return "ok";
	case EXPORT_EINVAL: return "invalid argument, event or text";
	case EXPORT_ENOMEM: return "out of memory";
	default: return "unknown error";
	}
}
