/* tour_pairedit: a director's changes to the current round's pairing before its games begin
 * (issue 16): swap two players, swap a game's colours, set a handicap, give the bye to another
 * player; or unpair the round to pair it again. See tournaments.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "director.h"
#include "log.h"
#include "matches.h"
#include "pairing.h"
#include "ruleset.h"
#include "svc_error.h"
#include "teams.h"
#include "tour.h"
#include "tournaments.h"

const char *const pair_edit_op_names[PAIR_EDIT_OPS] = {"swap_players", "swap_colors", "handicap",
						       "bye"};

/* Where a player sits in the round: in event game `game` as `color`, or with the bye `bye`
 * (an index of ev.byes), or nowhere (game and bye -1: absent, late, withdrawn). */
struct seat {
	int player, game, bye;
	enum color color;
};

static int seat_of(const struct ev_build *b, int round, int player, struct seat *s)
{
	*s = (struct seat){.player = player, .game = -1, .bye = -1, .color = EMPTY};
	for (int k = 0; k < b->ev.ngames; k++) {
		const struct event_game *g = &b->ev.games[k];
		if (g->round != round || (g->black != player && g->white != player))
			continue;
		s->game = k; /* a knockout's replay is newer (listed first): the first one found */
		s->color = g->black == player ? BLACK : WHITE;
		return 0;
	}
	for (int k = 0; k < b->ev.nbyes; k++)
		if (b->ev.byes[k].round == round && b->ev.byes[k].player == player) {
			s->bye = k;
			return 0;
		}
	return -1;
}

static int player_named(const struct ev_build *b, const char *name)
{
	for (int i = 0; i < b->ev.nplayers; i++)
		if (strcasecmp(b->ev.players[i].name, name) == 0)
			return i;
	return -1;
}

/* The seat of the player called `name`, or -1 with *e filled. */
static int find_seat(const struct ev_build *b, int round, const char *field, const char *name,
		     struct seat *s, struct proto_error *e)
{
	int p = name ? player_named(b, name) : -1;
	if (!name)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': required", field);
	if (p < 0)
		return svc_fail(e, PROTO_ERR_NOT_FOUND, "field '%s': %s is not in the field", field, name);
	if (seat_of(b, round, p, s) < 0)
		return svc_fail(e, PROTO_ERR_CONFLICT, "%s is not paired in round %d (absent, entered "
				"late or withdrawn)", b->ev.players[p].name, round);
	return 0;
}

/* Event game k of the round, if it can still change; else -1 with a conflict in *e. */
static int editable(struct server *srv, const struct ev_build *b, int k, struct proto_error *e)
{
	if (!games_is_unstarted(srv, b->game_ids[k]))
		return svc_fail(e, PROTO_ERR_CONFLICT, "game %lld has begun or has a result: its "
				"pairing can no longer change", (long long)b->game_ids[k]);
	return 0;
}

/* The event game of the round with id `gid`, or -1 with *e filled. */
static int game_index(const struct ev_build *b, int round, int64_t gid, struct proto_error *e)
{
	if (gid <= 0)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'game': required");
	for (int k = 0; k < b->ev.ngames; k++)
		if (b->game_ids[k] == gid)
			return b->ev.games[k].round == round ? k :
				svc_fail(e, PROTO_ERR_CONFLICT, "game %lld is of round %d, not of "
					 "the current round %d", (long long)gid, b->ev.games[k].round,
					 round);
	return svc_fail(e, PROTO_ERR_NOT_FOUND, "game %lld is not a game of this tournament",
			(long long)gid);
}

/* Put player `p` in seat s (a game's colour, or the bye): in b's copy. */
static void sit(struct ev_build *b, const struct seat *s, int p)
{
	if (s->game >= 0) {
		if (s->color == BLACK)
			b->ev.games[s->game].black = p;
		else
			b->ev.games[s->game].white = p;
	} else {
		b->ev.byes[s->bye].player = p;
	}
}

