/* team: team events (Chinese Weiqi Rules 2002, Art. 25.2, 26, 27.2, 28.4; docs/teams.md).
 * Pure: no I/O, no clock, no chance.
 *
 * A team event is a set of teams of equal size (`boards` players a match) and the board games
 * of their matches. Each board game scores board points (局分) 2/1/0 as an individual game
 * (Art. 27.1: a win, also a forfeit win, 2; a draw 1; a loss, forfeit or double loss 0); a
 * match scores match points (场分) 2/1/0 by the teams' board points (Art. 27.2).
 *
 * Teams are paired as units by the individual systems of common/pairing.h: the team event is
 * turned into a struct event whose players are the teams and whose games are the matches
 * (team_as_event), so round robin uses the Berger tables, Swiss the Go-order matching on match
 * points, knockout the seeded bracket. The pairing's White team is the match's home team; on
 * the boards colours alternate: home takes White on boards 1, 3, 5, ... and Black on boards
 * 2, 4, ... (team_home_black).
 *
 * A knockout match level on board points goes to the team ahead on the first board that
 * differs (board 1, then 2, ...: Art. 27.2's order applied to one match); a match level on
 * every board is replayed (the next round stays pending until a board game is replayed).
 *
 * Board games are read in array order: on one board of one match the last game with a result
 * other than RESULT_VOID counts (a void game is replayed).
 */
#ifndef TENGEN_TEAM_H
#define TENGEN_TEAM_H

#include <stdbool.h>

#include "event.h"

#define TEAM_MAX_BOARDS 16          /* players a match (boards) */
#define TEAM_MAX_RESERVES 8         /* reserves a team may name */
#define TEAM_MAX_TEAMS 1024
#define TEAM_MAX_GAMES (TEAM_MAX_TEAMS / 2 * TEAM_MAX_BOARDS * EVENT_MAX_ROUNDS)
#define TEAM_BOARD_POINTS_WIN 2     /* Art. 27.1, 27.2 */
#define TEAM_BOARD_POINTS_DRAW 1
#define TEAM_MATCH_POINTS_WIN 2     /* Art. 27.2 */
#define TEAM_MATCH_POINTS_DRAW 1
#define TEAM_BYE_POINTS_MAX 2       /* bye_match_points, bye_board_points: 0..this */

enum team_err {
	TEAM_OK = 0,
	TEAM_EINVAL = -1,   /* a NULL or out-of-range argument, or an inconsistent event */
	TEAM_ENOMEM = -2,
	TEAM_EPENDING = -3  /* a board game has no result yet (or only void ones) */
};

/* A team: its players in board order (the fixed lineup of 分台定人制, board 1 first), then
 * its reserves. Indices into team_event.players. */
struct team {
	const char *name;
	int seed;              /* 0 = top seed */
	int withdrawn_after;   /* 0: in the event; else the last round the team took part in */
	bool withdrawn_before_start;
	int nplayers;          /* boards .. boards + TEAM_MAX_RESERVES */
	int players[TEAM_MAX_BOARDS + TEAM_MAX_RESERVES];
};

/* One board game of a match: the match is (round, home, away). */
struct team_game {
	int round;
	int home, away;          /* team indices */
	int board;               /* 0 = board 1 */
	int home_player, away_player; /* indices into team_event.players; -1: nobody (forfeit) */
	bool home_black;
	enum event_result result; /* from Black's side */
};

struct team_bye {
	int round;
	int team;
};

struct team_event {
	enum event_system system; /* SYSTEM_ROUND_ROBIN, _DOUBLE_ROUND_ROBIN, _SWISS, _KNOCKOUT */
	int boards;               /* 1..TEAM_MAX_BOARDS */
	int nteams;
	const struct team *teams;
	int nplayers;             /* the individual players (withdrawn_after is read) */
	const struct event_player *players;
	int ngames;
	struct team_game *games;
	int nbyes;
	const struct team_bye *byes;
	int rounds_planned;       /* Swiss: rounds of the event (0: no limit) */
	/* A bye (odd number of teams): match points and board points on every board it scores
	 * (default 2 and 2: a match won by forfeit, Art. 27.1 "a bye scores as a win"). */
	int bye_match_points, bye_board_points;
	bool reserves;            /* a reserve replaces a withdrawn player (team_lineup) */
};

/* A match's score (team_match_score). */
struct team_match_score {
	int home_bp, away_bp;           /* board points */
	int home_board[TEAM_MAX_BOARDS], away_board[TEAM_MAX_BOARDS]; /* per board */
	int home_mp, away_mp;           /* match points 2/1/0 */
	bool all_forfeits;              /* no board game was played */
	int ko_winner;                  /* knockout: the winning team, -1 if level on every board */
};

/* One match of a round's draw: `home` is the pairing's White team. */
struct team_pairing {
	int home, away;
	bool home_absent, away_absent; /* withdrawn (round robin): the boards are forfeits */
};

struct team_round {
	int round;
	int nmatches;
	struct team_pairing matches[TEAM_MAX_TEAMS / 2];
	int nbyes;
	int byes[TEAM_MAX_TEAMS];
};

