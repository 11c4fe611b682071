/* cmd_sgf: `sgf {game}`, a game's record in SGF (FF[4]) from the store. See cmd_games.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmd_games.h"
#include "game.h"
#include "sgf.h"
#include "vertex.h"


struct sgf_ctx {
	const struct game *g;
	struct sgf_game *s;
	int size;
	const struct clock_control *cc;
};

static int sgf_move_cb(void *ctx, const struct store_move *m)
{
	struct sgf_ctx *x = ctx;
	struct sgf_game *s = x->s;
	if (s->nmoves == s->capmoves) {
		size_t n = s->capmoves ? s->capmoves * 2 : 64;
		struct sgf_move *nm = realloc(s->moves, n * sizeof *nm);
		if (!nm)
			return 1;
		s->moves = nm;
		s->capmoves = n;
	}
	struct sgf_move *sm = &s->moves[s->nmoves++];
	memset(sm, 0, sizeof *sm);
	sm->color = m->color == 'B' ? SGF_BLACK : SGF_WHITE;
	sm->time_left_ms = -1;
	sm->periods_left = -1;
	int xx, yy;
	if (!m->forfeit[0] && vertex_parse_xy(x->size, m->vertex, &xx, &yy) == 1) {
		sm->x = (int16_t)xx;
		sm->y = (int16_t)yy;
	} else {
		sm->x = sm->y = -1;
	}
	if (m->clocks && x->cc->system != CLOCK_NONE) {
		/* BL/WL, OB/OW: the mover's clock after the move (FF[4]). */
		struct clock_state st[2] = {{0}};
		game_clocks_parse(x->cc, m->clocks, &st[0], &st[1]);
		int64_t left;
		int count;
		clock_sgf_left(x->cc, &st[m->color == 'B' ? 0 : 1], &left, &count);
		sm->time_left_ms = left > INT32_MAX ? INT32_MAX : (int32_t)left;
		sm->periods_left = (int16_t)count;
	}
	for (size_t i = 0; i < x->g->nown; i++) /* seed 000: the mover removed its own chains */
		if (x->g->own_moves[i] == m->number && !(sm->comment = strdup(CAPTURE_SGF_OWN)))
			return 1;
	if (m->forfeit[0]) {
		char buf[96];
		enum offence o;
		if (strcmp(m->forfeit, "time") == 0)
			snprintf(buf, sizeof buf, "Turn forfeited: the last byo-yomi period ran out "
				 "(Chinese Rules 2002, Art. 22.5)");
		else
			snprintf(buf, sizeof buf, "Turn forfeited: %s (Chinese Rules 2002, Art. 19)",
				 referee_offence_parse(m->forfeit, &o) == 0 ? game_offence_text(o) : m->forfeit);
		sm->comment = strdup(buf);
	}
	return 0;
}

/* Append `text` to the comment *target (a line of its own; NULL: none yet). 0, or -1 out of
 * memory (*target unchanged). */
static int text_add(char **target, const char *text)
{
	if (!*target)
		return (*target = strdup(text)) ? 0 : -1;
	size_t l = strlen(*target) + strlen(text) + 2;
	char *n = malloc(l);
	if (!n)
		return -1;
	snprintf(n, l, "%s\n%s", *target, text);
	free(*target);
	*target = n;
	return 0;
}

static int sgf_warning_cb(void *ctx, const struct store_warning *w)
{
	struct sgf_game *s = ((struct sgf_ctx *)ctx)->s;
	char buf[STORE_WARNING_REASON_SIZE + 64];
	enum offence o;
	/* a director's reason is their text, even one that names an offence */
	const char *why = !game_warning_by_director(w) && referee_offence_parse(w->reason, &o) == 0 ?
			  game_offence_text(o) : w->reason;
	snprintf(buf, sizeof buf, "Warning to %s: %s", w->color == 'B' ? "Black" : "White", why);
	char **target = w->number > 0 && (size_t)w->number <= s->nmoves ? &s->moves[w->number - 1].comment
									 : &s->comment;
	return text_add(target, buf) < 0 ? 1 : 0;
}

/* The count in the record, so that any reader can reproduce RE: for a game counted, the
 * territory of the final position with the agreed dead stones in the territory of the side
 * that surrounds them (SGF FF4 TB/TW; Art. 8, 9); and, for a game with warnings, WN[b:w] and a
 * root comment saying how they moved the count (Art. 24.1). Returns 0, or -1 when memory runs
 * out. */
