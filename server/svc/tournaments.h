/* tournaments: events run by a director (Chinese Rules 2002, Art. 25-28; docs/rules.md §4).
 *
 * A tournament's settings, field, byes and withdrawals are one JSON document in the store
 * (tournaments.state); its games are ordinary games with tournament_id and round. Pairing and
 * standings are computed by common/pairing.c and common/standings.c from a struct event built
 * from those two sources (svc/tour.h), so a changed result changes standings and later
 * pairings at once. The commands (parse, call, reply) are in cmd/tournament_cmds.c and, read-only,
 * cmd/tournament_views.c.
 */
#ifndef TENGEN_TOURNAMENTS_H
#define TENGEN_TOURNAMENTS_H

#include "server.h"
#include "standings.h"

/* The settings of a new tournament, as checked by its command (cmd/tournament_cmds.c): name
 * (1..STORE_TOURNAMENT_NAME_MAX bytes), system (enum event_system, an index of event_system_names, common/event.h),
 * rounds, board size, komi and handicap_komi (whole or half points), handicap_max
 * (0..PAIRING_HANDICAP_CAP, capped here at what the board holds), the clock, rated, rules,
 * lateness_limit_s (seconds), tiebreaks (names standings_tiebreak_parse knows, borrowed),
 * bye points, the McMahon bar and floor (ranks), handicap pairing, double elimination; board:
 * venue "board" (games at real boards: no start time, no clock or lateness on the server until
 * both players join a game there; results from the director). */
struct tournament_settings {
	const char *name;
	const char *place;   /* where it is held, "country code,city" (EGD h9 PC[]); NULL: none */
	int system, rounds, size, handicap_max, lateness_limit_s, bye, mcmahon_bar, mcmahon_floor;
	int absent_points;    /* game points of an absent round (0..bye) */
	int handicap_correction, handicap_none_above; /* McMahon handicap: ranks less, no
							 handicap when the weaker is above (rank) */
	double komi, handicap_komi;
	double mms_absent;    /* McMahon score of an absent round (0..2, halves) */
	struct proto_time time;
	struct rules rules;
	bool rated, handicap, double_elimination, board;
	bool handicap_by_mms; /* handicap from the McMahon scores' difference, not the ranks' */
	const char *tiebreaks[STANDINGS_MAX_TIEBREAKS];
	int ntiebreaks;
	/* Team events and match forms (docs/teams.md): team_system -1 (an individual event) or
	 * an enum team_system (common/team.h; system is then the one its teams pair by), boards
	 * (players a match), lineup_per_round; individual events: match_games (0, or 3, 5, 7:
	 * best-of-N pairings) and elimination_losses (0, or k: out after k losses). */
	int team_system, boards, match_games, elimination_losses;
	bool lineup_per_round;
};

/* What registering a player gave: the player's name in the field (an entrant's as entered),
 * the field's size after, the round after which they entered (0: before the start). */
struct tournament_entry {
	char player[STORE_FULL_NAME_MAX + 1];
	int players, entered_round;
	int reinstated_after; /* > 0: a withdrawn player back (withdrawn after that round) */
};

/* A round started (or, in a knockout, the replays of the current one): its number, the start
 * time (Unix seconds; 0 for replays), replay, pairings [{game, black, white, handicap,
 * handicap_wanted?}] and byes [name] (new references, the caller's). */
struct tournament_round {
	int round;
	double start_at;        /* when the games begin; 0 at real boards (venue "board") */
	bool replay;
	bool continued; /* best-of-N: the next games of the round's matches (svc/matches.h) */
	json_t *pairings, *byes;
};

/* Every service below returns 0, or -1 with *e filled (the code and message the reply
 * carries: svc_error.h); a failed store write after a change stops the server (panic.h). */

/* Create a tournament directed by `director` (a player's name): *id, *handicap_max (the cap
 * in force). Errors: conflict (the name exists), internal. */
int tournaments_create(struct server *srv, const struct tournament_settings *set,
		       const char *director, int64_t *id, int *handicap_max, struct proto_error *e);
struct tour;
/* The rounds tournament t plays as tournament.get shows them (tour_rounds_planned,
 * teams_rounds_planned); *derived: they follow from its field, whatever its `rounds` setting
 * says (a round robin, double round robin, single-elimination knockout and their team forms). */
