/* games: live games in memory (struct game, one referee each, game.h), their clocks and events,
 * and their rebuilding from the store after a restart. Every change is written to the store in
 * the iteration's transaction before its reply and events are queued. The commands are in
 * cmd/cmd_games.h, the director's actions in svc/director.h. */
#ifndef TENGEN_GAMES_H
#define TENGEN_GAMES_H

#include "fairclock.h" /* the game clocks' time, for those that include this (transport/tcp.c) */
#include "server.h"

/* Load every unfinished game from the store (restart) and start the stall meter. Returns 0
 * or -1. */
int games_load(struct server *srv);
void games_free(struct server *srv);
/* A connection closes or logs out: forget it as an observer. */
void games_conn_gone(struct server *srv, struct conn *c);
/* A player logged in on c: send the state of each of the player's live games. */
void games_player_login(struct conn *c);
/* c's player has logged in: in each of their live games their clock no longer waits for
 * them after a restart (game_turn_hold); where they are to move and it was held, it runs from
 * now and the game's audience hears game.resume {game, by, reason: "returned", to_move,
 * clocks} (Chinese Rules 2002, Art. 14). Call before games_player_login. */
void games_player_back(struct conn *c);

/* Pending challenges (issue 20): a challenger may have GAMES_CHALLENGES_OUT_MAX pending, a
 * player may be the target of GAMES_CHALLENGES_IN_MAX; one more is refused `rate_limited`
 * and nothing is stored. A challenge lapses `expires_s` seconds after it was made (the
 * challenge's field, GAMES_CHALLENGE_TTL_S at most and by default): it ends as declined and
 * both players get `challenge.expired`. At login a player gets the first
 * GAMES_LOGIN_CHALLENGES of its pending challenges, oldest first, and `challenge.summary`
 * with the counts; `challenges {offset, limit}` lists them all, GAMES_CHALLENGES_LIST_MAX a
 * page. */
#define GAMES_CHALLENGES_OUT_MAX 20
#define GAMES_CHALLENGES_IN_MAX 100
#define GAMES_CHALLENGE_TTL_S (24 * 3600)
#define GAMES_LOGIN_CHALLENGES 10
#define GAMES_CHALLENGES_LIST_MAX 100
/* ... and a challenger makes at most GAMES_CHALLENGES_PER_WINDOW challenges a window of
 * GAMES_CHALLENGE_WINDOW_S (one more is `rate_limited`, nothing stored): a challenge and its
 * withdrawal in a loop sent 7,600 pairs of events a second to its target (a reader on a
 * home link was cut off as slow) and stored a game row each. */
#define GAMES_CHALLENGES_PER_WINDOW 60
#define GAMES_CHALLENGE_WINDOW_S 60

/* games_load reserves GAMES_RESERVE_BYTES of heap per unfinished game (heap_reserve) when
 * there are GAMES_RESERVE_FROM or more: measured, a 19x19 game takes ~23 KiB (its board's
 * per-point arrays, history and referee; 10,000 live games: 238 MiB RSS). */
#define GAMES_RESERVE_BYTES (24 * 1024)
#define GAMES_RESERVE_FROM 1000

/* Close every game's timer and the stall meter (the server is stopping). */
void games_stop(struct server *srv);
/* A clean stop (a signal): each live game whose turn's time runs keeps what the player to move
 * has used of the turn (written with the game: turn_used_ms), so that after the restart they
 * have exactly what was left, as after a director's pause (Chinese Rules 2002 Art. 14:
 * no clock runs while the server is down). In the stop's last transaction (server_stop). */
void games_keep_turns(struct server *srv);

/* What the game layer asks of the layers above it (set once, before games_load; any member may
 * be NULL). ended: a rated game has just ended, its row written in the open transaction; add
 * what the ratings say to `end_event` (game.end); returns 0, or -1 on a store error (the
 * server stops). player_brief: {name, rating, rd, rank} of a player for game.start, a new
 * reference, or NULL. server/main.c wires them to ratings_game_ended and ratings_player_brief
 * (svc/ratings.h). */
struct games_hooks {
	int (*ended)(struct server *srv, int64_t game_id, json_t *end_event);
	json_t *(*player_brief)(struct server *srv, int64_t player_id);
};
void games_set_hooks(const struct games_hooks *hooks);

/* Fire the timer of every live game that is due by fairclock_fair_ms (as the loop would):
 * for tests on a fake time source (fairclock_set_source), which never run the loop. Returns
 * the number of timers fired, or -1 when memory runs out. */
int games_fire_due(struct server *srv);

#define GAMES_KOMI_MAX 1000.0              /* |komi| in points */
#define GAMES_HANDICAP_MAX 9               /* stones: GTP's fixed placements go to 9 */
#define GAMES_LATENESS_LIMIT_DEFAULT_S 900 /* Art. 22.1: 15 minutes (docs/rules.md decided default) */
#define GAMES_LATENESS_LIMIT_MAX_S (24 * 3600)
/* The root comment of a double forfeit's SGF: RE has no double-loss value (FF4: Void is "no
 * result"), so the record says what the store's Void + reason double_forfeit means. */
#define GAMES_DOUBLE_LOSS_COMMENT "Double loss: both players forfeited, 0 points to each " \
	"(Chinese Rules 2002, Art. 17.5, 23.1). SGF has no double-loss result: RE[Void]."

/* What every game of a tournament gets. */
struct game_settings {
	int size;
	double komi;          /* points: an even game's */
	double handicap_komi; /* points: a game with handicap 1 or more (McMahon handicap) */
	struct proto_time time;
	struct rules rules;
	bool rated;
	int lateness_limit_s; /* Art. 22.1; 0: no limit (nobody loses by lateness) */
};

/* Could games_create_scheduled create a game of `set` with `handicap` (0, 1 or 2-9 stones)?
 * The same checks as the referee's (referee_check: the size, a handicap the board can hold).
 * A round checks every pair with it before it creates any game. Returns 0, or -1 with *why (a
 * static English phrase). */
int games_schedule_check(const struct game_settings *set, int handicap, const char **why);
/* Create a tournament game, scheduled at start_at (Unix seconds; Black's clock starts then;
 * 0: no start time, as at a board event: no clock runs and nobody is late until both players
 * have joined the game on the server, when it begins as game_begin says),
 * and send game.start to both players. komi: set->komi, or set->handicap_komi with a handicap
 * of 1 or more; under the prediction ruleset its own komi (0: the bar replaces it, docs/rules.md
 * §5, Art. 5.3). Returns the game id, or -1 (logged; nothing created: a setting
 * games_schedule_check refuses, no memory, a player not in the store). A store write failure
 * stops the server (as every write in the iteration's transaction). */
int64_t games_create_scheduled(struct server *srv, int64_t black_id, int64_t white_id,
			       const struct game_settings *set, int handicap, int64_t tournament_id,
			       int round, double start_at);
/* Is `t` a time control the clocks accept? Returns 0, or -1 with *why. */
int games_time_check(const struct proto_time *t, const char **why);
#endif
