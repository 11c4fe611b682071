/* Unit tests for common/arena (擂台赛, Art. 26.6), common/bestof (best-of-N, Art. 26.5) and
 * common/elim (elimination after k losses, Art. 26.1, 26.4): an arena match played to the
 * end, a best-of-5 ending 3-1, drawn games replayed or halved, best-of matches reduced for a
 * knockout draw, a Swiss with elimination after 2 losses and knockouts after 1, 2 and 3
 * losses over random results. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "bestof.h"
#include "elim.h"
#include "pairing.h"
#include "standings.h"

/* ---- arena ---- */

START_TEST(test_arena_to_the_end)
{
	struct arena a;
	int p0, p1;
	bool t0b;

	ck_assert_int_eq(arena_init(&a, 3, 3, ARENA_DRAW_BOTH_OUT, true), ARENA_OK);
	/* game 1: first players, team 0 Black; team 0's player 0 wins */
	ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_OK);
	ck_assert(p0 == 0 && p1 == 0 && t0b);
	ck_assert_int_eq(arena_record(&a, RESULT_BLACK_WIN), ARENA_OK);
	/* game 2: 0 stays on against team 1's player 1, now White; team 1 (Black) wins */
	ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_OK);
	ck_assert(p0 == 0 && p1 == 1 && !t0b);
	ck_assert_int_eq(arena_record(&a, RESULT_BLACK_WIN), ARENA_OK);
	/* game 3: team 0's player 1 v team 1's player 1 (stays); a void game is replayed */
	ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_OK);
	ck_assert(p0 == 1 && p1 == 1 && t0b);
	ck_assert_int_eq(arena_record(&a, RESULT_VOID), ARENA_OK);
	ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_OK);
	ck_assert(p0 == 1 && p1 == 1 && !t0b);
	/* a draw: both out */
	ck_assert_int_eq(arena_record(&a, RESULT_DRAW), ARENA_OK);
	ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_OK);
	ck_assert(p0 == 2 && p1 == 2);
	ck_assert_int_eq(arena_record(&a, RESULT_NONE), ARENA_EPENDING);
	/* last players: team 0 wins by forfeit; team 1's players are all beaten */
	ck_assert_int_eq(arena_record(&a, t0b ? RESULT_BLACK_FORFEIT_WIN :
				      RESULT_WHITE_FORFEIT_WIN), ARENA_OK);
	ck_assert_int_eq(a.winner, 0);
	ck_assert_int_eq(a.games, 5);
	ck_assert_int_eq(a.wins[0][0], 1);
	ck_assert_int_eq(a.wins[1][1], 1);
	ck_assert_int_eq(a.wins[0][2], 1);
	ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_EOVER);
	ck_assert_int_eq(arena_record(&a, RESULT_BLACK_WIN), ARENA_EOVER);
}
END_TEST

START_TEST(test_arena_sweep_and_rules)
{
	struct arena a;
	int p0, p1;
	bool t0b;

	/* one player beats the whole other team (4 v 3: sizes need not be equal) */
	ck_assert_int_eq(arena_init(&a, 4, 3, ARENA_DRAW_REPLAY, false), ARENA_OK);
	for (int g = 0; g < 3; g++) {
		ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_OK);
		ck_assert_int_eq(p1, 0);
		ck_assert_int_eq(p0, g);
		ck_assert(t0b == (g % 2 == 1));
		ck_assert_int_eq(arena_record(&a, t0b ? RESULT_WHITE_WIN : RESULT_BLACK_WIN),
				ARENA_OK);
	}
	ck_assert_int_eq(a.winner, -1);
	/* a draw is replayed by the same players under DRAW_REPLAY */
	ck_assert_int_eq(arena_record(&a, RESULT_DRAW), ARENA_OK);
	ck_assert_int_eq(arena_next(&a, &p0, &p1, &t0b), ARENA_OK);
	ck_assert(p0 == 3 && p1 == 0);
	/* a double loss: both out; team 0 has no one left, team 1 has two: team 1 wins */
	ck_assert_int_eq(arena_record(&a, RESULT_DOUBLE_LOSS), ARENA_OK);
	ck_assert_int_eq(a.winner, 1);
	ck_assert_int_eq(a.wins[1][0], 3);
	/* both beaten at once: drawn */
	ck_assert_int_eq(arena_init(&a, 1, 1, ARENA_DRAW_BOTH_OUT, true), ARENA_OK);
	ck_assert_int_eq(arena_record(&a, RESULT_DRAW), ARENA_OK);
	ck_assert_int_eq(a.winner, 2);
	/* bad input */
	ck_assert_int_eq(arena_init(&a, 0, 3, ARENA_DRAW_BOTH_OUT, true), ARENA_EINVAL);
	ck_assert_int_eq(arena_init(&a, 3, ARENA_MAX_PLAYERS + 1, ARENA_DRAW_BOTH_OUT, true),
			ARENA_EINVAL);
	ck_assert_int_eq(arena_init(&a, 3, 3, (enum arena_draw)7, true), ARENA_EINVAL);
	/* replays are bounded */
	ck_assert_int_eq(arena_init(&a, 2, 2, ARENA_DRAW_REPLAY, true), ARENA_OK);
	for (int g = 0; g < ARENA_MAX_GAMES; g++)
		ck_assert_int_eq(arena_record(&a, RESULT_DRAW), ARENA_OK);
	ck_assert_int_eq(arena_record(&a, RESULT_DRAW), ARENA_ELIMIT);
	ck_assert_int_eq(a.games, ARENA_MAX_GAMES);
}
END_TEST