static int sgf_count(const struct game *g, struct sgf_game *s)
{
	const struct referee *r = &g->ref;
	if (!g->started)
		return 0;
	s->warnings_black = r->warnings[BLACK] > SGF_MAX_WARNINGS ? SGF_MAX_WARNINGS : r->warnings[BLACK];
	s->warnings_white = r->warnings[WHITE] > SGF_MAX_WARNINGS ? SGF_MAX_WARNINGS : r->warnings[WHITE];
	if (r->scored && (s->warnings_black || s->warnings_white)) {
		char buf[256];
		snprintf(buf, sizeof buf, "Warnings: Black %d, White %d. Each moved one point of the "
			 "count to the opponent (Chinese Rules 2002, Art. 24.1); RE includes them "
			 "(WN[%d:%d]).", s->warnings_black, s->warnings_white, s->warnings_black,
			 s->warnings_white);
		if (text_add(&s->comment, buf) < 0)
			return -1;
	}
	/* A game lost by an illegal move: the move is not in the record (it was not played) */
	if (r->phase == PHASE_ENDED && strcmp(g->row.reason, "illegal") == 0 &&
	    (g->illegal_color == BLACK || g->illegal_color == WHITE)) {
		char buf[192], v[VERTEX_MAX_LEN];
		snprintf(buf, sizeof buf, "%s's move at %s was illegal (%s): the game is lost by it "
			 "(%s).", g->illegal_color == BLACK ? "Black" : "White",
			 vertex_format(&r->board, g->illegal_pt, v), game_offence_text(g->illegal_offence),
			 game_is_prediction(g) ? "prediction rules, Art. 5.4" :
			 "rules: illegal lose; Chinese Rules 2002, Art. 18-19");
		char **target = s->nmoves ? &s->moves[s->nmoves - 1].comment : &s->comment;
		if (text_add(target, buf) < 0)
			return -1;
	}
	/* A director's result: said so; the count's territory (TB/TW) only under a counted
	 * result, not under one that replaced it */
	if (r->phase == PHASE_ENDED && strcmp(g->row.reason, "adjudicated") == 0 &&
	    text_add(&s->comment, "The result was set by the tournament director (adjudicated).") < 0)
		return -1;
	if (!r->scored || r->phase != PHASE_ENDED || strcmp(g->row.reason, "score") != 0)
		return 0;
	/* A lapsed count (referee_count_lapse): whose claim it used, or none */
	if (r->unclaimed) {
		char buf[160];
		snprintf(buf, sizeof buf, "The counting time ran out before %s claimed dead stones: %s.",
			 r->unclaimed == REFEREE_UNCLAIMED_B ? "Black" :
			 r->unclaimed == REFEREE_UNCLAIMED_W ? "White" : "either player",
			 r->unclaimed == REFEREE_UNCLAIMED_B ? "counted with White's claim" :
			 r->unclaimed == REFEREE_UNCLAIMED_W ? "counted with Black's claim" :
			 "every stone counted alive");
		if (text_add(&s->comment, buf) < 0)
			return -1;
	}
	const struct board *b = &r->board;
	const bool *dead = referee_counted_dead(r);
	unsigned char owner[BOARD_POINTS_MAX];
	score_territory(b, dead, owner);
	for (int y = b->size - 1; y >= 0; y--)
		for (int x = 0; x < b->size; x++) {
			int pt = board_pt(b, x, y);
			unsigned char o = owner[pt];
			if (o != EMPTY &&
			    sgf_game_add_territory(s, o == BLACK ? SGF_BLACK : SGF_WHITE, x, y) != SGF_OK)
				return -1;
			/* DS: every dead stone, also one in nobody's territory (TB/TW cannot say) */
			if (dead && dead[pt] && board_at(b, pt) != EMPTY && sgf_game_add_dead(s, x, y) != SGF_OK)
				return -1;
		}
	return 0;
}

