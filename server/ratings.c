/* ratings: placeholder */
#include "ratings.h"
int ratings_game_ended(struct server *srv, int64_t game_id, json_t *end_event) { (void)srv; (void)game_id; (void)end_event; return 0; }
int ratings_recompute(struct server *srv, int64_t from_game_id) { (void)srv; (void)from_game_id; return 0; }