/* ---- best of N ---- */

START_TEST(test_best_of_5_ends_3_1)
{
	struct bestof m;

	ck_assert_int_eq(bestof_init(&m, 5, BESTOF_DRAW_REPLAY, true), BESTOF_OK);
	ck_assert(bestof_a_black_next(&m));
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_OK); /* a 1-0 */
	ck_assert(!bestof_a_black_next(&m));
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_OK); /* b 1-1 */
	ck_assert(bestof_a_black_next(&m));
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_OK); /* a 2-1 */
	ck_assert_int_eq(m.winner, -1);
	ck_assert_int_eq(bestof_record(&m, RESULT_WHITE_WIN), BESTOF_OK); /* a (White) 3-1 */
	ck_assert_int_eq(m.winner, 0);
	ck_assert_int_eq(m.games, 4);
	ck_assert_int_eq(m.score_a, 6);
	ck_assert_int_eq(m.score_b, 2);
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_EOVER);
	ck_assert_int_eq(m.games, 4);
}
END_TEST

START_TEST(test_best_of_draws)
{
	struct bestof m;

	/* replay: best of 3, a draw does not count; 2-0 after three games */
	ck_assert_int_eq(bestof_init(&m, 3, BESTOF_DRAW_REPLAY, false), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_WHITE_WIN), BESTOF_OK); /* a (White) */
	ck_assert_int_eq(bestof_record(&m, RESULT_DRAW), BESTOF_OK);
	ck_assert_int_eq(m.winner, -1);
	ck_assert(!bestof_a_black_next(&m)); /* colours keep alternating: game 3, a White */
	ck_assert_int_eq(bestof_record(&m, RESULT_WHITE_WIN), BESTOF_OK);
	ck_assert_int_eq(m.winner, 0);
	ck_assert_int_eq(m.counted, 2);
	/* half: best of 3, W D L = 1.5-1.5 after 3: sudden death, b wins game 4 */
	ck_assert_int_eq(bestof_init(&m, 3, BESTOF_DRAW_HALF, true), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_DRAW), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_WHITE_WIN), BESTOF_OK); /* b White... */
	ck_assert_int_eq(m.score_a, 3);
	ck_assert_int_eq(m.score_b, 3);
	ck_assert_int_eq(m.winner, -1);
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_OK); /* game 4: b Black */
	ck_assert_int_eq(m.winner, 1);
	/* half: best of 5, 2.5-1.5 after 4 games is not yet a majority (needs > 2.5) */
	ck_assert_int_eq(bestof_init(&m, 5, BESTOF_DRAW_HALF, true), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_OK);  /* a */
	ck_assert_int_eq(bestof_record(&m, RESULT_DRAW), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_WHITE_WIN), BESTOF_OK);  /* b */
	ck_assert_int_eq(bestof_record(&m, RESULT_WHITE_WIN), BESTOF_OK);  /* a */
	ck_assert_int_eq(m.winner, -1);
	ck_assert_int_eq(bestof_record(&m, RESULT_DRAW), BESTOF_OK);       /* 3-2: a leads */
	ck_assert_int_eq(m.winner, 0);
	/* limits and bad input */
	ck_assert_int_eq(bestof_init(&m, 4, BESTOF_DRAW_REPLAY, true), BESTOF_EINVAL);
	ck_assert_int_eq(bestof_init(&m, 9, BESTOF_DRAW_REPLAY, true), BESTOF_EINVAL);
	ck_assert_int_eq(bestof_init(&m, 7, BESTOF_DRAW_REPLAY, true), BESTOF_OK);
	for (int g = 0; g < 7 + BESTOF_MAX_EXTRA; g++)
		ck_assert_int_eq(bestof_record(&m, RESULT_DRAW), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_BLACK_WIN), BESTOF_ELIMIT);
	ck_assert_int_eq(bestof_record(&m, RESULT_NONE), BESTOF_ELIMIT);
	ck_assert_int_eq(bestof_init(&m, 7, BESTOF_DRAW_REPLAY, true), BESTOF_OK);
	ck_assert_int_eq(bestof_record(&m, RESULT_NONE), BESTOF_EPENDING);
	ck_assert_int_eq(bestof_record(&m, (enum event_result)99), BESTOF_EINVAL);
	ck_assert_int_eq(m.games, 0);
}
END_TEST