int tournaments_rounds_shown(const struct tour *t, bool *derived);
/* Replace the settings of tournament `id` (as tournament.create gives them: `set`; the
 * `changed` ones, nchanged of them, differ from the stored settings); *handicap_max as
 * tournaments_create; *settings: the new settings object (a new reference; `rounds` as
 * tournaments_rounds_shown). Before round 1 is paired any may change; after, only rounds
 * (Swiss, McMahon; not below the rounds paired), tiebreaks, time, lateness_limit_s and place.
 * `rounds` never changes where the field gives them (tournaments_rounds_shown's *derived: a
 * value other than those shown is a conflict). Errors: not_found, conflict (a setting fixed by
 * now, naming it). */
int tournaments_update(struct server *srv, int64_t id, const struct tournament_settings *set,
		       const char *const *changed, size_t nchanged, const char *by,
		       int *handicap_max, json_t **settings, struct proto_error *e);
/* Delete tournament `id` as director `by`, while it has no games at all (before round 1 is
 * paired; a round paired and unpaired leaves called-off games, which keep it): its row, and
 * the records of its entrants without accounts (*entrants: how many). name: the event's name.
 * Errors: not_found, conflict (it has games). */
int tournaments_delete(struct server *srv, int64_t id, const char *by,
		       char name[STORE_TOURNAMENT_NAME_MAX + 1], int *entrants, struct proto_error *e);
/* The field (svc/tour_field.c). Add account `name` to tournament `tournament`'s field (again,
 * if withdrawn before the start), with its profile's country, club and EGD PIN. After round 1
 * has been paired only a Swiss or McMahon event takes a late entry: the rounds paired
 * before count as absent (standings: mms_absent, absent_points). Errors: not found
 * (tournament, player), conflict (closed, registered, full: EVENT_MAX_PLAYERS). */
int tournaments_register(struct server *srv, int64_t tournament, const char *name,
			 struct tournament_entry *out, struct proto_error *e);
/* Enter a person without an account (`in`: name required, as profile_check; issue 16): a
 * players row that cannot log in is made for their games, and the field names them as
 * entered. Only a board event (venue "board"): nobody could play their games online.
 * Errors: bad_request (a field), conflict (an online event, a name in the field, closed,
 * full), not found. */
struct profile_in;
int tournaments_register_entrant(struct server *srv, int64_t tournament,
				 const struct profile_in *in, struct tournament_entry *out,
				 struct proto_error *e);
/* Player `name` (as in the field) is not paired in round `round` (later than the rounds
 * paired; Swiss and McMahon): scored as a missed round (mms_absent, absent_points). Errors:
 * bad_request (round out of range), not found, conflict (round paired, absent already,
 * another system). */
int tournaments_absent(struct server *srv, int64_t tournament, const char *name, int round,
		       struct proto_error *e);
/* The player id of the entry of tournament's field named `name` (case-insensitive: an
 * entrant's name as entered, an account's name): true and *id, or false if there is no such
 * tournament or entry. */
bool tournaments_entry_id(struct server *srv, int64_t tournament, const char *name,
			  int64_t *id);
/* Withdraw player `name` (Art. 28): before round 1 it leaves the field, later its unfinished
 * games are forfeits; *after_round: the current round (0: before the start); *forfeited (new
 * reference, [] if none): those games, [{game, round, result}], so the director hears of the
 * results written; *voided (new reference, [] if none): the player's games whose results the
 * standings now void (a round robin's player with fewer than half its games played, Art. 28),
 * [game id]. Errors: not found (tournament, not in the field), conflict (withdrawn; the event
 * is over: every round played, every result in). */
int tournaments_withdraw(struct server *srv, int64_t tournament, const char *name,
			 int *after_round, json_t **forfeited, json_t **voided,
			 struct proto_error *e);
/* Pair and start the next round at start_at (Unix seconds, 0: now), or schedule a knockout's
 * replays; the games' and byes' events go to the players. Errors: not found, conflict (round
 * not finished, too few players, cannot pair), internal. */
int tournaments_start_round(struct server *srv, int64_t tournament, double start_at,
			    struct tournament_round *out, struct proto_error *e);
