/* cmd_predict: the `predict` command of the prediction ruleset (seed 000, Art. 5.3;
 * docs/protocol.md "Prediction ruleset"): a player seals "colour ahead by margin"; the others
 * hear only that it is sealed; the second seal shows both, decides the colours and the bar, and
 * play starts. See cmd_games.h. */
#include <stdio.h>
#include <string.h>
#include "cmd_games.h"
#include "game.h"

static const char *const colors[] = {"W", "B"};

/* game.sealed {game, player} to both players and the observers: no value. */
static void send_sealed(struct server *srv, struct game *g, const char *name)
{
	json_t *e = proto_event("game.sealed");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "player", json_string(name));
	game_send(srv, g, e);
	json_decref(e);
}

/* game.predictions {game, predictions, black, white, bar} once both are in. */
static void send_predictions(struct server *srv, struct game *g)
{
	json_t *e = proto_event("game.predictions");
	json_object_set_new(e, "game", json_integer(g->id));
	json_object_set_new(e, "predictions", game_predict_predictions_json(g));
	json_object_set_new(e, "black", json_string(g->black));
	json_object_set_new(e, "white", json_string(g->white));
	json_object_set_new(e, "bar", game_predict_bar_json(g));
	json_object_set_new(e, "komi", json_real(g->ref.komi));
	json_object_set_new(e, "to_move", json_string("W"));
	json_object_set_new(e, "clocks", game_clocks_json(g, true));
	game_send(srv, g, e);
	json_decref(e);
}

void games_predict(struct conn *c, const struct proto_request *req)
{
	struct server *srv = c->srv;
	struct proto_error err;
	bool owned;
	int color = 0;
	double margin = 0;
	struct game *g = cmd_game_find(c, req, &owned);
	if (!g)
		return;
	if (owned) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is over", (long long)g->id);
		game_free(g);
		return;
	}
	enum color col = game_color_of(g, c->player_id);
	if (col == EMPTY) {
		server_reply_error(c, req->id, PROTO_ERR_FORBIDDEN, "you do not play in game %lld",
				   (long long)g->id);
		return;
	}
	if (proto_get_choice(req->root, "color", true, colors, 2, &color, &err) < 0 ||
	    proto_get_number(req->root, "margin", true, 0, (double)g->row.size * g->row.size,
			     &margin, &err) < 0) {
		server_reply(c, proto_reply_error_from(req->id, &err));
		return;
	}
	if (!predict_margin_ok(margin, g->row.size)) {
		server_reply_error(c, req->id, PROTO_ERR_BAD_REQUEST, "field 'margin': must be a "
				   "multiple of %g points", PREDICT_STEP);
		return;
	}
	if (!game_is_prediction(g) || g->ref.phase != PHASE_PREDICTING) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is not in the "
				   "prediction stage", (long long)g->id);
		return;
	}
	enum predict_role role = game_col_role(g, col);
	if (g->ref.sealed[role]) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "your prediction in game %lld is "
				   "sealed already", (long long)g->id);
		return;
	}
	int64_t id = g->id;
	if (game_predict_timer(srv, g)) { /* the allowance ran out before this came */
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "your prediction time in game "
				   "%lld ran out", (long long)id);
		return;
	}
	struct predict_value v = { color == 0 ? WHITE : BLACK, margin };
	bool revealed;
	char name[PROTO_NAME_MAX + 1];
	snprintf(name, sizeof name, "%s", c->name);
	if (game_predict_seal(srv, g, role, predict_white(&v), &revealed) < 0) {
		server_reply_error(c, req->id, PROTO_ERR_CONFLICT, "game %lld is not in the "
				   "prediction stage", (long long)id);
		return;
	}
	json_t *r = proto_reply_ok(req->id);
	json_object_set_new(r, "sealed", json_true());
	server_reply(c, r);
	send_sealed(srv, g, name);
	if (revealed)
		send_predictions(srv, g);
	game_arm(g);
}
