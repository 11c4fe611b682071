/* pairing_sim: simulated events for the unit tests of common/pairing. */
#ifndef TENGEN_TESTS_PAIRING_SIM_H
#define TENGEN_TESTS_PAIRING_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include "pairing.h"

#define SIM_MAX_PLAYERS 64
#define SIM_MAX_GAMES (SIM_MAX_PLAYERS * EVENT_MAX_ROUNDS)

/* A simulated event with fixed storage. */
struct sim {
	struct event ev;
	struct event_player players[SIM_MAX_PLAYERS];
	struct event_game games[SIM_MAX_GAMES];
	struct event_bye byes[SIM_MAX_GAMES];
};

/* Seed the tests' generator (xorshift). */
void rng_seed(uint64_t s);

/* The next 32 random bits. */
uint32_t rng(void);

/* An empty event of n players of the system (seed i, rank 8 - i, ids from 100; McMahon bar 4, floor -20). */
void sim_init(struct sim *s, enum event_system sys, int n);

/* Add a game of the round with its result. */
void sim_game(struct sim *s, int round, int black, int white, enum event_result r);

/* Add a bye of the round. */
void sim_bye(struct sim *s, int round, int player);

/* Record a draw with results: random (mostly decisive) or "the better seed wins". */
void sim_record(struct sim *s, const struct pairing_out *o, bool seed_wins);

/* Have a and b played before the round? */
bool have_met(const struct sim *s, int a, int b, int before_round);

/* Colour balance (Whites - Blacks, played games) before a round. */
int balance(const struct sim *s, int p, int before_round);

/* Byes of player p before the round. */
int count_byes(const struct sim *s, int p, int before_round);

#endif