/* A knockout of 4 players where each pairing is a best-of-3: the round's games reduce to
 * one game a pair, which the knockout draw reads. */
START_TEST(test_best_of_knockout)
{
	struct event_player p[4];
	struct event_game g[16], red[16];
	struct event ev;
	struct pairing_out *out = calloc(1, sizeof *out);
	int n = 0, nred = -1;

	memset(p, 0, sizeof p);
	for (int i = 0; i < 4; i++)
		p[i].seed = i;
	memset(&ev, 0, sizeof ev);
	ev.system = SYSTEM_KNOCKOUT;
	ev.nplayers = 4;
	ev.players = p;
	ev.games = red;
	ck_assert_int_eq(pairing_round(&ev, 1, out), PAIRING_OK);
	ck_assert_int_eq(out->npairs, 2);
	/* pair 0: its White loses 2-1 (W, B wins alternate); pair 1: Black wins 2-0 */
	for (int k = 0; k < 2; k++) {
		int b = out->pairs[k].black, w = out->pairs[k].white;
		static const enum event_result r0[3] = { RESULT_WHITE_WIN, RESULT_WHITE_WIN,
			RESULT_BLACK_WIN };
		int games = k == 0 ? 3 : 2;
		for (int i = 0; i < games; i++) {
			bool first = i % 2 == 0;
			g[n] = (struct event_game){ .round = 1, .black = first ? b : w,
				.white = first ? w : b };
			g[n].result = k == 0 ? r0[i] : (first ? RESULT_BLACK_WIN : RESULT_WHITE_WIN);
			n++;
		}
	}
	/* pair 0: game 1 White (w) wins, game 2 White (b) wins, game 3 Black (b) wins: b 2-1 */
	struct event all = ev;
	all.games = g;
	all.ngames = n;
	ck_assert_int_eq(bestof_reduce(&all, 3, BESTOF_DRAW_REPLAY, red, &nred), BESTOF_OK);
	ck_assert_int_eq(nred, 2);
	ck_assert_int_eq(red[0].result, RESULT_BLACK_WIN);
	ck_assert_int_eq(red[0].black, out->pairs[0].black);
	ck_assert_int_eq(red[1].result, RESULT_BLACK_WIN);
	int w0 = out->pairs[0].black, w1 = out->pairs[1].black;
	ev.ngames = nred;
	ck_assert_int_eq(pairing_round(&ev, 2, out), PAIRING_OK);
	ck_assert_int_eq(out->npairs, 1);
	ck_assert_int_eq(out->pairs[0].black + out->pairs[0].white, w0 + w1);
	/* the final's first game played, the match undecided: reduced as pending */
	struct bestof m;
	g[n++] = (struct event_game){ .round = 2, .black = w0, .white = w1,
		.result = RESULT_BLACK_WIN };
	all.ngames = n;
	ck_assert_int_eq(bestof_replay(&all, 2, w1, w0, 3, BESTOF_DRAW_REPLAY, &m), BESTOF_OK);
	ck_assert_int_eq(m.winner, -1);
	ck_assert_int_eq(m.score_b, 2);
	ck_assert(bestof_a_black_next(&m)); /* w1 (a) has Black in game 2 */
	ck_assert_int_eq(bestof_reduce(&all, 3, BESTOF_DRAW_REPLAY, red, &nred), BESTOF_OK);
	ck_assert_int_eq(nred, 3);
	ck_assert_int_eq(red[2].result, RESULT_NONE);
	/* a match won by forfeits only (w1 won game 1 at the board, then withdrew: games 2 and
	 * 3 forfeited to w0): a forfeit win for w0, not a win at the board (the h9 wrote a
	 * played, rated win the EGD would rate) */
	struct event_game fg[3] = {
		{ .round = 2, .black = w0, .white = w1, .result = RESULT_WHITE_WIN },
		{ .round = 2, .black = w1, .white = w0, .result = RESULT_WHITE_FORFEIT_WIN },
		{ .round = 2, .black = w0, .white = w1, .result = RESULT_BLACK_FORFEIT_WIN } };
	struct event fe = all;
	fe.games = fg;
	fe.ngames = 3;
	ck_assert_int_eq(bestof_reduce(&fe, 3, BESTOF_DRAW_REPLAY, red, &nred), BESTOF_OK);
	ck_assert_int_eq(nred, 1);
	ck_assert_int_eq(red[0].result, RESULT_BLACK_FORFEIT_WIN); /* w0, game 1's Black */
	fg[2].result = RESULT_BLACK_WIN; /* game 3 at the board: a win */
	ck_assert_int_eq(bestof_reduce(&fe, 3, BESTOF_DRAW_REPLAY, red, &nred), BESTOF_OK);
	ck_assert_int_eq(red[0].result, RESULT_BLACK_WIN);
	/* game 2 with the wrong colours (w0 Black again) is refused */
	g[n++] = (struct event_game){ .round = 2, .black = w0, .white = w1,
		.result = RESULT_BLACK_WIN };
	all.ngames = n;
	ck_assert_int_eq(bestof_reduce(&all, 3, BESTOF_DRAW_REPLAY, red, &nred), BESTOF_EINVAL);
	free(out);
}
END_TEST

