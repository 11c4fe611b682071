/* pair_bench: speed and quality of Swiss and McMahon pairing (common/pairing) over simulated
 * 7-round events of 100, 999, 1,000 and 4,000 players (random ranks and results from a fixed
 * seed, so runs are comparable; a game's result depends only on the round and the two
 * players, so other pairing programs can be run on the same model), and the 8-player,
 * 3-round event where the better seed always wins.
 *
 * Quality, summed over the event (docs/pairing.md): rematches; the total |score difference|
 * of the pairs (wins; a bye counts its player's score above the field's lowest) against
 * the exact minimum of each round given the same history and the same bye (a matching on
 * every pair that has not met, tests/support/pairmin.c; the bye is chosen first, the
 * lowest-placed player's that allows a pairing without a rematch, docs/pairing.md); pairs
 * across score groups against
 * the fewest possible among the pairings of that minimum; whether the last round's two leaders (the only two at the top
 * score, not yet met) were paired; the largest |Whites - Blacks| of any player at the end.
 *
 * Usage: pair_bench [--max N] [--rounds R] [--no-quality]
 * (--max caps the field size: sizes above N are skipped). Prints one line per round and a
 * summary per size; exits non-zero if a pairing fails or pairs a player twice. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pairing.h"
#include "pairmin.h"

#define BENCH_ROUNDS_DEFAULT 7
#define BENCH_SEED 20240601u

static const int sizes[] = { 100, 999, 1000, 4000 }; /* 999: a bye every round */

static uint64_t rng_state;

static uint32_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng_state >> 33);
}

static uint64_t mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The state of a simulated event. */
struct sim {
	struct event ev;
	int n;
	int *score;      /* half wins (Swiss) or half MMS points, before the round */
	int *wb;         /* Whites - Blacks */
	uint8_t *met;    /* n * n */
};

/* ---- one simulated event ---- */

struct totals {
	double time, worst;
	long rematches, diff, diff_min, cross, cross_min;
	int leaders_paired, leaders_cases, max_imbalance;
	bool min_ok;
};

/* Black wins a game of round r between a (Black) and b (White) with ranks ra, rb: a draw
 * keyed by the round and the pair, so any program pairing the same two meets the same
 * result; White's chance is 50% + 5% a rank of advantage, within 5..95%. */
static bool black_wins(int r, int a, int b, int ra, int rb)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;
	uint64_t x = mix64(BENCH_SEED ^ mix64((uint64_t)r << 40 ^ (uint64_t)lo << 20 ^ (uint64_t)hi));
	int d = rb - ra;
	int pw = 50 + (d > 9 ? 45 : d < -9 ? -45 : 5 * d);
	return (int)(x % 100) >= pw;
}

/* Set up the event of n players and its buffers: ranks from the seed (or falling with the
 * index when the better seed wins), seeds by rank. Returns non-zero if out of memory. */
static int sim_init(struct sim *S, int n, int rounds, enum event_system sys, bool seed_wins)
{
	struct event *ev = &S->ev;
	S->n = n;
	ev->system = sys;
	ev->nplayers = n;
	ev->players = calloc((size_t)n, sizeof *ev->players);
	ev->games = calloc((size_t)n * (size_t)rounds, sizeof *ev->games);
	ev->byes = calloc((size_t)rounds + 1, sizeof *ev->byes);
	S->score = calloc((size_t)n, sizeof *S->score);
	S->wb = calloc((size_t)n, sizeof *S->wb);
	S->met = calloc((size_t)n * (size_t)n, 1);
	if (!ev->players || !ev->games || !ev->byes || !S->score || !S->wb || !S->met)
		return 1;
	ev->rounds_planned = rounds;
	ev->bye_points = 2;
	ev->mcmahon_bar = 2;
	ev->mcmahon_floor = -20;
	ev->mms_bye = 1;
	ev->mms_absent = 0.5;
	rng_state = BENCH_SEED + (uint64_t)n;
	for (int i = 0; i < n; i++) {
		ev->players[i].id = i;
		ev->players[i].rank = seed_wins ? -i : -25 + (int)(rng() % 33);
	}
	/* seed order: strongest first */
	for (int i = 0; i < n; i++) {
		int s = 0;
		for (int j = 0; j < n; j++)
			if (ev->players[j].rank > ev->players[i].rank ||
			    (ev->players[j].rank == ev->players[i].rank && j < i))
				s++;
		ev->players[i].seed = s;
	}
	return 0;
}