/* Re-check the round as changed: nobody twice, nobody against themself, nobody absent. */
static int round_valid(const struct ev_build *b, int round)
{
	int *seen = calloc((size_t)b->ev.nplayers + 1, sizeof *seen);
	int ok = seen ? 0 : -1;
	for (int k = 0; seen && k < b->ev.ngames; k++) {
		const struct event_game *g = &b->ev.games[k];
		if (g->round != round)
			continue;
		if (g->black == g->white || seen[g->black]++ || seen[g->white]++)
			ok = -1;
	}
	for (int k = 0; seen && k < b->ev.nbyes; k++)
		if (b->ev.byes[k].round == round && seen[b->ev.byes[k].player]++)
			ok = -1;
	for (int i = 0; seen && i < b->ev.nplayers; i++)
		if (seen[i] && round <= 64 && ((b->ev.players[i].absent_rounds >> (round - 1)) & 1))
			ok = -1;
	free(seen);
	return ok;
}

/* Write event game k as it now stands in b (games_repair), komi from the settings. */
static int write_game(struct server *srv, const struct ev_build *b, int k,
		      const struct game_settings *gs, struct proto_error *e)
{
	const struct event_game *g = &b->ev.games[k];
	int rc = games_repair(srv, b->game_ids[k], b->ev.players[g->black].id,
			      b->ev.players[g->white].id, g->handicap,
			      g->handicap >= 1 ? gs->handicap_komi : gs->komi);
	if (rc == -2)
		return svc_fail(e, PROTO_ERR_CONFLICT, "game %lld: the board (%dx%d) cannot take "
				"handicap %d", (long long)b->game_ids[k], gs->size, gs->size, g->handicap);
	if (rc < 0)
		return editable(srv, b, k, e);
	return 0;
}

/* Tell player p that game `gid` is no longer theirs (tournament.unpaired). */
static void tell_unpaired(struct server *srv, const struct tour *t, const struct ev_build *b,
			  int p, int round, int64_t gid)
{
	json_t *ev = proto_event("tournament.unpaired");
	json_object_set_new(ev, "tournament", json_integer(t->row.id));
	json_object_set_new(ev, "round", json_integer(round));
	json_object_set_new(ev, "game", json_integer(gid));
	server_send_player(srv, b->ev.players[p].id, ev);
	json_decref(ev);
}

static void tell_bye(struct server *srv, const struct tour *t, const struct ev_build *b, int p,
		     int round)
{
	json_t *ev = proto_event("tournament.bye");
	json_object_set_new(ev, "tournament", json_integer(t->row.id));
	json_object_set_new(ev, "round", json_integer(round));
	server_send_player(srv, b->ev.players[p].id, ev);
	json_decref(ev);
}

/* After a swap: the rematches and second byes it made, as sentences in *w (created when the
 * first is found). Allowed (a director's call, as in OpenGotha), but said. */
static void swap_warnings(const struct ev_build *b, int round, const struct seat *s,
			  int ns, json_t **w)
{
	for (int i = 0; i < ns; i++) {
		char text[2 * STORE_FULL_NAME_MAX + 64];
		if (s[i].game >= 0) {
			const struct event_game *g = &b->ev.games[s[i].game];
			for (int k = 0; k < b->ev.ngames; k++) {
				const struct event_game *h = &b->ev.games[k];
				if (h->round >= round || !((h->black == g->black && h->white == g->white) ||
							   (h->black == g->white && h->white == g->black)))
					continue;
				snprintf(text, sizeof text, "%s and %s met in round %d already",
					 b->ev.players[g->black].name, b->ev.players[g->white].name,
					 h->round);
				if (!*w)
					*w = json_array();
				json_array_append_new(*w, json_string(text));
				break;
			}
		} else {
			int p = s[i].player; /* sits in the bye now */
			for (int k = 0; k < b->ev.nbyes; k++)
				if (b->ev.byes[k].round < round && b->ev.byes[k].player == p) {
					snprintf(text, sizeof text, "%s had the bye in round %d already",
						 b->ev.players[p].name, b->ev.byes[k].round);
					if (!*w)
						*w = json_array();
					json_array_append_new(*w, json_string(text));
					break;
				}
		}
	}
}