/* ---- elimination after k losses ---- */

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)((rng_state >> 33) % n);
}

struct sim {
	struct event_player p[40];
	struct event_game g[40 * 40];
	struct event_bye b[400];
	struct event ev;
};

static void sim_init(struct sim *s, int n, enum event_system sys, int rounds)
{
	memset(s, 0, sizeof *s);
	for (int i = 0; i < n; i++) {
		s->p[i].id = i;
		s->p[i].seed = i;
	}
	s->ev.system = sys;
	s->ev.nplayers = n;
	s->ev.players = s->p;
	s->ev.games = s->g;
	s->ev.byes = s->b;
	s->ev.rounds_planned = rounds;
	s->ev.bye_points = 2;
}

/* Plays the draw with random results (Black, White; with draws and double losses when
 * `odd` results are allowed). */
static void sim_play(struct sim *s, const struct pairing_out *out, bool odd)
{
	for (int i = 0; i < out->npairs; i++) {
		struct event_game *x = &s->g[s->ev.ngames++];
		unsigned r = rnd(odd ? 20 : 2);
		memset(x, 0, sizeof *x);
		x->round = out->round;
		x->black = out->pairs[i].black;
		x->white = out->pairs[i].white;
		x->result = r == 19 ? RESULT_DOUBLE_LOSS : r == 18 ? RESULT_DRAW :
			r % 2 ? RESULT_BLACK_WIN : RESULT_WHITE_WIN;
	}
	for (int i = 0; i < out->nbyes; i++)
		s->b[s->ev.nbyes++] = (struct event_bye){ out->round, out->byes[i] };
}

/* Swiss with elimination after 2 losses over random results: nobody with 2 losses is paired,
 * an eliminated player never comes back, the field is even once someone has lost (no bye),
 * every active player is paired (or has the bye of round 1), and the event runs until fewer
 * than two are left or the rounds are played. */
