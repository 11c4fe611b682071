/* export_h9: the European Go Database's h9 tournament table, and the EGD's adjusted time and
 * class (see export.h). The layout follows OpenGotha 3.51 (ExternalDocument.generateH9File),
 * whose importer reads names and ranks from fixed columns. */
#include "export.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_int.h"
#include "rating.h"
#include "standings.h"

/* Column widths of a player line (OpenGotha's h9; its importer reads the name from the
 * characters 4..26 and the rest by tokens). */
#define H9_PLACE_WIDTH 4
#define H9_NAME_WIDTH 30
#define H9_RANK_WIDTH 3
#define H9_CLUB_CHARS 4
#define H9_CRITERION_WIDTH 4
#define H9_ROUND_WIDTH 8
/* What OpenGotha writes for an unknown country, club and first name. */
#define H9_NO_COUNTRY "XX"
#define H9_NO_CLUB "xxxx"
#define H9_NO_FIRST_NAME "x"
#define H9_TEXT_MAX 256 /* bytes of a name, club or header text written (ASCII); longer: cut */

/* ---- Adjusted time and class ---- */

int export_egd_adjusted_s(const struct export_time *t)
{
	long long at;

	if (!t || t->main_s < 0 || t->main_s > EXPORT_TIME_MAX_S)
		return -1;
	at = t->main_s;
	switch (t->system) {
	case EXPORT_TIME_ABSOLUTE:
		break;
	case EXPORT_TIME_BYOYOMI:
		if (t->period_s < 0 || t->period_s > EXPORT_TIME_MAX_S)
			return -1;
		at += (long long)EXPORT_EGD_BYOYOMI_MOVES * t->period_s;
		break;
	case EXPORT_TIME_CANADIAN:
		if (t->period_s < 0 || t->period_s > EXPORT_TIME_MAX_S || t->stones < 1)
			return -1;
		at += (long long)EXPORT_EGD_CANADIAN_MOVES * t->period_s / t->stones;
		break;
	case EXPORT_TIME_FISCHER:
		if (t->increment_s < 0 || t->increment_s > EXPORT_TIME_MAX_S)
			return -1;
		at += (long long)EXPORT_EGD_FISCHER_MOVES * t->increment_s;
		break;
	default:
		return -1;
	}
	return at > EXPORT_TIME_MAX_S ? EXPORT_TIME_MAX_S : (int)at;
}

/* Minimum basic and adjusted time (minutes) of one class. */
struct egd_class_rule {
	const char *name;
	int basic_min, adjusted_min;
};

static const struct egd_class_rule board_byoyomi[] = {
	{ "A", 60, 75 }, { "B", 40, 50 }, { "C", 25, 30 }
};
static const struct egd_class_rule board_fischer[] = {
	{ "A", 45, 75 }, { "B", 30, 50 }, { "C", 20, 30 }
};
static const struct egd_class_rule online_byoyomi[] = { { "D", 40, 50 } };
static const struct egd_class_rule online_fischer[] = { { "D", 30, 50 } };

const char *export_egd_class(const struct export_time *t, bool online)
{
	const struct egd_class_rule *rules;
	int n, i, at = export_egd_adjusted_s(t);
	bool fischer;

	if (at < 0)
		return NULL;
	fischer = t->system == EXPORT_TIME_FISCHER;
	rules = online ? (fischer ? online_fischer : online_byoyomi) :
		(fischer ? board_fischer : board_byoyomi);
	n = online ? 1 : 3;
	for (i = 0; i < n; i++)
		if (t->main_s >= rules[i].basic_min * 60 && at >= rules[i].adjusted_min * 60)
			return rules[i].name;
	return "X";
}

static const char *time_system_text(enum export_time_system s)
{
	switch (s) {
	case EXPORT_TIME_ABSOLUTE: return "Sudden death";
	case EXPORT_TIME_BYOYOMI: return "Standard byo-yomi";
	case EXPORT_TIME_CANADIAN: return "Canadian byo-yomi";
	case EXPORT_TIME_FISCHER: return "Fischer";
	default: return NULL;
	}
}

/* ---- Player lines ---- */

