/* export: a tournament's results as JSON, a CSV cross-table, an HTML page, or the European
 * Go Database's h9 results format. Pure: each function builds a malloc'd NUL-terminated string
 * (the caller frees it); nothing is read or written. The standings and tie-breaks are those of
 * standings_compute (common/standings.h, docs/tiebreaks.md, which also gives an example of
 * each format).
 *
 * Players are listed in standings order and numbered 1..n by that order ("num"); opponents
 * are referred to by num, which stays unique when tied players share a place. Players
 * withdrawn before the start are not listed.
 *
 * A round, seen from one player (CSV and h9; JSON spells these out):
 *   played        <num><+|-|=>/<b|w>[handicap]   "3+/w", "12-/b2" (handicap only if > 0)
 *   forfeit       <num><+|->!<b|w>[handicap]     "5+!w" (won or lost by default)
 *   double loss   both forfeited (Art. 17.5, 23.1): CSV "5-!w", "2-!b"; h9 "0-" for both
 *                 (the EGD rates no unplayed game; OpenGotha's h9 writes it so)
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
/* Bounds of the h9 KM value and of the time settings (seconds). */
#define EXPORT_KOMI_MAX 1000.0
#define EXPORT_TIME_MAX_S 8640000
/* An EGD PIN (EGD player identifier): this many decimal digits. */
#define EXPORT_PIN_DIGITS 8
/* The EGD's adjusted time (EGF rating system, tournament classes): main time plus the time
 * of this many moves in byo-yomi (Japanese), Canadian byo-yomi; for Fischer, this many
 * increments (OpenGotha 3.51, Tournament.egfAdjustedTime). */
#define EXPORT_EGD_BYOYOMI_MOVES 45
#define EXPORT_EGD_CANADIAN_MOVES 60
#define EXPORT_EGD_FISCHER_MOVES 120

enum export_err {
	EXPORT_OK = 0,
	EXPORT_EINVAL = -1,   /* a NULL argument, a bad event (standings_validate), option or text */
	EXPORT_ENOMEM = -2,
};

/* A time limit as the EGD classifies it. */
enum export_time_system {
	EXPORT_TIME_UNKNOWN = 0, /* no time limit, or not given: no TM[], CM[] or class */
	EXPORT_TIME_ABSOLUTE,    /* sudden death */
	EXPORT_TIME_BYOYOMI,     /* Japanese byo-yomi: period_s per period */
	EXPORT_TIME_CANADIAN,    /* period_s for `stones` moves */
	EXPORT_TIME_FISCHER      /* increment_s per move */
};

struct export_time {
	enum export_time_system system;
	int main_s;         /* main time, seconds (0..EXPORT_TIME_MAX_S) */
	int period_s;       /* byo-yomi, Canadian: one period, seconds */
	int stones;         /* Canadian: moves per period (>= 1) */
	int increment_s;    /* Fischer: seconds added per move */
};

/* The EGD's adjusted time of t in seconds: main + 45 periods (byo-yomi), main + the time of 60
 * moves (Canadian: 60 * period_s / stones, rounded down), main + 120 increments (Fischer),
 * main (absolute). -1 for EXPORT_TIME_UNKNOWN, a NULL t or values out of range. Source: EGF
 * rating system, "Tournament classes" (TA = basic time + the time of 45 (60) moves in standard
 * (Canadian) byo-yomi); Fischer as OpenGotha 3.51. */
int export_egd_adjusted_s(const struct export_time *t);

/* The EGD tournament class of time limit t, as OpenGotha 3.51 (Tournament.egfClass) applies the
 * EGF's class rules (basic time B, adjusted time A, minutes):
 *   over the board, byo-yomi kinds and absolute: A if B >= 60 and A >= 75; B if B >= 40 and
 *   A >= 50; C if B >= 25 and A >= 30; Fischer: A if B >= 45, A >= 75; B if B >= 30, A >= 50;
 *   C if B >= 20, A >= 30;
 *   online (played on a server): D if B >= 40 and A >= 50 (Fischer: B >= 30, A >= 50);
 *   otherwise "X" (not classified). NULL for an unknown or invalid t. Static text. */
const char *export_egd_class(const struct export_time *t, bool online);

/* What to export. Every field may be zero/NULL: NULL text omits the h9 header line (and the
 * JSON "event" member). Text must be valid UTF-8 without control characters, at most
 * EXPORT_TEXT_MAX bytes; in h9, the class and the handicap rule must not contain ']', and the
 * name's and place's brackets are written as parentheses (the format has no escape). */
struct export_info {
	int after_round;               /* standings after this round (0 = all played) */
	const char *const *tiebreaks;  /* criteria names (standings.h); NULL = the default */
	int ntiebreaks;
	/* h9 header (EGD): */
	const char *name;              /* EV[]: the event's name */
	const char *egd_class;         /* CL[]: "A".."D"; NULL: export_egd_class(time, online),
					* omitted when the time is unknown */
	const char *place;             /* PC[]: "country code,city", e.g. "FR,Lyon" */
	const char *date_start;        /* DT[start,end]: yyyy-mm-dd; end NULL = start */
	const char *date_end;
	const char *handicap_rule;     /* HA[]: "h<correction>" as OpenGotha writes it for an
					* event with handicap (rank difference minus correction);
					* NULL omits it (even games) */
	double komi;                   /* KM[]: printed with one decimal; NAN omits it */
	struct export_time time;       /* TM[] (adjusted time, whole minutes) and CM[] */
	bool online;                   /* games on the server: the EGD's internet class */
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

/* EGD h9 (the EGF rating system's tournament table; columns as OpenGotha 3.51 writes them,
 * which its importer and the EGD read): the header lines "; CL[..]", "; EV[..]", "; PC[..]",
 * "; DT[first,last]", "; HA[..]", "; KM[..]", "; TM[..]", "; CM[..]" (the time system), those
 * given, then "; Generated by tengen", ";" and a column comment, then one line per player in
 * standings order:
 *   place (right-aligned, 4 wide), name as "Surname Firstname" (the player's name split at its
 *   last space; spaces in the surname become '_'; a one-word name gets the first name "x" as
 *   OpenGotha's importer gives it), padded to 30 characters, rank ("3k"/"2d", 3 wide),
 *   country (2 letters in capitals, "XX" unknown), club (first 4 characters, spaces as
 *   '_', "xxxx" unknown), the main score and the tie-breaks (each at least 4 wide; names in the column comment as the EGD
 *   writes them: DE is "DC"), one field per round (see above; 8 wide), and " |PIN" when
 *   egd_pin is known. "\n" line ends. info may be NULL. */
int export_h9(const struct event *ev, const struct export_info *info, char **out);

/* HTML: one printable UTF-8 page (no scripts, inline CSS; text escaped): the event's name,
 * the pairings of each round with their results (boards numbered from the game of the
 * best-placed player in the standings), the standings with the main score and every
 * tie-break as a column (byes counted, withdrawn players marked), and the cross-table (round
 * fields as in the CSV). info may be NULL (info->name is the title). */
int export_html(const struct event *ev, const struct export_info *info, char **out);

/* A short English text for an enum export_err value. */
const char *export_strerror(int err);

#endif