/* A game of the changed pairing whose handicap (kept from before a swap: `verb` "keeps"; set
 * by the director: "has") is not what the event's rules give its pair, or whose weaker player
 * has White in a handicap game (docs/pairing.md, Handicap): a warning naming the command that
 * sets it. Allowed (a director's call), but said. */
static void handicap_warning(const struct ev_build *b, int round, int k, const char *tname,
			     const char *verb, json_t **w)
{
	const struct event *ev = &b->ev;
	const struct event_game *g = &ev->games[k];
	int a = g->black, c = g->white, weaker;
	int want = pairing_pair_handicap(ev, round, a, c, &weaker); /* as the draw gives it */
	if (want < 0 || (want == g->handicap && (want == 0 || weaker == a)))
		return;
	char text[2 * STORE_FULL_NAME_MAX + 3 * 64 + 160];
	if (want != g->handicap)
		snprintf(text, sizeof text, "game %lld %s handicap %d, where the %s of %s and %s "
			 "ask for %d: td pair \"%s\" handicap %lld %d sets it",
			 (long long)b->game_ids[k], verb, g->handicap,
			 ev->handicap_by_mms ? "McMahon scores" : "ranks", ev->players[a].name,
			 ev->players[c].name, want, tname, (long long)b->game_ids[k], want);
	else
		snprintf(text, sizeof text, "game %lld: the weaker player, %s, has White in a "
			 "handicap game: td pair \"%s\" colors %lld swaps them",
			 (long long)b->game_ids[k], ev->players[weaker].name, tname,
			 (long long)b->game_ids[k]);
	if (!*w)
		*w = json_array();
	json_array_append_new(*w, json_string(text));
}

/* Swap the players in seats x and y (checked), write the games and byes, tell the players. */
static int swap_seats(struct server *srv, struct tour *t, struct ev_build *b, int round,
		      const struct seat *x, const struct seat *y, const struct game_settings *gs,
		      json_t **warnings, struct proto_error *e)
{
	if (x->player == y->player)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'player_b': the same player as "
				"'player_a'");
	if (x->game >= 0 && x->game == y->game)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "%s and %s play each other: swap their "
				"colours instead (op swap_colors; tengen td pair T colors GAME)",
				b->ev.players[x->player].name, b->ev.players[y->player].name);
	if (x->game < 0 && y->game < 0)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "neither player is in a game");
	if ((x->game >= 0 && editable(srv, b, x->game, e) < 0) ||
	    (y->game >= 0 && editable(srv, b, y->game, e) < 0))
		return -1;
	sit(b, x, y->player);
	sit(b, y, x->player);
	if (round_valid(b, round) < 0)
		return svc_fail(e, PROTO_ERR_INTERNAL, "the changed pairing is not valid");
	/* the seats now hold the other player: x's seat y's player and so on */
	struct seat now[2] = {*x, *y};
	now[0].player = y->player;
	now[1].player = x->player;
	swap_warnings(b, round, now, 2, warnings);
	/* Each game the same handicap as before (the director may set another after: a warning
	 * says where the rules give another). */
	for (int i = 0; i < 2; i++)
		if (now[i].game >= 0 && (i == 0 || now[1].game != now[0].game))
			handicap_warning(b, round, now[i].game, t->row.name, "keeps", warnings);
	if ((x->game >= 0 && write_game(srv, b, x->game, gs, e) < 0) ||
	    (y->game >= 0 && write_game(srv, b, y->game, gs, e) < 0))
		return -1;
	const struct seat *s[2] = {x, y};
	for (int i = 0; i < 2; i++) {
		if (s[i]->game >= 0)
			tell_unpaired(srv, t, b, s[i]->player, round, b->game_ids[s[i]->game]);
		else
			tell_bye(srv, t, b, s[1 - i]->player, round);
	}
	json_t *byes = json_object_get(t->state, "byes");
	size_t i;
	json_t *v;
	json_array_foreach(byes, i, v)
		if (json_integer_value(json_object_get(v, "round")) == round &&
		    (json_integer_value(json_object_get(v, "player")) == x->player ||
		     json_integer_value(json_object_get(v, "player")) == y->player))
			json_object_set_new(v, "player", json_integer(
				json_integer_value(json_object_get(v, "player")) == x->player ?
				y->player : x->player));
	tour_save(srv, t);
	return 0;
}