/* UTF-8 characters in the first `bytes` bytes of s. */
static int utf8_chars(const char *s, size_t bytes)
{
	int n = 0;
	size_t i;

	for (i = 0; i < bytes && s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

/* Appends s[0..len) with spaces turned to '_'. */
static void add_unblanked(struct export_buf *b, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		export_buf_add(b, "%c", s[i] == ' ' ? '_' : s[i]);
}

/* "Surname Firstname" padded to H9_NAME_WIDTH characters (the name split at its last space). */
static void add_name(struct export_buf *b, const char *name)
{
	size_t len = strlen(name), sur;
	const char *sp;
	int chars;

	while (len > 0 && name[len - 1] == ' ')
		len--;
	while (len > 0 && name[0] == ' ') {
		name++;
		len--;
	}
	sp = NULL;
	for (sur = 0; sur < len; sur++)
		if (name[sur] == ' ')
			sp = name + sur;
	if (!len) {
		export_buf_add(b, "?");
		chars = 1;
	} else if (!sp) {
		add_unblanked(b, name, len);
		export_buf_add(b, " %s", H9_NO_FIRST_NAME);
		chars = utf8_chars(name, len) + 2;
	} else {
		sur = (size_t)(sp - name);
		while (sur > 0 && name[sur - 1] == ' ')
			sur--;
		add_unblanked(b, name, sur);
		export_buf_add(b, " ");
		add_unblanked(b, sp + 1, len - (size_t)(sp + 1 - name));
		chars = utf8_chars(name, sur) + 1 + utf8_chars(sp + 1, len - (size_t)(sp + 1 - name));
	}
	while (chars++ < H9_NAME_WIDTH)
		export_buf_add(b, " ");
}

/* The club: its first H9_CLUB_CHARS characters (spaces as '_': one token), right-aligned,
 * or H9_NO_CLUB. */
static void add_club(struct export_buf *b, const char *club)
{
	size_t i = 0;
	int chars = 0;

	if (!club) {
		export_buf_add(b, " %s", H9_NO_CLUB);
		return;
	}
	while (club[i] && chars < H9_CLUB_CHARS) {
		i++;
		while (((unsigned char)club[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	export_buf_add(b, " %*s", H9_CLUB_CHARS - chars, "");
	add_unblanked(b, club, i);
}

/* One round's field. */
static void round_field(char *f, const struct export_round *v)
{
	if (v->kind == EXPORT_ROUND_BYE || v->kind == EXPORT_ROUND_ABSENT)
		snprintf(f, EXPORT_FIELD_MAX, "0%c", v->result);
	else if (v->kind == EXPORT_ROUND_PENDING || v->g->result == RESULT_DOUBLE_LOSS)
		strcpy(f, "0-");
	else
		export_game_field(f, v);
}

/* The EGD's name of a criterion in the column comment. */
static const char *egd_name(const char *name)
{
	return strcmp(name, "DE") == 0 ? "DC" : name;
}

/* The width of each score column: the main score's (col[0]) and each tie-break's
 * (col[1 + j]), at least H9_CRITERION_WIDTH and as wide as its header name and its widest
 * value, so the columns stay aligned whatever the values ("485.5" in an SOSOS column). */
static void column_widths(const struct export_ctx *x, int col[1 + STANDINGS_MAX_TIEBREAKS])
{
	char f[EXPORT_FIELD_MAX];
	int i, j, n;

	col[0] = (int)strlen(standings_score_name(x->ev->system));
	for (j = 0; j < x->ntb; j++)
		col[1 + j] = (int)strlen(egd_name(x->tbname[j]));
	for (j = 0; j <= x->ntb; j++)
		if (col[j] < H9_CRITERION_WIDTH)
			col[j] = H9_CRITERION_WIDTH;
	for (i = 0; i < x->n; i++) {
		const struct standing *s = &x->rows[i];

		for (j = 0; j <= s->ntiebreaks && j <= x->ntb; j++) {
			export_fmt_num(f, j == 0 ? s->score : s->tiebreak[j - 1]);
			n = (int)strlen(f);
			if (n > col[j])
				col[j] = n;
		}
	}
}

static void player_line(struct export_buf *b, const struct export_ctx *x, int i,
			const int *col)
{
	const struct standing *s = &x->rows[i];
	const struct event_player *p = &x->ev->players[s->player];
	char rank[RANK_STR_MAX], f[EXPORT_FIELD_MAX], text[H9_TEXT_MAX];
	int j, r;

	export_rank_str(rank, p->rank);
	export_buf_add(b, "%*d ", H9_PLACE_WIDTH, i + 1);
	export_ascii(text, sizeof text, event_player_person(p));
	add_name(b, text);
	if (p->country)
		export_buf_add(b, " %*s %c%c", H9_RANK_WIDTH, rank, toupper((unsigned char)p->country[0]),
			toupper((unsigned char)p->country[1]));
	else
		export_buf_add(b, " %*s %s", H9_RANK_WIDTH, rank, H9_NO_COUNTRY);
	if (p->club)
		export_ascii(text, sizeof text, p->club);
	add_club(b, p->club ? text : NULL);
	export_fmt_num(f, s->score);
	export_buf_add(b, " %*s", col[0], f);
	for (j = 0; j < s->ntiebreaks; j++) {
		export_fmt_num(f, s->tiebreak[j]);
		export_buf_add(b, " %*s", j < x->ntb ? col[1 + j] : H9_CRITERION_WIDTH, f);
	}
	for (r = 1; r <= x->R; r++) {
		struct export_round v = export_round_view(x, s->player, r);

		round_field(f, &v);
		export_buf_add(b, " %*s", H9_ROUND_WIDTH, f);
	}
	if (p->egd_pin)
		export_buf_add(b, " |%s", p->egd_pin);
	export_buf_add(b, "\n");
}

/* ---- The file ---- */

static bool header_ok(const char *s)
{
	return !s || (export_text_ok(s) && !strchr(s, ']'));
}

/* A name or place as a header's [...] holds it: ASCII (export_ascii), brackets as parentheses,
 * since the EGD's format has no escape for ']' ("Spring [B] Cup" -> "Spring (B) Cup"). */
static void header_text(char *out, size_t n, const char *s)
{
	export_ascii(out, n, s);
	for (; *out; out++)
		if (*out == '[' || *out == ']')
			*out = *out == '[' ? '(' : ')';
}

static bool info_ok(const struct export_info *info)
{
	return header_ok(info->egd_class) && (!info->name || export_text_ok(info->name)) &&
		(!info->place || export_text_ok(info->place)) && header_ok(info->handicap_rule) &&
		(!info->date_start || export_date_ok(info->date_start)) &&
		(!info->date_end || (info->date_start && export_date_ok(info->date_end))) &&
		(isnan(info->komi) || fabs(info->komi) <= EXPORT_KOMI_MAX) &&
		(info->time.system == EXPORT_TIME_UNKNOWN || export_egd_adjusted_s(&info->time) >= 0);
}

static void header(struct export_buf *b, const struct export_ctx *x,
		const struct export_info *info, const int *col)
{
	const char *cl = info->egd_class ? info->egd_class :
		export_egd_class(&info->time, info->online);
	const char *cm = time_system_text(info->time.system);
	char text[H9_TEXT_MAX];
	int j;

	/* no time control known (a board event's clocks are not the server's): not classified,
	 * said for a named event (its header is a report's; without one, no header lines) */
	if (cl || info->name)
		export_buf_add(b, "; CL[%s]\n", cl ? cl : "X");
	if (info->name) {
		header_text(text, sizeof text, info->name);
		export_buf_add(b, "; EV[%s]\n", text);
	}
	if (info->place) {
		header_text(text, sizeof text, info->place);
		export_buf_add(b, "; PC[%s]\n", text);
	}
	if (info->date_start)
		export_buf_add(b, "; DT[%s,%s]\n", info->date_start,
			info->date_end ? info->date_end : info->date_start);
	if (info->handicap_rule)
		export_buf_add(b, "; HA[%s]\n", info->handicap_rule);
	if (!isnan(info->komi))
		export_buf_add(b, "; KM[%.1f]\n", info->komi);
	if (cm) {
		export_buf_add(b, "; TM[%d]\n", export_egd_adjusted_s(&info->time) / 60);
		export_buf_add(b, "; CM[%s]\n", cm);
	}
	export_buf_add(b, "; Generated by tengen\n;\n");
	export_buf_add(b, "; Pl Name%*s Rk Co Club %*s", H9_NAME_WIDTH - 4, "",
		col[0], standings_score_name(x->ev->system));
	for (j = 0; j < x->ntb; j++)
		export_buf_add(b, " %*s", col[1 + j], egd_name(x->tbname[j]));
	export_buf_add(b, "\n");
}

int export_h9(const struct event *ev, const struct export_info *info, char **out)
{
	struct export_info none = { 0 };
	struct export_buf b = { 0 };
	struct export_ctx x;
	int rc, i;

	if (!out)
		return EXPORT_EINVAL;
	if (!info) {
		none.komi = NAN;
		info = &none;
	}
	if (!info_ok(info))
		return EXPORT_EINVAL;
	rc = export_ctx_init(&x, ev, info);
	if (rc)
		return rc;
	int col[1 + STANDINGS_MAX_TIEBREAKS];
	column_widths(&x, col);
	header(&b, &x, info, col);
	for (i = 0; i < x.n; i++)
		player_line(&b, &x, i, col);
	export_ctx_free(&x);
	return export_buf_finish(&b, out);
}
