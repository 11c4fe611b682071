/* matches: best-of-N pairings (多局决胜制, Chinese Rules 2002, Art. 26.5; docs/teams.md) in an
 * individual event with the setting match_games (3, 5 or 7). The pure rules are
 * common/bestof.h. Each pairing of a round is a match: its games are ordinary tournament games
 * of that round between the two players; the first has the pairing's colours, then the colours
 * alternate; a drawn or void game does not count (decided: BESTOF_DRAW_REPLAY). The draw and
 * the standings read each match as one game (bestof_reduce): its first game's colours, the
 * match's winner.
 */
#ifndef TENGEN_MATCHES_H
#define TENGEN_MATCHES_H

#include "server.h"
#include "tour.h"
#include "tournaments.h"

/* t's match_games setting: 0 (none) or N. */
int matches_games(const struct tour *t);

/* If the current round of t (its event b) has undecided matches, create each one's next game
 * (a withdrawn player's: forfeits until the match is decided) at start_at (0: now) and reply
 * with them: *out {round, pairings: [{game, black, white, handicap, match_game}], byes: []}
 * with `continued` set. Returns 1 if it created games, 0 if every match is decided (pair the
 * next round), -1 with *e (internal, or conflict: a stored game breaks the alternation). */
int matches_next_games(struct server *srv, const struct tour *t, const struct ev_build *b,
		       double start_at, struct tournament_round *out, struct proto_error *e);

/* May game `game` of t take `result` (with `reason`, NULL: none) as far as its best-of-N match
 * goes? Not when the match would then be decided before a later game of it that exists (it
 * was played or paired because the match was open): the event's games would no longer be a
 * match, and its standings, exports and next round would fail. Returns 0 (it may; also when t
 * has no match_games or the game is not one of its), or -1 with *e (conflict, naming the
 * games; internal). */
int matches_result_fits(struct server *srv, const struct tour *t, int64_t game,
			const char *result, const char *reason, struct proto_error *e);

/* Replace b's games by one game per match (bestof_reduce; game_ids: each match's first game)
 * when t has match_games; nothing otherwise. Returns 0, or -1 (out of memory, or the stored
 * games are not a match's: b unchanged). */
int matches_reduce(const struct tour *t, struct ev_build *b);

#endif
