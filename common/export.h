/* export: a tournament's results as JSON, a CSV cross-table, or the European Go Database's
 * h9 results format. Pure: each function builds a malloc'd NUL-terminated string (the
 * caller frees it); nothing is read or written. The standings and tie-breaks are those of
 * standings_compute (common/standings.h, docs/tiebreaks.md, which also gives an example of
 * each format).
 *
 * Players are listed in standings order and numbered 1..n by that order ("num"); opponents
 * are referred to by num, which stays unique when tied players share a place. Players
 * withdrawn before the start are not listed.
 *
 * A round, seen from one player (CSV and h9; JSON spells these out):
 *   played        <num><+|-|=>/<b|w>[handicap]   "3+/w", "12-/b2" (handicap only if > 0)
 *   forfeit       <num><+|->!<b|w>[handicap]     "5+!w" (won or lost by default); a double
 *                 loss (both forfeited, Art. 17.5, 23.1) is "-!" for both: "5-!w", "2-!b"
 *   unfinished    CSV "<num>?/<b|w>"; h9 "0-" (h9 has no such field)
 *   bye           h9 "0+", "0=" or "0-" as the bye scores a win, half or nothing (McMahon:
 *                 by mms_bye; else by bye_points); CSV "bye+", "bye=", "bye-"
 *   no game       h9 "0-" ("0+"/"0=" in McMahon when mms_absent credits the round, not
 *                 after a withdrawal); CSV "-"
 *
 * Errors: EXPORT_OK, or a negative enum export_err; *out is set only on success.
 */
#ifndef TENGEN_EXPORT_H
#define TENGEN_EXPORT_H

#include "event.h"

/* Longest text accepted in a header field or a name, in bytes. */
#define EXPORT_TEXT_MAX 256
/* Bounds of the h9 KM and TM values. */
#define EXPORT_KOMI_MAX 1000.0
#define EXPORT_TIME_MAX_MINUTES 100000

enum export_err {
	EXPORT_OK = 0,
	EXPORT_EINVAL = -1,   /* a NULL argument, a bad event (standings_validate), option or text */
	EXPORT_ENOMEM = -2,
};

/* What to export. Every field may be zero/NULL: NULL text omits the h9 header line (and the
 * JSON "event" member). Text must be valid UTF-8 without control characters, at most
 * EXPORT_TEXT_MAX bytes; h9 header text must not contain ']'. */
struct export_info {
	int after_round;               /* standings after this round (0 = all played) */
	const char *const *tiebreaks;  /* criteria names (standings.h); NULL = the default */
	int ntiebreaks;
	/* h9 header (EGD): */
	const char *name;              /* EV[]: the event's name */
	const char *egd_class;         /* CL[]: "A".."D" */
	const char *place;             /* PC[]: "country code,city", e.g. "FR,Lyon" */
	const char *date_start;        /* DT[start,end]: yyyy-mm-dd; end NULL = start */
	const char *date_end;
	const char *handicap_rule;     /* HA[]: e.g. "h9" */
	double komi;                   /* KM[]: printed with one decimal; NAN omits it */
	int time_minutes;              /* TM[]: main time in minutes; 0 omits it */
};

/* JSON: {"event":name?,"system":"swiss","rounds":R,"score":"PTS","tiebreaks":[names],
 * "standings":[{"num","place","player" (index),"id","name","rank" ("3k"),"rating",
 * "score","points","wins","draws","losses","byes","warnings","tiebreaks":[values],
 * "rounds":[{"round":r,"result":"win"|"loss"|"draw"|"double_loss"|"pending"|"bye"|"absent",
 * and for games "opponent" (num),"color" ("b"/"w"),"handicap","forfeit" (bool: a forfeit
 * win or loss, or a double loss)}]}]}.
 * Compact, members in this order. info may be NULL. */
int export_json(const struct event *ev, const struct export_info *info, char **out);

/* CSV (RFC 4180, CRLF line ends) cross-table: a header row
 * Num,Place,Name,Rank,Rating,R1..Rn,Points[,MMS|KO],<tie-breaks>, then one row per player.
 * Rating is rounded to an integer. Fields with a comma, quote or line break are quoted;
 * text starting with = + - @ gets a leading ' (no spreadsheet formulas). info may be NULL. */
int export_csv(const struct event *ev, const struct export_info *info, char **out);

/* EGD h9: the header lines "; CL[..]", "; EV[..]", "; PC[..]", "; DT[..,..]", "; HA[..]",
 * "; KM[..]", "; TM[..]" (those given), a column comment "; Num Name Rk Co Club <criteria>",
 * then per player: num, name (whitespace turned to '_', one token), rank ("3k"/"2d"),
 * country and club ("-" when NULL), the main score and the tie-breaks, one field per round
 * (see above); single spaces, "\n" line ends. info may be NULL. */
int export_h9(const struct event *ev, const struct export_info *info, char **out);

/* A short English text for an enum export_err value. */
const char *export_strerror(int err);

#endif