/* The round's bye holder's seat, or -1 (a conflict) if the round has none. */
static int bye_seat(const struct ev_build *b, int round, struct seat *s, struct proto_error *e)
{
	for (int k = 0; k < b->ev.nbyes; k++)
		if (b->ev.byes[k].round == round)
			return seat_of(b, round, b->ev.byes[k].player, s);
	return svc_fail(e, PROTO_ERR_CONFLICT, "round %d has no bye", round);
}

static int apply(struct server *srv, struct tour *t, struct ev_build *b, int round,
		 struct pair_edit *pe, const struct game_settings *gs, struct proto_error *e)
{
	struct seat x, y;
	int k;
	switch (pe->op) {
	case PAIR_EDIT_SWAP_PLAYERS:
		if (find_seat(b, round, "player_a", pe->player_a, &x, e) < 0 ||
		    find_seat(b, round, "player_b", pe->player_b, &y, e) < 0)
			return -1;
		return swap_seats(srv, t, b, round, &x, &y, gs, &pe->warnings, e);
	case PAIR_EDIT_BYE:
		if (find_seat(b, round, "player", pe->player_a, &x, e) < 0 ||
		    bye_seat(b, round, &y, e) < 0)
			return -1;
		if (x.player == y.player)
			return svc_fail(e, PROTO_ERR_CONFLICT, "%s has the bye already",
					b->ev.players[x.player].name);
		return swap_seats(srv, t, b, round, &x, &y, gs, &pe->warnings, e);
	case PAIR_EDIT_SWAP_COLORS:
	case PAIR_EDIT_HANDICAP:
		if ((k = game_index(b, round, pe->game, e)) < 0 || editable(srv, b, k, e) < 0)
			return -1;
		struct event_game *g = &b->ev.games[k];
		if (pe->op == PAIR_EDIT_SWAP_COLORS) {
			int p = g->black;
			g->black = g->white;
			g->white = p;
		} else {
			int cap = tour_handicap_cap(tour_setting_int(t, "handicap_max",
								     PAIRING_HANDICAP_CAP), gs->size);
			if (pe->handicap < 0 || pe->handicap > cap)
				return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'handicap': 0 to %d "
						"on this event's board", cap);
			g->handicap = pe->handicap;
		}
		if (write_game(srv, b, k, gs, e) < 0)
			return -1;
		handicap_warning(b, round, k, t->row.name, "has", &pe->warnings);
		return 0;
	default:
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'op': unknown");
	}
}

int tournaments_pair_edit(struct server *srv, int64_t tournament, int round,
			  struct pair_edit *pe, const char *by, int *round_out,
			  struct proto_error *e)
{
	struct tour t;
	struct ev_build b;
	struct game_settings gs;
	if (tour_event_get(srv, tournament, &t, &b, e) < 0)
		return -1;
	int rc = -1, current = tour_round(&t);
	if (tour_game_settings(&t, &gs) < 0) {
		svc_fail(e, PROTO_ERR_INTERNAL, "could not read the tournament");
	} else if (current == 0) {
		svc_fail(e, PROTO_ERR_CONFLICT, "no round is paired yet");
	} else if (round && round != current) {
		svc_fail(e, PROTO_ERR_CONFLICT, "only the current round (%d) can be changed, before "
			 "its games begin", current);
	} else if ((rc = apply(srv, &t, &b, current, pe, &gs, e)) == 0) {
		log_msg(LOGL_INFO, "tournament_pair_edit", "tournament=%lld round=%d op=%s "
			"player_a=\"%s\" player_b=\"%s\" game=%lld handicap=%d by=%s",
			(long long)t.row.id, current, pair_edit_op_names[pe->op],
			pe->player_a ? pe->player_a : "", pe->player_b ? pe->player_b : "",
			(long long)pe->game, pe->handicap, by);
		*round_out = current;
	}
	tour_ev_free(&b);
	tour_clear(&t);
	return rc;
}

