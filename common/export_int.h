/* export_int: what the export renderings share (export.c, export_h9.c, export_html.c): a
 * growable string, text checks, and the standings with each player's round table. Internal to
 * common/export*; not part of the export API (export.h).
 */
#ifndef TENGEN_EXPORT_INT_H
#define TENGEN_EXPORT_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "export.h"
#include "standings.h"

/* Round-table slots (as in standings.c). */
#define SLOT_EMPTY (-1)
#define SLOT_BYE (-2)
/* One formatted number or round field, NUL included. */
#define EXPORT_FIELD_MAX 48

/* ---- A growable string: a failed allocation sets `failed`, later adds do nothing ---- */

struct export_buf {
	char *s;
	size_t len, cap;
	bool failed;
};

/* Appends printf-style text to b. */
void export_buf_add(struct export_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hands the string to *out, or frees it: EXPORT_OK or EXPORT_ENOMEM. */
int export_buf_finish(struct export_buf *b, char **out);

/* ---- Text checks ---- */

/* Valid UTF-8 (no overlongs, surrogates or values above U+10FFFF), no control characters,
 * at most EXPORT_TEXT_MAX bytes. */
bool export_text_ok(const char *s);
/* UTF-8 text s (export_text_ok) in ASCII into out (n bytes, NUL-terminated, cut to fit), for
 * the EGD's rating program, which reads ASCII (EGD "Tournament table format"): ASCII kept;
 * the letters of Latin-1 and Latin Extended-A (U+00C0..U+017F) as their base letters (e acute
 * e, u umlaut u, sharp s ss, L stroke L, AE ligature AE); any other character as
 * EXPORT_ASCII_UNKNOWN. Returns the length written. */
#define EXPORT_ASCII_UNKNOWN "?"
size_t export_ascii(char *out, size_t n, const char *s);
/* Non-empty export_text_ok text without spaces. */
bool export_token_ok(const char *s);
/* yyyy-mm-dd with month 01..12 and day 01..31. */
bool export_date_ok(const char *s);

/* ---- Standings and the round table ---- */

struct export_ctx {
	const struct event *ev;
	struct standing *rows;
	int n;                 /* rows */
	int *num;              /* player index -> 1..n, 0 = not listed */
	int R;                 /* rounds shown */
	int *slot;             /* nplayers * R: game index, SLOT_BYE or SLOT_EMPTY */
	int ntb;
	const char *tbname[STANDINGS_MAX_TIEBREAKS];
};

/* Validates ev and its players' text (names; country: two ASCII letters; club: non-empty;
 * egd_pin: EXPORT_PIN_DIGITS digits), computes the standings after info->after_round with
 * info's tie-breaks (info may be NULL) and fills the round table. EXPORT_OK, EXPORT_EINVAL or
 * EXPORT_ENOMEM; on success free with export_ctx_free. */
int export_ctx_init(struct export_ctx *x, const struct event *ev, const struct export_info *info);
void export_ctx_free(struct export_ctx *x);
/* The slot of (player, round 1..R). */
int *export_ctx_slot(const struct export_ctx *x, int player, int round);

enum export_round_kind {
	EXPORT_ROUND_GAME,     /* played, with a result */
	EXPORT_ROUND_FORFEIT,  /* a forfeit win or loss, or a double loss (both forfeited) */
	EXPORT_ROUND_PENDING,  /* a game without a result yet */
	EXPORT_ROUND_BYE,
	EXPORT_ROUND_ABSENT    /* no game and no bye */
};

/* One round seen from one player. */
struct export_round {
	enum export_round_kind kind;
	const struct event_game *g;
	int opp;           /* opponent's num */
	char result;       /* '+', '-', '=' (games; byes and absences: the credit's sign) */
	char color;        /* 'b' / 'w' */
};

struct export_round export_round_view(const struct export_ctx *x, int player, int r);
/* "3+/w", "12-/b2", "5+!w" into out (EXPORT_FIELD_MAX bytes). */
void export_game_field(char *out, const struct export_round *v);
/* A number with at most two decimals, trailing zeros dropped: "12", "7.5", "3.25". */
void export_fmt_num(char *out, double v);
/* "3k", "2d" (RANK_STR_MAX bytes); "?" out of range. */
void export_rank_str(char *out, int rank);
#endif