static void sim_free(struct sim *S)
{
	free(S->ev.players);
	free(S->ev.games);
	free(S->ev.byes);
	free(S->score);
	free(S->wb);
	free(S->met);
}

/* Scores before round r, as the pairing sees them (half wins). Returns non-zero on failure. */
static int sim_scores(struct sim *S, int r)
{
	for (int i = 0; i < S->n; i++) {
		double sc;
		if (pairing_score(&S->ev, r, i, &sc)) {
			fprintf(stderr, "pairing_score failed\n");
			return 1;
		}
		S->score[i] = (int)((S->ev.system == SYSTEM_MCMAHON ? 2 : 1) * sc + 0.5);
	}
	return 0;
}

/* The last round's leaders: the only two at the top score, not met; were they paired? */
static void count_leaders(const struct sim *S, const struct pairing_out *out, struct totals *T)
{
	int n = S->n;
	int top = -1, ntop = 0, l[2] = { -1, -1 };
	for (int i = 0; i < n; i++) {
		if (S->score[i] > top) {
			top = S->score[i];
			ntop = 0;
		}
		if (S->score[i] == top && ntop < 2)
			l[ntop] = i;
		ntop += S->score[i] == top;
	}
	if (ntop == 2 && !S->met[(size_t)l[0] * n + l[1]]) {
		T->leaders_cases++;
		for (int p = 0; p < out->npairs; p++)
			T->leaders_paired += (out->pairs[p].black == l[0] && out->pairs[p].white == l[1]) ||
					     (out->pairs[p].black == l[1] && out->pairs[p].white == l[0]);
	}
}

/* Play round r's draw: byes and games (with their results) into the event, colours and
 * meetings into the state; each player must appear once. Returns non-zero if not. */
static int sim_play(struct sim *S, int r, const struct pairing_out *out, bool seed_wins,
		    int *seen)
{
	struct event *ev = &S->ev;
	int n = S->n;
	for (int i = 0; i < n; i++)
		seen[i] = 0;
	for (int b = 0; b < out->nbyes; b++) {
		seen[out->byes[b]]++;
		ev->byes[ev->nbyes++] = (struct event_bye){ r, out->byes[b] };
	}
	for (int p = 0; p < out->npairs; p++) {
		const struct pairing_pair *q = &out->pairs[p];
		seen[q->black]++;
		seen[q->white]++;
		S->met[(size_t)q->black * n + q->white] = S->met[(size_t)q->white * n + q->black] = 1;
		if (q->handicap == 0) {
			S->wb[q->white]++;
			S->wb[q->black]--;
		}
		bool bw = black_wins(r, q->black, q->white, ev->players[q->black].rank,
				     ev->players[q->white].rank);
		if (seed_wins)
			bw = ev->players[q->black].seed < ev->players[q->white].seed;
		ev->games[ev->ngames++] = (struct event_game){
			.round = r, .black = q->black, .white = q->white,
			.handicap = q->handicap,
			.result = bw ? RESULT_BLACK_WIN : RESULT_WHITE_WIN };
	}
	for (int i = 0; i < n; i++)
		if (seen[i] != 1) {
			fprintf(stderr, "n=%d round %d: player %d paired %d times\n", n, r, i,
				seen[i]);
			return 1;
		}
	return 0;
}

/* Pair round r (timed) and add its quality, and the minimum's, to the totals. Returns
 * non-zero if the pairing fails. */
static int pair_round(struct sim *S, int r, bool quality, struct pairing_out *out,
		      double *dt, struct totals *T)
{
	struct event *ev = &S->ev;
	double t0 = now();
	int e = pairing_round(ev, r, out);
	*dt = now() - t0;
	if (e) {
		fprintf(stderr, "n=%d round %d: %s\n", S->n, r, pairing_strerror(e));
		return 1;
	}
	if (quality) { /* the minimum with the bye where it went (chosen before the pairing) */
		long d, c;
		if (pairmin_round_bye(ev, r, out->nbyes ? out->byes[0] : -1, &d, &c)) {
			T->min_ok = false;
		} else {
			T->diff_min += d;
			T->cross_min += c;
		}
	}
	T->time += *dt;
	if (*dt > T->worst)
		T->worst = *dt;
	T->rematches += out->quality.rematches;
	T->diff += out->quality.score_diff + out->quality.bye_score_diff;
	T->cross += out->quality.cross_group + (out->quality.bye_score_diff != 0);
	return 0;
}