int tournaments_unpair(struct server *srv, int64_t tournament, const char *by, int *round_out,
		       json_t **games_out, struct proto_error *e)
{
	struct tour t;
	struct ev_build b;
	if (tour_event_get(srv, tournament, &t, &b, e) < 0)
		return -1;
	int rc = -1, round = tour_round(&t);
	json_t *games = NULL;
	if (round == 0) {
		svc_fail(e, PROTO_ERR_CONFLICT, "no round is paired yet");
		goto out;
	}
	if (teams_is_team(&t) || matches_games(&t)) {
		svc_fail(e, PROTO_ERR_CONFLICT, "a round of a team event or of best-of-N matches "
			 "cannot be unpaired");
		goto out;
	}
	/* Every game of the round still to begin, none with a result: else the round stands. */
	for (int k = 0; k < b.ev.ngames; k++) {
		if (b.ev.games[k].round != round)
			continue;
		if (b.ev.games[k].result != RESULT_NONE || !games_is_unstarted(srv, b.game_ids[k])) {
			svc_fail(e, PROTO_ERR_CONFLICT, "game %lld of round %d has begun or has a "
				 "result: the round stands (enter its results: tournament.result, "
				 "tengen td result; or change its pairing before its games begin: "
				 "tournament.pair_edit, tengen td pair)", (long long)b.game_ids[k], round);
			goto out;
		}
	}
	if (!(games = json_array())) {
		svc_fail(e, PROTO_ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (int k = b.ev.ngames - 1; k >= 0; k--) { /* in pairing order */
		const struct event_game *g = &b.ev.games[k];
		if (g->round != round || games_call_off(srv, b.game_ids[k]) < 0)
			continue;
		json_array_append_new(games, json_integer(b.game_ids[k]));
		tell_unpaired(srv, &t, &b, g->black, round, b.game_ids[k]);
		tell_unpaired(srv, &t, &b, g->white, round, b.game_ids[k]);
	}
	json_t *byes = json_object_get(t.state, "byes"), *kept = json_array();
	size_t i;
	json_t *v;
	json_array_foreach(byes, i, v) {
		if (json_integer_value(json_object_get(v, "round")) != round) {
			json_array_append(kept, v);
			continue;
		}
		int p = (int)json_integer_value(json_object_get(v, "player"));
		json_t *ev = proto_event("tournament.unpaired");
		json_object_set_new(ev, "tournament", json_integer(t.row.id));
		json_object_set_new(ev, "round", json_integer(round));
		json_object_set_new(ev, "game", json_null());
		if (p >= 0 && p < b.ev.nplayers)
			server_send_player(srv, b.ev.players[p].id, ev);
		json_decref(ev);
	}
	json_object_set_new(t.state, "byes", kept);
	/* an entry made since the round was paired (absent up to it) plays when it is paired
	 * again */
	json_array_foreach(json_object_get(t.state, "players"), i, v)
		if (json_integer_value(json_object_get(v, "entered_round")) == round) {
			if (round > 1)
				json_object_set_new(v, "entered_round", json_integer(round - 1));
			else
				json_object_del(v, "entered_round");
		}
	json_object_set_new(t.state, "round", json_integer(round - 1));
	tour_save(srv, &t);
	log_msg(LOGL_INFO, "tournament_unpair", "tournament=%lld round=%d games=%zu by=%s",
		(long long)t.row.id, round, json_array_size(games), by);
	*round_out = round;
	*games_out = games;
	games = NULL;
	rc = 0;
out:
	json_decref(games);
	tour_ev_free(&b);
	tour_clear(&t);
	return rc;
}
