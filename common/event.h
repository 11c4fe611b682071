/* event: a tournament's state as the pure pairing and standings code sees it (Chinese Rules
 * 2002, Art. 26-28). No I/O: the server fills these from the store.
 *
 * Players are indexed 0..nplayers-1 in registration order; `seed` orders them for pairing
 * (0 = strongest). Rounds are numbered from 1. A game's result is from Black's side.
 */
#ifndef TENGEN_EVENT_H
#define TENGEN_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EVENT_MAX_PLAYERS 4096
#define EVENT_MAX_ROUNDS 64
/* Bytes of a game's result text, NUL included ("W+1000.5"). */
#define EVENT_RESULT_TEXT_SIZE 16

/* Pairing systems (Art. 26). */
enum event_system {
	SYSTEM_ROUND_ROBIN = 0,
	SYSTEM_DOUBLE_ROUND_ROBIN,
	SYSTEM_SWISS,
	SYSTEM_MCMAHON,
	SYSTEM_KNOCKOUT
};
#define EVENT_SYSTEMS 5

/* The systems' names as the protocol and the store give them ("round_robin",
 * "double_round_robin", "swiss", "mcmahon", "knockout"), in enum event_system order (event.c). */
extern const char *const event_system_names[EVENT_SYSTEMS];
/* The name of system s, or NULL if s is no enum event_system. */
const char *event_system_name(enum event_system s);
/* The system called `name` (exact match): 0 with *out set, or -1 (*out unchanged) if none. */
int event_system_parse(const char *name, enum event_system *out);

/* Seeding within a score group (Swiss, McMahon; OpenGotha's terms): the top half of the group
 * meets the bottom half, 1st v last (fold, the default), 1st v middle (slip), or in an order
 * drawn from draw_seed (random; the only pairing that uses chance). Added by pairing. */
enum event_seeding {
	SEEDING_SPLIT_FOLD = 0,
	SEEDING_SPLIT_SLIP,
	SEEDING_SPLIT_RANDOM
};

/* A game's outcome. */
enum event_result {
	RESULT_NONE = 0,     /* not finished yet */
	RESULT_BLACK_WIN,    /* played and won by Black (score, resignation, time, warnings) */
	RESULT_WHITE_WIN,
	RESULT_DRAW,         /* jigo (integer komi), Art. 27.1: 1 point each */
	RESULT_BLACK_FORFEIT_WIN, /* White forfeited without play (no-show, lateness, withdrawal) */
	RESULT_WHITE_FORFEIT_WIN,
	RESULT_DOUBLE_LOSS,  /* both lose (double forfeit, Art. 17.5, 23.1): 0 points each */
	RESULT_VOID          /* no result (replay ordered, results voided by a withdrawal, Art. 28) */
};

struct event_player {
	int id;              /* the server's player id (opaque here) */
	const char *name;
	int rank;            /* rank on the numeric scale of common/rating.h (higher = stronger) */
	double rating;
	int seed;            /* 0 = top seed */
	int withdrawn_after; /* 0: in the event; else the last round the player took part in */
	bool withdrawn_before_start;
	uint64_t absent_rounds; /* bit r-1: not paired in round r (tournament.absent) */

	/* For the EGD (h9) export; NULL when unknown (added by standings/export). */
	const char *country; /* ISO 3166-1 alpha-2, e.g. "FR" */
	const char *club;    /* EGD club code, e.g. "Lyon" */
	const char *egd_pin; /* EGD PIN, 8 digits; NULL unknown */
	/* The person's name, "Surname Firstname" (an account's profile full_name); NULL: `name`
	 * is the person's name too (an entrant, or an account without one). */
	const char *full_name;
};

/* The name of p's person for exports and printouts (h9, HTML, CSV): full_name when there is
 * one, else name. */
static inline const char *event_player_person(const struct event_player *p)
{
	return p->full_name && p->full_name[0] ? p->full_name : p->name;
}

struct event_game {
	long long id;        /* the server's game number; 0 when not known (printouts skip it) */
	int round;
	int black, white;    /* player indices */
	int handicap;
	enum event_result result;
	/* Warnings given in this game (Art. 17, 18.3, 23, 24); the tie-break "fewer warnings" of
	 * Art. 27.1 sums them (added by standings). */
	int black_warnings, white_warnings;
	/* The result as recorded ("B+R", "W+3.5", "0"); "" when not known (printouts fall back
	 * on `result`). */
	char result_text[EVENT_RESULT_TEXT_SIZE];
};

struct event_bye {
	int round;
	int player;
};

struct event {
	enum event_system system;
	int nplayers;
	struct event_player *players;
	int ngames;
	struct event_game *games;
	int nbyes;
	struct event_bye *byes;
	int rounds_planned;  /* rounds of the event (for round robin: derived from the field) */
	int rounds_played;   /* rounds paired so far */
	/* Points (Art. 27.1): win 2, draw 1, loss 0; a bye scores as a win unless set otherwise. */
	int bye_points;      /* default 2 */
	/* McMahon (OpenGotha's terms): bar and floor on the numeric rank scale; MMS counts wins
	 * (1 a win, 1/2 a draw); a bye adds mms_bye (default 1), an absent round mms_absent
	 * (default 0.5). */
	int mcmahon_bar, mcmahon_floor;
	double mms_bye, mms_absent;
	/* Game points of a round without a game or bye (absent, entered late; Art. 27.1 gives
	 * none): 0 (the default) up to the bye's; added to points by standings and to the Swiss
	 * score by pairing. */
	int absent_points;
	/* Handicap option (McMahon): rank (MMS) difference minus handicap_correction, capped at
	 * handicap_max (9), none when the weaker player's rank is above handicap_none_above. */
	bool handicap;
	int handicap_correction, handicap_max, handicap_none_above;
	/* Handicap from the MMS difference (whole points) instead of the rank difference
	 * (added by pairing). */
	bool handicap_by_mms;
	/* Swiss/McMahon seeding within a score group, and the seed of a random draw
	 * (SEEDING_SPLIT_RANDOM only; added by pairing). */
	enum event_seeding seeding;
	uint64_t draw_seed;
	/* Knockout: double elimination instead of single. */
	bool double_elimination;
	/* Knockout after k losses (common/elim.h): when > 0, a player is out at this many losses
	 * in the standings' KO score, in place of 1 or 2 (added by teams). */
	int elimination_losses;
	/* Swiss/McMahon: match on every pair of the field even when it is large (the reference
	 * the windowed search is checked against; tests and tests/bench/pair_bench). */
	bool full_graph;
};

#endif