START_TEST(test_swiss_elimination_random)
{
	struct pairing_out *out = calloc(1, sizeof *out);
	int checked_odd = 0;

	for (int run = 0; run < 60; run++) {
		struct sim *s = calloc(1, sizeof *s);
		int n = 5 + run % 20, losses[40];
		bool active[40], out_for_good[40] = { false };
		int nactive;

		rng_state = 1000 + (uint64_t)run;
		sim_init(s, n, SYSTEM_SWISS, 12);
		int t;
		for (t = 1; t <= 12; t++) {
			ck_assert_int_eq(elim_swiss_field(&s->ev, 2, true, t, active, &nactive),
					PAIRING_OK);
			int r = elim_swiss_round(&s->ev, 2, true, t, out);
			if (r == PAIRING_EOVER) {
				ck_assert_int_lt(nactive, 2);
				break;
			}
			ck_assert_int_eq(r, PAIRING_OK);
			ck_assert_int_eq(elim_losses(&s->ev, t, losses), PAIRING_OK);
			int maxl = 0, k = 0, raw = 0;
			bool seen[40] = { false };
			for (int i = 0; i < n; i++) {
				if (losses[i] < 2)
					raw++;
				if (!active[i])
					continue;
				ck_assert(!out_for_good[i]);
				if (losses[i] > maxl)
					maxl = losses[i];
			}
			for (int i = 0; i < out->npairs; i++) {
				int b = out->pairs[i].black, w = out->pairs[i].white;
				ck_assert(!seen[b] && !seen[w]);
				seen[b] = seen[w] = true;
				ck_assert_int_lt(losses[b], 2);
				ck_assert_int_lt(losses[w], 2);
				ck_assert(active[b] && active[w]);
				k += 2;
			}
			for (int i = 0; i < out->nbyes; i++) {
				ck_assert(active[out->byes[i]] && !seen[out->byes[i]]);
				seen[out->byes[i]] = true;
				k++;
			}
			ck_assert_int_eq(k, nactive);
			if (maxl > 0) {
				ck_assert_int_eq(nactive % 2, 0);
				ck_assert_int_eq(out->nbyes, 0);
				if (raw % 2)
					checked_odd++; /* a player dropped to keep it even */
			}
			for (int i = 0; i < n; i++)
				if (!active[i])
					out_for_good[i] = true;
			sim_play(s, out, true);
		}
		free(s);
	}
	ck_assert_int_gt(checked_odd, 0);
	free(out);
}
END_TEST

/* Knockout after k losses (k = 1, 2, 3) over random decisive results: nobody with k losses
 * is paired, loss groups of even size are paired inside themselves, it ends with one player
 * and k(n-1) + (the winner's losses) games; single elimination takes ceil(log2 n) rounds. */
START_TEST(test_knockout_k_losses_random)
{
	struct pairing_out *out = calloc(1, sizeof *out);

	for (int run = 0; run < 90; run++) {
		struct sim *s = calloc(1, sizeof *s);
		int k = 1 + run % 3, n = 2 + run % 17, losses[40], rounds = 0;

		rng_state = 77 + (uint64_t)run;
		sim_init(s, n, SYSTEM_KNOCKOUT, 0);
		for (int t = 1; t <= EVENT_MAX_ROUNDS; t++) {
			int r = elim_knockout_round(&s->ev, k, t, out);
			ck_assert_int_eq(elim_losses(&s->ev, t, losses), PAIRING_OK);
			int left = 0, size[ELIM_MAX_LOSSES + 1] = { 0 };
			for (int i = 0; i < n; i++)
				if (losses[i] < k) {
					left++;
					size[losses[i]]++;
				}
			if (r == PAIRING_EOVER) {
				ck_assert_int_eq(left, 1);
				break;
			}
			ck_assert_int_eq(r, PAIRING_OK);
			bool all_even = left % 2 == 0;
			for (int l = 0; l < k; l++)
				all_even = all_even && size[l] % 2 == 0;
			int seen = 0;
			for (int i = 0; i < out->npairs; i++) {
				int b = out->pairs[i].black, w = out->pairs[i].white;
				ck_assert_int_lt(losses[b], k);
				ck_assert_int_lt(losses[w], k);
				if (all_even)
					ck_assert_int_eq(losses[b], losses[w]);
				seen += 2;
			}
			ck_assert_int_eq(out->nbyes, left % 2);
			ck_assert_int_eq(seen + out->nbyes, left);
			sim_play(s, out, false);
			rounds++;
		}
		int winner_losses = -1;
		for (int i = 0; i < n; i++)
			if (losses[i] < k)
				winner_losses = losses[i];
		ck_assert_int_ge(winner_losses, 0);
		ck_assert_int_eq(s->ev.ngames, k * (n - 1) + winner_losses);
		/* the standings' KO score: the one left first, alone (out at the k-th loss) */
		struct standing rows[40];
		s->ev.elimination_losses = k;
		s->ev.rounds_played = rounds;
		const char *const tb[1] = { "SEED" };
		ck_assert_int_eq(standings_compute(&s->ev, 0, tb, 1, rows), n);
		ck_assert_int_lt(losses[rows[0].player], k);
		ck_assert_int_eq(rows[0].place, 1);
		ck_assert_int_eq(rows[1].place, 2);
		ck_assert(rows[0].score > rows[1].score);
		if (k == 1) {
			int lg = 0;
			while ((1 << lg) < n)
				lg++;
			ck_assert_int_eq(rounds, lg);
		}
		free(s);
	}
	free(out);
}
END_TEST