void games_sgf(struct conn *c, const struct proto_request *req)
{
	bool owned;
	struct game *g = cmd_game_find(c, req, &owned);
	if (!g)
		return;
	struct sgf_game s;
	sgf_game_init(&s);
	s.size = g->row.size;
	/* KM (the komi counted with), HA, RU and PL from the game's ruleset; a prediction game
	 * before its bar has the ruleset's own komi, 0 (docs/rules.md §5, Art. 5.3: KM is minus
	 * the bar), whatever its row holds: a tournament game's row stored before
	 * games_create_scheduled took the ruleset's komi holds the event's, and its record said
	 * KM[7.5] */
	double km = game_is_prediction(g) && !g->ref.revealed ? g->rs->default_komi : g->row.komi;
	if (ruleset_sgf_info(g->rs, km, g->row.handicap, &s) != SGF_OK) {
		sgf_game_free(&s);
		if (owned)
			game_free(g);
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		return;
	}
	if (strcmp(g->row.reason, "double_forfeit") == 0) /* SGF has no double loss: RE[Void] */
		s.comment = strdup(GAMES_DOUBLE_LOSS_COMMENT);
	bool colours = !game_is_prediction(g) || g->ref.revealed || g->ref.phase == PHASE_ENDED;
	if (game_nigiri_pending(g)) { /* no colours yet: PB/PW would make the challenger Black */
		char note[2 * PROTO_NAME_MAX + 96];
		snprintf(note, sizeof note, strcmp(g->row.phase, "pending") == 0 ?
			 "Challenge pending: %s v %s, colours by nigiri at accept." :
			 "Challenge called off before its accept: %s v %s, colours never drawn.",
			 g->black, g->white);
		s.comment = strdup(note);
		colours = false;
	}
	if (colours) { /* seed 000: no colours before the predictions are shown */
		/* a challenge as White not accepted: the row lists its challenger as Black, the
		 * record gives the colours it will have (it named the stronger player Black beside
		 * the handicap stones of a color "auto" challenge) */
		bool swap = !game_is_prediction(g) && game_unaccepted(g) &&
			    strcmp(g->row.color_choice, "white") == 0;
		int64_t bid = swap ? g->row.white_id : g->row.black_id;
		int64_t wid = swap ? g->row.black_id : g->row.white_id;
		/* an entrant as entered, as in the game object (not the internal account name) */
		json_t *pb = game_player_name_json(c->srv, g, bid, swap ? g->white : g->black);
		json_t *pw = game_player_name_json(c->srv, g, wid, swap ? g->black : g->white);
		s.black = strdup(json_string_value(pb));
		s.white = strdup(json_string_value(pw));
		json_decref(pb);
		json_decref(pw);
	}
	if (game_predict_sgf_info(g, &s) < 0) {
		sgf_game_free(&s);
		if (owned)
			game_free(g);
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		return;
	}
	if (g->row.result[0])
		s.result = strdup(g->row.result);
	if (g->row.tournament_id) { /* EV and RO: the event and the round (SGF FF[4]) */
		struct store_tournament tr;
		char ro[16];
		if (store_tournament_get(c->srv->store, g->row.tournament_id, &tr) == STORE_OK) {
			s.event = strdup(tr.name);
			store_tournament_clear(&tr);
		}
		snprintf(ro, sizeof ro, "%d", g->row.round);
		if (g->row.round > 0)
			s.round = strdup(ro);
	}
	char date[16];
	time_t t = (time_t)g->row.created_at;
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y-%m-%d", &tm);
	s.date = strdup(date);
	if (g->started && g->ref.board.nsetup) {
		s.setup_black = calloc(g->ref.board.nsetup, sizeof *s.setup_black);
		for (size_t i = 0; s.setup_black && i < g->ref.board.nsetup; i++) {
			int p = g->ref.board.setup[i].pt;
			s.setup_black[s.nsetup_black++] = (struct sgf_point){
				(int16_t)board_x(&g->ref.board, p), (int16_t)board_y(&g->ref.board, p)};
		}
	}
	if (g->cc.system != CLOCK_NONE) {
		char ot[CLOCK_OT_MAX];
		s.time_limit_s = clock_sgf_tm(&g->cc);
		if (clock_sgf_ot(&g->cc, ot)[0])
			s.overtime = strdup(ot);
	}
	struct sgf_ctx x = {g, &s, g->row.size, &g->cc};
	store_moves_get(c->srv->store, g->id, sgf_move_cb, &x);
	store_warnings_get(c->srv->store, g->id, sgf_warning_cb, &x);
	if (sgf_count(g, &s) < 0) {
		sgf_game_free(&s);
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "out of memory");
		if (owned)
			game_free(g);
		return;
	}
	char *text = sgf_write(&s);
	sgf_game_free(&s);
	if (!text) {
		server_reply_error(c, req->id, PROTO_ERR_INTERNAL, "could not write the record");
	} else {
		json_t *r = proto_reply_ok(req->id);
		json_object_set_new(r, "sgf", json_string(text));
		server_reply(c, r);
		free(text);
	}
	if (owned)
		game_free(g);
}