/* A row of the team standings. */
struct team_standing {
	int team;
	int place;            /* 1-based; teams equal on every criterion share it (ties allowed) */
	int match_points, board_points;
	int boards[TEAM_MAX_BOARDS]; /* board points on board 1, 2, ... */
	int sos;              /* Swiss: the opponents' match points (byes add nothing) */
	int won, drawn, lost, byes; /* matches */
	int ko_rounds;        /* knockout: rounds survived (matches won by team_match_score's
			       * ko_winner, and byes): its main score, as KO is an individual
			       * knockout's */
};

/* The team systems' names as the protocol gives them ("team_round_robin", "team_swiss",
 * "team_knockout", "arena"), in enum team_system order. */
enum team_system { TEAM_SYSTEM_ROUND_ROBIN = 0, TEAM_SYSTEM_SWISS, TEAM_SYSTEM_KNOCKOUT,
	TEAM_SYSTEM_ARENA };
#define TEAM_SYSTEMS 4
extern const char *const team_system_names[TEAM_SYSTEMS];
/* The team system called `name` (exact match): 0 with *out set and *base the individual
 * system its teams are paired by (arena: SYSTEM_KNOCKOUT, a match of two teams), or -1. */
int team_system_parse(const char *name, enum team_system *out, enum event_system *base);

/* Does the home team play Black on board `board` (0 = board 1)? Home has White on boards
 * 1, 3, ... and Black on 2, 4, ... (colours alternate by board). */
bool team_home_black(int board);

/* Checks a team event: sizes within the limits, system one of the four above, every team
 * with at least `boards` players and distinct player indices in range, games' teams distinct
 * and in range, boards < boards, players in range or -1, results valid, byes in range, bye
 * points 0..TEAM_BYE_POINTS_MAX. TEAM_OK or TEAM_EINVAL. */
int team_validate(const struct team_event *te);

/* A board game's board points for the home and the away side (2/1/0, Art. 27.1).
 * TEAM_EPENDING for RESULT_NONE or RESULT_VOID, TEAM_EINVAL for a NULL argument. */
int team_game_points(const struct team_game *g, int *home, int *away);

/* The score of the match of `round` between `home` and `away` (Art. 27.2): each board's last
 * non-void game. TEAM_EPENDING if a board has no result (or no game), TEAM_EINVAL. */
int team_match_score(const struct team_event *te, int round, int home, int away,
		struct team_match_score *out);

/* The team event as an individual event for common/pairing: players = teams (seed and
 * withdrawals), games = matches of rounds with a result (home = White; RESULT_NONE while a
 * board is pending; a match of forfeits only is a forfeit result; knockout: the winner by
 * team_match_score's ko_winner, a draw when level everywhere), byes = team byes; bye_points
 * = bye_match_points. Allocates ev->players, ev->games, ev->byes: free with
 * team_event_free. TEAM_EINVAL, TEAM_ENOMEM. */
int team_as_event(const struct team_event *te, struct event *ev);
void team_event_free(struct event *ev);

/* The draw of round `round` of the team event (Berger tables, Swiss on match points, or the
 * knockout bracket, by te->system). Returns TEAM_OK, TEAM_EINVAL, TEAM_ENOMEM, or a
 * negative enum pairing_err from pairing_round (PAIRING_EOVER, PAIRING_EPENDING, ...). */
int team_pair_round(const struct team_event *te, int round, struct team_round *out);

/* The standings after round `after_round` (0 = every round) by Art. 27.2: round robin:
 * match points, board points, board 1's points, board 2's, ...; knockout: the rounds survived
 * (ko_rounds: the bracket's winner first, a level match going to its ko_winner), then the
 * round-robin order; Swiss (27.2 (2)):
 * match points, SOS (the opponents' match points), then the round-robin order. Teams equal
 * on all of them share the place. Rows are sorted (ties by seed); teams withdrawn before the
 * start have none; matches with a pending board are left out. out has room for te->nteams
 * rows. Time O(games^2) (each match's boards are looked up by a scan). Returns the number of rows, or TEAM_EINVAL / TEAM_ENOMEM. */
int team_standings(const struct team_event *te, int after_round, struct team_standing *out);

/* Art. 28.4 (team events: "results stand, the rest are forfeits"), in place: a board game
 * still RESULT_NONE in a round after its player's (or team's) withdrawal, or with no player
 * named (-1), is lost by forfeit by that side; both sides: a double loss. Idempotent. Returns
 * the number of games changed, or TEAM_EINVAL. */
int team_apply_withdrawals(struct team_event *te);

/* The fixed lineup (分台定人制) of `team` in `round`: players_out[b] for b < boards, the team's
 * board order; a player withdrawn before the round is replaced, when te->reserves is set, by
 * the first reserve still in the event not yet used, else -1 (the board is forfeited).
 * TEAM_EINVAL. */
int team_lineup(const struct team_event *te, int team, int round, int *players_out);

/* A short English text for an enum team_err value. */
const char *team_strerror(int err);

#endif
