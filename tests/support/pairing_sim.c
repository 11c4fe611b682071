/* pairing_sim: simulated events for the unit tests of common/pairing (test_pairing.c,
 * test_pairing_draw.c): a seeded generator, the event's games and byes as the rounds are
 * drawn and played, and what the players had before a round. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pairing_sim.h"

static uint64_t rng_state;

void rng_seed(uint64_t s)
{
	rng_state = s * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
}

uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

void sim_init(struct sim *s, enum event_system sys, int n)
{
	memset(s, 0, sizeof *s);
	s->ev.system = sys;
	s->ev.nplayers = n;
	s->ev.players = s->players;
	s->ev.games = s->games;
	s->ev.byes = s->byes;
	s->ev.bye_points = 2;
	s->ev.mcmahon_bar = 4;
	s->ev.mcmahon_floor = -20;
	s->ev.mms_bye = 1;
	s->ev.mms_absent = 0.5;
	for (int i = 0; i < n; i++) {
		s->players[i].id = 100 + i;
		s->players[i].seed = i;
		s->players[i].rank = 8 - i;
	}
}

void sim_game(struct sim *s, int round, int black, int white, enum event_result r)
{
	ck_assert_int_lt(s->ev.ngames, SIM_MAX_GAMES);
	s->games[s->ev.ngames++] = (struct event_game){ .round = round, .black = black,
		.white = white, .result = r };
}

void sim_bye(struct sim *s, int round, int player)
{
	s->byes[s->ev.nbyes++] = (struct event_bye){ round, player };
}

/* Record a draw with results: random (mostly decisive) or "the better seed wins". */
void sim_record(struct sim *s, const struct pairing_out *o, bool seed_wins)
{
	for (int b = 0; b < o->nbyes; b++)
		sim_bye(s, o->round, o->byes[b]);
	for (int p = 0; p < o->npairs; p++) {
		const struct pairing_pair *q = &o->pairs[p];
		enum event_result r;
		if (q->black_absent || q->white_absent)
			r = q->black_absent ? (q->white_absent ? RESULT_DOUBLE_LOSS
							       : RESULT_WHITE_FORFEIT_WIN)
					    : RESULT_BLACK_FORFEIT_WIN;
		else if (seed_wins)
			r = s->players[q->black].seed < s->players[q->white].seed ? RESULT_BLACK_WIN
										  : RESULT_WHITE_WIN;
		else {
			uint32_t x = rng() % 100;
			r = x < 47 ? RESULT_BLACK_WIN : x < 94 ? RESULT_WHITE_WIN : x < 98 ? RESULT_DRAW
							       : RESULT_DOUBLE_LOSS;
		}
		sim_game(s, o->round, q->black, q->white, r);
	}
	s->ev.rounds_played = o->round;
}

bool have_met(const struct sim *s, int a, int b, int before_round)
{
	for (int g = 0; g < s->ev.ngames; g++) {
		const struct event_game *x = &s->games[g];
		if (x->round < before_round &&
		    ((x->black == a && x->white == b) || (x->black == b && x->white == a)))
			return true;
	}
	return false;
}

/* Colour balance (Whites - Blacks, played games) before a round. */
int balance(const struct sim *s, int p, int before_round)
{
	int b = 0;
	for (int g = 0; g < s->ev.ngames; g++) {
		const struct event_game *x = &s->games[g];
		if (x->round >= before_round || !(x->result == RESULT_BLACK_WIN ||
		    x->result == RESULT_WHITE_WIN || x->result == RESULT_DRAW))
			continue;
		b += (x->white == p) - (x->black == p);
	}
	return b;
}

int count_byes(const struct sim *s, int p, int before_round)
{
	int c = 0;
	for (int b = 0; b < s->ev.nbyes; b++)
		c += s->byes[b].player == p && s->byes[b].round < before_round;
	return c;
}

/* ================================ matcher ================================ */
