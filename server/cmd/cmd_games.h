/* cmd_games: the handlers of the game commands (docs/protocol.md), called by the dispatch
 * table: each parses its request, acts through the game layer (game.h) and replies on c
 * (errors as proto error replies: bad_request, not_found, forbidden, conflict, ...). They
 * keep the games_ names they had before the game code was split into layers (issue 14). */
#ifndef TENGEN_CMD_GAMES_H
#define TENGEN_CMD_GAMES_H

#include "server.h"

/* `challenge {opponent, size?, komi?, handicap?, time?, rated?, color?, rules?, expires_s?}`
 * (limits: games.h, GAMES_CHALLENGES_*). */
void games_challenge(struct conn *c, const struct proto_request *req);
/* `challenges {offset?, limit?}`: the player's pending challenges, sent and received. */
void games_challenges(struct conn *c, const struct proto_request *req);
/* `predict {game, color, margin}` (prediction ruleset, seed 000): seal a prediction. */
void games_predict(struct conn *c, const struct proto_request *req);
/* `accept {game}`, `decline {game}`: the challenged accepts (colours by Art. 10); either side
 * calls a challenge off. */
void games_accept(struct conn *c, const struct proto_request *req);
void games_decline(struct conn *c, const struct proto_request *req);
/* `play {game, vertex, number?}`: a move, charged to the mover's clock (less the lag credit). */
void games_play(struct conn *c, const struct proto_request *req);
/* `handicap {game, stones}`: Black places the free handicap stones (handicap_placement
 * "free"; GTP 2 §6.3.3), charged to Black's clock like a move. */
void games_handicap(struct conn *c, const struct proto_request *req);
/* `join {game}`: present at a scheduled game (Art. 22). */
void games_join(struct conn *c, const struct proto_request *req);
/* `game.pause {game}`, `game.resume {game}`: a director's pause (Art. 14). */
void games_pause(struct conn *c, const struct proto_request *req);
void games_resume(struct conn *c, const struct proto_request *req);
void games_resign(struct conn *c, const struct proto_request *req);
/* `dead {game, stones}`: a player's claim of dead stones in counting (Art. 8). */
void games_dead(struct conn *c, const struct proto_request *req);
/* `game {game}`, `games {phase?, player?, tournament?, limit?, before?}`: queries. `games`
 * pages by keyset (docs/protocol.md, "### games"): `before` a game id, the reply's `next`
 * the id to pass as `before` for the next page, null on the last page. */
void games_game(struct conn *c, const struct proto_request *req);
void games_games(struct conn *c, const struct proto_request *req);
/* `sgf {game}`: the record (cmd_sgf.c). */
void games_sgf(struct conn *c, const struct proto_request *req);
void games_observe(struct conn *c, const struct proto_request *req);
void games_unobserve(struct conn *c, const struct proto_request *req);

/* The live game `game` of req, or one read back from the store (caller frees it with
 * game_free when *owned). Replies not_found and returns NULL if there is none. */
struct game *cmd_game_find(struct conn *c, const struct proto_request *req, bool *owned);

#endif
