/* tour: a tournament's state document and the event built from it, shared by the tournament
 * service (svc/tournaments.c) and its read-only commands (cmd/tournament_views.c).
 *
 * A tournament's settings, field, byes and withdrawals are one JSON document in the store
 * (tournaments.state: {settings, players, byes, round, director}); its games are ordinary
 * games with tournament_id and round. Pairing and standings are computed by common/pairing.c
 * and common/standings.c from a struct event built from those two sources (tour_ev_build).
 */
#ifndef TENGEN_TOUR_H
#define TENGEN_TOUR_H

#include "event.h"
#include "games.h"
#include "ruleset.h"
#include "server.h"

#define TOURNAMENT_ROUNDS_DEFAULT 5   /* Swiss and McMahon rounds unless set */
#define TOURNAMENT_START_AT_MAX 1e11  /* Unix seconds: a sanity bound on start_at */
#define TOURNAMENT_PLACE_MAX 128      /* bytes of tournament.create's place */
#define TOURNAMENT_LIST_MAX 1000      /* tournaments in a listing or a profile, at most */
#define TOURNAMENT_MMS_ABSENT_DEFAULT 0.5 /* McMahon score of an absent round (OpenGotha's) */
#define TOURNAMENT_HANDICAP_CORRECTION_DEFAULT 1 /* stones = rank difference - this */

/* A tournament as loaded: its row and its state document (owned). */
struct tour {
	struct store_tournament row;
	json_t *state;                 /* {settings, players, byes, round} */
	enum event_system system;
};

#define TOUR_PROFILE_STRS 4 /* strings kept per player in ev_build.profile_strs */

/* The event as pairing and standings see it, with what maps it back to the store. */
struct ev_build {
	struct event ev;
	int64_t *game_ids;        /* per ev.games entry */
	char **names;
	char **profile_strs;      /* TOUR_PROFILE_STRS per player: country, club, egd_pin,
				   * full_name (or NULL) */
	/* While building only (tour_ev_build; matches_reduce replaces ev.games after): room in
	 * ev.games and game_ids, the players' (id, index) by id for looking up a game's two
	 * players, and whether memory ran out. */
	int games_cap;
	struct tour_pid { int64_t id; int index; } *by_id;
	bool failed;
};

/* Free what t holds (t can be loaded again). */
void tour_clear(struct tour *t);
/* Load tournament `id` into *t. Returns 0, or -1 if there is none (*e: not found, "no
 * tournament ID"; t needs no tour_clear then). */
int tour_get(struct server *srv, int64_t id, struct tour *t, struct proto_error *e);
/* The rounds a tournament in `state` (its state document) plays: its `rounds` setting
 * (default TOURNAMENT_ROUNDS_DEFAULT), except for 2 or more entries not withdrawn before the
 * start in a (double) round robin: the Berger table's rounds of its field (once or twice),
 * whatever `rounds` says (Chinese Rules 2002, Art. 26: everyone meets everyone); and in a
 * single-elimination knockout (not double, not after k losses): ceil(log2(entries)), the
 * rounds until one is left (pairing ignores `rounds` there). */
int tour_rounds_planned(enum event_system system, json_t *state);
/* The rounds of a single-elimination bracket of n entries (n >= 1): ceil(log2(n)), each round
 * halving the field, byes first. */
int tour_knockout_rounds(int n);
/* Write t's state document in the iteration's transaction; a failed write stops the server
 * (panic.h). */
void tour_save(struct server *srv, struct tour *t);
/* t's settings object (borrowed), one integer setting (or dflt), its current round (0: not
 * started). */
json_t *tour_settings(const struct tour *t);
int tour_setting_int(const struct tour *t, const char *key, int dflt);
int tour_round(const struct tour *t);
/* The entry of t's field named `name` (case-insensitive; borrowed), or NULL. */
json_t *tour_entry_named(const struct tour *t, const char *name);
/* Has the entry `entry` (of player `name`) withdrawn (Art. 28)? 0 if not; -1 with *e a
 * conflict saying when ("withdrew after round 2", "withdrew before round 1"). */
int tour_entry_withdrawn(const json_t *entry, const char *name, struct proto_error *e);
/* The venues (docs/protocol.md tournament.create `venue`), TOUR_VENUE_ONLINE the default. */
enum tour_venue { TOUR_VENUE_ONLINE = 0, TOUR_VENUE_BOARD };
#define TOUR_VENUES 2
extern const char *const tour_venue_names[TOUR_VENUES];
/* A handicap game's stones come from the ranks' or the McMahon scores' difference (the
 * setting `handicap_by`; docs/pairing.md). */
#define TOUR_HANDICAP_BY 2
extern const char *const tour_handicap_by_names[TOUR_HANDICAP_BY];
/* Is t played at real boards (venue "board")? Its games get no start time (games.h
 * games_create_scheduled with start_at 0). */
bool tour_board(const struct tour *t);
/* The game settings of every pairing of t into *gs. Returns 0, or -1 for stored rules or time
 * that do not parse. */
int tour_game_settings(const struct tour *t, struct game_settings *gs);
/* The most handicap a pairing may give on a board of `size` (see tour.c). */
int tour_handicap_cap(int configured, int size);
/* Build t's event into *b (players seeded, games and byes from the store). Returns 0, or -1
 * when out of memory (b freed). */
int tour_ev_build(struct server *srv, const struct tour *t, struct ev_build *b);
/* Free *b. */
void tour_ev_free(struct ev_build *b);
/* The index of player `id` in ev's players, or -1. */
int tour_player_index(const struct event *ev, int64_t id);
/* A game's result as pairings show it (docs/protocol.md tournament.pairings): a game won at the
 * board as recorded ("B+R", "W+3.5"; "B+"/"W+" if no text was kept), else "0", "B+F", "W+F",
 * "double_loss" or "Void"; NULL while it has none. Individual and team events alike. */
const char *tour_result_shown(const struct event_game *g);
/* A stored game's result as the standings see it. */
enum event_result tour_result_of(const struct store_game *g);
/* Is parsed result res, ended with `reason` (NULL: none), a forfeit without play: an "F" win
 * not lost on the board (reason warnings or illegal), e.g. lateness, a director's forfeit, a
 * withdrawal? Such a game is unplayed in the standings and the h9 (`!`), and moves no rating. */
bool tour_unplayed_forfeit(const struct ruleset_result *res, const char *reason);
/* A challenge called off before play (reason `declined` or `expired`): no game for events. */
bool tour_called_off(const struct store_game *g);
/* The name of the ruleset (ruleset_find) a stored game is played under: its rules' `ruleset`. */
const char *tour_game_ruleset(const struct store_game *g);
/* Load tournament `id` (tour_get) and build its event (tour_ev_build). Returns 0, or -1 with
 * *e filled (not found; internal "could not read the tournament"), nothing to free then. */
int tour_event_get(struct server *srv, int64_t id, struct tour *t, struct ev_build *b,
		   struct proto_error *e);
/* The tie-break names of t (its own list, or the system's default) into names (at most
 * STANDINGS_MAX_TIEBREAKS); returns how many. */
int tour_tiebreak_names(const struct tour *t, const char **names);

#endif
