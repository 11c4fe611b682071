/* pair_bench: time per round of Swiss and McMahon pairing (common/pairing) over a simulated
 * 7-round event of 100, 1,000 and 4,000 players (random ranks and results from a fixed
 * seed, so runs are comparable). Usage: pair_bench [--max N] [--rounds R]
 * (--max caps the field size: sizes above N are skipped). Prints one line per round and a
 * summary per size; exits non-zero if a pairing fails or pairs a player twice. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pairing.h"

#define BENCH_ROUNDS_DEFAULT 7
#define BENCH_SEED 20240601u

static const int sizes[] = { 100, 1000, 4000 };

static uint64_t rng_state;

static uint32_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One simulated event; returns 0 on success. */
static int run(int n, int rounds, enum event_system sys)
{
	struct event ev;
	memset(&ev, 0, sizeof ev);
	ev.system = sys;
	ev.nplayers = n;
	ev.players = calloc((size_t)n, sizeof *ev.players);
	ev.games = calloc((size_t)n * (size_t)rounds, sizeof *ev.games);
	ev.byes = calloc((size_t)rounds + 1, sizeof *ev.byes);
	struct pairing_out *out = malloc(sizeof *out);
	int *seen = calloc((size_t)n, sizeof *seen);
	if (!ev.players || !ev.games || !ev.byes || !out || !seen) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	ev.rounds_planned = rounds;
	ev.bye_points = 2;
	ev.mcmahon_bar = 2;
	ev.mcmahon_floor = -20;
	ev.mms_bye = 1;
	ev.mms_absent = 0.5;
	rng_state = BENCH_SEED + (uint64_t)n;
	for (int i = 0; i < n; i++) {
		ev.players[i].id = i;
		ev.players[i].rank = -25 + (int)(rng() % 33);
	}
	/* seed order: strongest first */
	for (int i = 0; i < n; i++) {
		int s = 0;
		for (int j = 0; j < n; j++)
			if (ev.players[j].rank > ev.players[i].rank ||
			    (ev.players[j].rank == ev.players[i].rank && j < i))
				s++;
		ev.players[i].seed = s;
	}
	double total = 0, worst = 0;
	int rematches = 0;
	for (int r = 1; r <= rounds; r++) {
		double t0 = now();
		int e = pairing_round(&ev, r, out);
		double dt = now() - t0;
		if (e) {
			fprintf(stderr, "n=%d round %d: %s\n", n, r, pairing_strerror(e));
			return 1;
		}
		total += dt;
		if (dt > worst)
			worst = dt;
		for (int i = 0; i < n; i++)
			seen[i] = 0;
		for (int b = 0; b < out->nbyes; b++) {
			seen[out->byes[b]]++;
			ev.byes[ev.nbyes++] = (struct event_bye){ r, out->byes[b] };
		}
		for (int p = 0; p < out->npairs; p++) {
			struct pairing_pair *q = &out->pairs[p];
			seen[q->black]++;
			seen[q->white]++;
			for (int g = 0; g < ev.ngames; g++)
				if ((ev.games[g].black == q->black && ev.games[g].white == q->white) ||
				    (ev.games[g].black == q->white && ev.games[g].white == q->black))
					rematches++;
			int d = ev.players[q->white].rank - ev.players[q->black].rank;
			uint32_t pw = 50 + (uint32_t)(d > 9 ? 45 : d < -9 ? -45 : 5 * d);
			ev.games[ev.ngames++] = (struct event_game){
				.round = r, .black = q->black, .white = q->white,
				.handicap = q->handicap,
				.result = rng() % 100 < pw ? RESULT_WHITE_WIN : RESULT_BLACK_WIN };
		}
		for (int i = 0; i < n; i++)
			if (seen[i] != 1) {
				fprintf(stderr, "n=%d round %d: player %d paired %d times\n", n, r, i,
					seen[i]);
				return 1;
			}
		ev.rounds_played = r;
		printf("  %-8s n=%-5d round %d: %8.3f s\n", sys == SYSTEM_SWISS ? "swiss" : "mcmahon",
		       n, r, dt);
	}
	printf("%-8s n=%-5d %d rounds: mean %.3f s/round, worst %.3f s, rematches %d\n",
	       sys == SYSTEM_SWISS ? "swiss" : "mcmahon", n, rounds, total / rounds, worst,
	       rematches);
	fflush(stdout);
	free(ev.players);
	free(ev.games);
	free(ev.byes);
	free(out);
	free(seen);
	return 0;
}

int main(int argc, char **argv)
{
	int max = EVENT_MAX_PLAYERS, rounds = BENCH_ROUNDS_DEFAULT;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			max = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: %s [--max N] [--rounds R]\n", argv[0]);
			return 2;
		}
	}
	if (rounds < 1 || rounds > EVENT_MAX_ROUNDS) {
		fprintf(stderr, "rounds must be 1..%d\n", EVENT_MAX_ROUNDS);
		return 2;
	}
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		if (sizes[s] > max)
			continue;
		if (run(sizes[s], rounds, SYSTEM_SWISS) || run(sizes[s], rounds, SYSTEM_MCMAHON))
			return 1;
	}
	return 0;
}