START_TEST(test_elimination_rules)
{
	struct sim *s = calloc(1, sizeof *s);
	struct pairing_out *out = calloc(1, sizeof *out);

	/* a knockout game needs a decisive result: a draw holds the next round until replayed */
	sim_init(s, 4, SYSTEM_KNOCKOUT, 0);
	ck_assert_int_eq(elim_knockout_round(&s->ev, 2, 1, out), PAIRING_OK);
	ck_assert_int_eq(out->npairs, 2);
	/* seeds 0 v 3 and 1 v 2 (fold), the better seed White on board 1, Black on board 2 */
	ck_assert_int_eq(out->pairs[0].white, 0);
	ck_assert_int_eq(out->pairs[0].black, 3);
	ck_assert_int_eq(out->pairs[1].black, 1);
	ck_assert_int_eq(out->pairs[1].white, 2);
	s->g[0] = (struct event_game){ .round = 1, .black = 3, .white = 0,
		.result = RESULT_WHITE_WIN };
	s->g[1] = (struct event_game){ .round = 1, .black = 1, .white = 2,
		.result = RESULT_DRAW };
	s->ev.ngames = 2;
	ck_assert_int_eq(elim_knockout_round(&s->ev, 2, 2, out), PAIRING_EPENDING);
	s->g[2] = (struct event_game){ .round = 1, .black = 2, .white = 1,
		.result = RESULT_BLACK_WIN };
	s->ev.ngames = 3;
	ck_assert_int_eq(elim_knockout_round(&s->ev, 2, 2, out), PAIRING_OK);
	/* winners 0 and 2 meet, losers 3 and 1 meet */
	ck_assert_int_eq(out->npairs, 2);
	ck_assert_int_eq(out->pairs[0].black + out->pairs[0].white, 2);
	ck_assert_int_eq(out->pairs[0].bracket, PAIRING_BRACKET_MAIN);
	ck_assert_int_eq(out->pairs[1].black + out->pairs[1].white, 4);
	ck_assert_int_eq(out->pairs[1].bracket, PAIRING_BRACKET_LOSERS);
	/* colours: 0 had White (balance +1), 2 White in the draw and Black in the replay
	 * (balance 0): 2 takes White */
	ck_assert_int_eq(out->pairs[0].white, 2);
	/* a withdrawn player is not paired */
	s->p[3].withdrawn_after = 1;
	ck_assert_int_eq(elim_knockout_round(&s->ev, 2, 2, out), PAIRING_OK);
	ck_assert_int_eq(out->npairs, 1);
	ck_assert_int_eq(out->nbyes, 1);
	ck_assert_int_eq(out->byes[0], 1); /* one loss, but the only one left in its group */
	/* bad input */
	ck_assert_int_eq(elim_knockout_round(&s->ev, 0, 2, out), PAIRING_EINVAL);
	ck_assert_int_eq(elim_knockout_round(&s->ev, ELIM_MAX_LOSSES + 1, 2, out),
			PAIRING_EINVAL);
	ck_assert_int_eq(elim_swiss_round(&s->ev, 2, true, 2, out), PAIRING_EINVAL); /* KO */
	s->g[0].black = 9;
	ck_assert_int_eq(elim_knockout_round(&s->ev, 2, 2, out), PAIRING_EINVAL);
	free(out);
	free(s);
}
END_TEST

static Suite *forms_suite(void)
{
	Suite *s = suite_create("match_forms");
	TCase *a = tcase_create("arena");
	TCase *b = tcase_create("bestof");
	TCase *e = tcase_create("elimination");

	tcase_add_test(a, test_arena_to_the_end);
	tcase_add_test(a, test_arena_sweep_and_rules);
	suite_add_tcase(s, a);
	tcase_add_test(b, test_best_of_5_ends_3_1);
	tcase_add_test(b, test_best_of_draws);
	tcase_add_test(b, test_best_of_knockout);
	suite_add_tcase(s, b);
	tcase_set_timeout(e, 60);
	tcase_add_test(e, test_swiss_elimination_random);
	tcase_add_test(e, test_knockout_k_losses_random);
	tcase_add_test(e, test_elimination_rules);
	suite_add_tcase(s, e);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(forms_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