/* Where a result went (tournaments_result): the event's id (0: a casual game) and name, the
 * game's round and the event's current round. */
struct result_where {
	int64_t tournament;
	char name[STORE_TOURNAMENT_NAME_MAX + 1];
	int round, current;
	bool unchanged;           /* the game had that result already: nothing was written */
	char previous_reason[STORE_REASON_SIZE]; /* the replaced result's reason ("" for none):
						  * Void is a double loss or a void game */
};
/* Set game `game`'s result as typed (`given`: ruleset_result_normalise; `reason` or NULL) by
 * director or admin `by`; a casual game's only if `admin`. result: the result stored;
 * previous: the one it replaced ("" for none); *where (unless NULL) filled. The result a game
 * has already, given again without a reason (a `td results` file entered twice), changes
 * nothing (where->unchanged): it kept its reason and record (it became `adjudicated`, "set by
 * the tournament director"); Void is always written (a double loss or a void game). Errors: bad
 * request (result, reason), not found, forbidden, conflict (a knockout's winner once the next
 * round is paired). */
int tournaments_result(struct server *srv, const char *by, bool admin, int64_t game,
		       const char *given, const char *reason, char result[STORE_RESULT_SIZE],
		       char previous[STORE_RESULT_SIZE], struct result_where *where,
		       struct proto_error *e);
/* Unpair the current round of `tournament` as director `by` (OpenGotha's "unpair"): while
 * none of its games has begun or has a result, each is called off (games_call_off: ended, no
 * result, reason `declined`; its players get tournament.unpaired {tournament, round, game}),
 * its byes are taken back (tournament.unpaired with game null to their holders), and the
 * round before becomes the current one, so that tournament.absent, a late entry or a
 * withdrawal can be made before the round is paired again. *round_out: the round unpaired;
 * *games_out (new reference): the games called off. Errors: not found, conflict (no round, a
 * game begun or with a result, a team event, best-of-N matches), internal. */
int tournaments_unpair(struct server *srv, int64_t tournament, const char *by, int *round_out,
		       json_t **games_out, struct proto_error *e);
/* A director's change to the current round's pairing (svc/tour_pairedit.c; docs/protocol.md
 * tournament.pair_edit): swap two players (player_a, player_b: in different games, or one with
 * the bye), swap game `game`'s colours, set its handicap, give the bye to player_a (its holder
 * takes player_a's place). */
enum pair_edit_op { PAIR_EDIT_SWAP_PLAYERS, PAIR_EDIT_SWAP_COLORS, PAIR_EDIT_HANDICAP, PAIR_EDIT_BYE };
#define PAIR_EDIT_OPS 4
extern const char *const pair_edit_op_names[PAIR_EDIT_OPS];
struct pair_edit {
	enum pair_edit_op op;
	const char *player_a, *player_b; /* names as in the field, or NULL */
	int64_t game;                    /* 0: none */
	int handicap;
	json_t *warnings;                /* out (new reference, or NULL): what the change
					    allows but a director should know, as sentences
					    ("A and B met in round 1") */
};
/* Apply *pe to round `round` (0: the current one; another is refused) of `tournament` as
 * director `by`: only games still scheduled (not begun, no result: games_is_unstarted) change,
 * the round is checked again (nobody twice, nobody absent), the games are rewritten
 * (games_repair: game.start to their players; tournament.unpaired to a player moved out of a
 * game, tournament.bye to the new bye) and the change logged (tournament_pair_edit).
 * *round_out: the round changed. Errors: bad_request (fields), not_found (player, game),
 * conflict (no round, another round, begun, not paired, no bye). */
int tournaments_pair_edit(struct server *srv, int64_t tournament, int round,
			  struct pair_edit *pe, const char *by, int *round_out,
			  struct proto_error *e);
/* A director's warning to `color` in live game `game` (games_warn). Errors: conflict (not
 * live). */
int tournaments_warn(struct server *srv, int64_t game, enum color color, const char *reason,
		     struct proto_error *e);
/* The events player `player_id` entered: [{id, name, system, round, place, points, wins,
 * losses}], standings as of now (for the `player` profile). */
json_t *tournaments_of_player(struct server *srv, int64_t player_id);

#endif