static int run(int n, int rounds, enum event_system sys, bool seed_wins, bool quality,
	       bool print_rounds, struct totals *T)
{
	struct sim S;
	memset(&S, 0, sizeof S);
	memset(T, 0, sizeof *T);
	int e = sim_init(&S, n, rounds, sys, seed_wins);
	struct pairing_out *out = malloc(sizeof *out);
	int *seen = calloc((size_t)n, sizeof *seen);
	if (e || !out || !seen) {
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	T->min_ok = quality;
	const char *name = sys == SYSTEM_SWISS ? "swiss" : "mcmahon";
	for (int r = 1; r <= rounds; r++) {
		double dt;
		if (sim_scores(&S, r) || pair_round(&S, r, quality, out, &dt, T))
			return 1;
		if (r == rounds)
			count_leaders(&S, out, T);
		if (sim_play(&S, r, out, seed_wins, seen))
			return 1;
		S.ev.rounds_played = r;
		if (print_rounds)
			printf("  %-8s n=%-5d round %d: %8.3f s\n", name, n, r, dt);
	}
	for (int i = 0; i < n; i++)
		if (abs(S.wb[i]) > T->max_imbalance)
			T->max_imbalance = abs(S.wb[i]);
	sim_free(&S);
	free(out);
	free(seen);
	return 0;
}

static void print_totals(const char *name, int n, int rounds, const struct totals *T,
			 bool quality)
{
	printf("%-8s n=%-5d %d rounds: mean %.3f s/round, worst %.3f s, rematches %ld\n", name, n,
	       rounds, T->time / rounds, T->worst, T->rematches);
	if (!quality)
		return;
	printf("%-8s n=%-5d quality: score difference %.1f wins (minimum %s%.1f), cross-group "
	       "pairs %ld (minimum %s%ld), last-round leaders paired %d of %d, max |W-B| %d\n",
	       name, n, T->diff / 2.0, T->min_ok ? "" : "?", T->diff_min / 2.0, T->cross,
	       T->min_ok ? "" : "?", T->cross_min, T->leaders_paired, T->leaders_cases,
	       T->max_imbalance);
}

int main(int argc, char **argv)
{
	int max = EVENT_MAX_PLAYERS, rounds = BENCH_ROUNDS_DEFAULT;
	bool quality = true;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--max") && i + 1 < argc) {
			max = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--no-quality")) {
			quality = false;
		} else {
			fprintf(stderr, "usage: %s [--max N] [--rounds R] [--no-quality]\n", argv[0]);
			return 2;
		}
	}
	if (rounds < 1 || rounds > EVENT_MAX_ROUNDS) {
		fprintf(stderr, "rounds must be 1..%d\n", EVENT_MAX_ROUNDS);
		return 2;
	}
	struct totals T;
	/* 8 players, 3 rounds, the better seed always wins: 1 and 2 must meet in round 3 */
	if (run(8, 3, SYSTEM_SWISS, true, quality, false, &T))
		return 1;
	printf("swiss    n=8     3 rounds, better seed wins: leaders paired in round 3: %s; "
	       "score difference %.1f wins (minimum %.1f)\n", T.leaders_paired ? "yes" : "no",
	       T.diff / 2.0, T.diff_min / 2.0);
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		if (sizes[s] > max)
			continue;
		for (int sys = SYSTEM_SWISS; sys <= SYSTEM_MCMAHON; sys++) {
			if (run(sizes[s], rounds, (enum event_system)sys, false, quality, true, &T))
				return 1;
			print_totals(sys == SYSTEM_SWISS ? "swiss" : "mcmahon", sizes[s], rounds, &T,
				     quality);
			fflush(stdout);
		}
	}
	return 0;
}
