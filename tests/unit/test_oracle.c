/* test_oracle: the rules engine (common/board, common/score) against GNU Go as an oracle.
 *
 * a. Random games on 5x5, 9x9 and 19x19 under each ko rule, played through both our board and
 *    GNU Go (--chinese-rules, plus --positional-superko / --situational-superko for our
 *    KO_POSITIONAL / KO_SITUATIONAL; --chinese-rules alone is simple ko). After every move:
 *    the stones of both colours, both capture counts, and the legal moves of the side to move
 *    (of both sides every ORACLE_BOTH_EVERY moves) must agree.
 * b. GNU Go self-play games (--level 0, two engines at once), counted by area: GNU Go's dead
 *    stones are marked dead in ours and our margin must equal GNU Go's final_score, except
 *    where GNU Go knowingly counts otherwise (see regions_vs_gnugo): it gives nobody the eyes
 *    of groups in seki (we give them to their owner: the margin is corrected for that), and
 *    when the game stopped with open boundaries it counts its own estimate (such games are
 *    skipped as unfinished). Resigned games are skipped.
 * c. fixed_handicap placements (as sets) and which (size, n) GNU Go accepts, 2x2..19x19
 *    (7x7 and 12x12, where GNU Go departs from GTP, are only reported).
 *
 * GNU Go comes from the configure-time macro GNUGO_PATH; without it the test is skipped (77).
 * The PRNG seed is printed; set TENGEN_ORACLE_SEED to replay a run.
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "board.h"
#include "gtp_pipe.h"
#include "score.h"
#include "vertex.h"

#ifndef GNUGO_PATH
#define GNUGO_PATH ""
#endif

#define ORACLE_DEFAULT_SEED 20240611u
#define ORACLE_MAX_MOVES 440      /* GNU Go keeps 500 moves of history, then collapses it */
#define ORACLE_PASS_ONE_IN 20     /* a random move is a pass with probability 1/20 */
#define ORACLE_BOTH_EVERY 4       /* legal moves of both colours every 4th move */
#define ORACLE_LOG_MAX (ORACLE_MAX_MOVES * 8 + 64)
#define ORACLE_TIMEOUT_S 100      /* per test case; the whole program stays well under */
#define SCORE_MAX_MOVES 400       /* a self-play game longer than this is abandoned */
#define SCORE_KOMI 7.5
#define SCORE_OPENING_MAX 4       /* random opening moves before self-play, for variety */
#define GNUGO_MAX_SIZE 19         /* GNU Go's largest board */
#define RESP_MAX GTP_PIPE_RESP_MAX

/* Per-(ko rule) plan of random games: games per board size. */
struct plan {
	int size, games;
};
static const struct plan random_plan[] = {{5, 40}, {9, 20}, {19, 8}};
#define SCORE_ENGINES 2        /* self-play games run two at a time */
#define SCORE_LEVEL "0"        /* GNU Go's --level for self-play */
#define SCORE_TARGET 32        /* stop starting games once this many are scored */
#define SCORE_GAMES_MAX 64     /* and never start more than this many */
#define SCORE_MIN_FINISHED 30  /* fewer scored games fail the test */
#define SCORE_SIZE(i) ((i) % 6 == 5 ? 7 : 9) /* mostly 9x9, every sixth game 7x7 */

/* Totals, shared with the forked test processes so main can print a summary. */
struct totals {
	long games, moves, passes, positions, legal_points, legal_lists;
	long ko_banned, superko_banned, suicide_banned, captured;
	long selfplay, scored, resigned, abandoned, unfinished, dead_marked;
	long seki_games, seki_eye_games, seki_eye_points;
	long handicap_pairs, handicap_placements;
};
static struct totals *T;
static uint64_t seed;

/* ---- PRNG: splitmix64 ---- */

static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int rnd_below(uint64_t *s, int n) { return (int)(rnd(s) % (uint64_t)n); }

/* ---- helpers ---- */

static const char *ko_name(enum ko_rule ko)
{
	return ko == KO_SITUATIONAL ? "situational" : ko == KO_POSITIONAL ? "positional" : "simple";
}

static const char *color_name(enum color c) { return c == BLACK ? "black" : "white"; }

static void engine_open(struct gtp_pipe *g, enum ko_rule ko, const char *level)
{
	char *argv[10];
	int n = 0;
	argv[n++] = (char *)GNUGO_PATH;
	argv[n++] = (char *)"--mode";
	argv[n++] = (char *)"gtp";
	argv[n++] = (char *)"--chinese-rules";
	if (ko == KO_POSITIONAL)
		argv[n++] = (char *)"--positional-superko";
	else if (ko == KO_SITUATIONAL)
		argv[n++] = (char *)"--situational-superko";
	if (level) {
		argv[n++] = (char *)"--level";
		argv[n++] = (char *)level;
	}
	argv[n] = NULL;
	ck_assert_msg(gtp_pipe_open(g, argv) == 0, "cannot start %s: %s", GNUGO_PATH, strerror(errno));
	char resp[RESP_MAX];
	ck_assert_msg(gtp_pipe_cmd(g, resp, sizeof resp, "protocol_version") == 1 && strcmp(resp, "2") == 0,
		      "%s does not speak GTP 2", GNUGO_PATH);
}

static void cmd_ok(struct gtp_pipe *g, char *resp, const char *what)
{
	int r = gtp_pipe_recv(g, resp, RESP_MAX);
	ck_assert_msg(r == 1, "GNU Go: %s failed (%d): %s", what, r, resp);
}

/* Parse a GTP vertex list into flags per point. Returns the count, or -1 on a bad vertex. */
static int parse_vertices(const struct board *b, const char *s, bool *set)
{
	char tok[VERTEX_MAX_LEN + 8];
	int n = 0;
	memset(set, 0, BOARD_POINTS_MAX * sizeof *set);
	while (*s) {
		while (*s == ' ' || *s == '\n' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t k = 0;
		while (s[k] && s[k] != ' ' && s[k] != '\n' && s[k] != '\t')
			k++;
		if (k >= sizeof tok)
			return -1;
		memcpy(tok, s, k);
		tok[k] = '\0';
		s += k;
		int pt = vertex_parse(b, tok);
		if (pt <= 0 || set[pt])
			return -1;
		set[pt] = true;
		n++;
	}
	return n;
}

/* ---- a. random games ---- */

struct game {
	struct gtp_pipe *g;
	struct board b;
	int size, number;
	enum ko_rule ko;
	char log[ORACLE_LOG_MAX];
	size_t loglen;
};

static void log_move(struct game *gm, enum color c, int pt)
{
	char v[VERTEX_MAX_LEN];
	int n = snprintf(gm->log + gm->loglen, sizeof gm->log - gm->loglen, "%s%c %s",
			 gm->loglen ? " " : "", c == BLACK ? 'B' : 'W', vertex_format(&gm->b, pt, v));
	if (n > 0 && (size_t)n < sizeof gm->log - gm->loglen)
		gm->loglen += (size_t)n;
}

/* Print everything needed to reproduce a disagreement, then fail. */
static void game_fail(struct game *gm, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void game_fail(struct game *gm, const char *fmt, ...)
{
	char why[512], diag[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1], resp[RESP_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	board_diagram(&gm->b, diag);
	if (gtp_pipe_cmd(gm->g, resp, sizeof resp, "showboard") != 1)
		snprintf(resp, sizeof resp, "(showboard failed)");
	fprintf(stderr,
		"oracle MISMATCH: seed %" PRIu64 ", %dx%d ko=%s game %d after move %zu: %s\n"
		"moves: %s\nours (X black, O white, %s to move):\n%sGNU Go:%s\n",
		seed, gm->size, gm->size, ko_name(gm->ko), gm->number, board_moves(&gm->b), why, gm->log,
		color_name(gm->b.to_move), diag, resp);
	ck_abort_msg("seed %" PRIu64 ", %dx%d ko=%s game %d move %zu: %s", seed, gm->size, gm->size,
		     ko_name(gm->ko), gm->number, board_moves(&gm->b), why);
}

/* Our legal points for c (board_check on every empty point); tallies why the others fail. */
static int our_legal(struct game *gm, enum color c, bool *legal, int *list)
{
	int n = 0;
	memset(legal, 0, BOARD_POINTS_MAX * sizeof *legal);
	for (int y = 0; y < gm->size; y++)
		for (int x = 0; x < gm->size; x++) {
			int pt = board_pt(&gm->b, x, y);
			if (board_at(&gm->b, pt) != EMPTY)
				continue;
			enum board_status st = board_check(&gm->b, c, pt);
			if (st == BOARD_OK) {
				legal[pt] = true;
				if (list)
					list[n] = pt;
				n++;
			} else if (st == BOARD_KO) {
				T->ko_banned++;
			} else if (st == BOARD_SUPERKO) {
				T->superko_banned++;
			} else if (st == BOARD_SUICIDE) {
				T->suicide_banned++;
			} else {
				game_fail(gm, "board_check(%s, empty point) returned %d", color_name(c), st);
			}
		}
	return n;
}

static void compare_sets(struct game *gm, const char *what, const bool *ours, const bool *theirs)
{
	char v[VERTEX_MAX_LEN];
	for (int y = 0; y < gm->size; y++)
		for (int x = 0; x < gm->size; x++) {
			int pt = board_pt(&gm->b, x, y);
			if (ours[pt] != theirs[pt])
				game_fail(gm, "%s: %s is %s for us, %s for GNU Go", what,
					  vertex_format(&gm->b, pt, v), ours[pt] ? "in" : "out",
					  theirs[pt] ? "in" : "out");
		}
}

static void compare_legal_resp(struct game *gm, enum color c, const char *resp)
{
	bool ours[BOARD_POINTS_MAX], theirs[BOARD_POINTS_MAX];
	char what[32];
	our_legal(gm, c, ours, NULL);
	if (parse_vertices(&gm->b, resp, theirs) < 0)
		game_fail(gm, "cannot parse GNU Go's all_legal %s: %s", color_name(c), resp);
	snprintf(what, sizeof what, "legal moves of %s", color_name(c));
	compare_sets(gm, what, ours, theirs);
	T->legal_lists++;
	T->legal_points += gm->size * gm->size;
}

/* Read the responses to: list_stones black, list_stones white, captures black, captures white,
 * all_legal <to move> [, all_legal <other>] and compare each. */
static void compare_batch(struct game *gm, bool both)
{
	char resp[RESP_MAX];
	static const enum color colors[2] = {BLACK, WHITE};
	for (int i = 0; i < 2; i++) {
		enum color c = colors[i];
		bool ours[BOARD_POINTS_MAX], theirs[BOARD_POINTS_MAX];
		cmd_ok(gm->g, resp, "list_stones");
		for (int p = 0; p < BOARD_POINTS_MAX; p++)
			ours[p] = p < gm->b.stride * gm->b.stride && board_at(&gm->b, p) == c;
		if (parse_vertices(&gm->b, resp, theirs) < 0)
			game_fail(gm, "cannot parse GNU Go's list_stones %s: %s", color_name(c), resp);
		compare_sets(gm, c == BLACK ? "black stones" : "white stones", ours, theirs);
	}
	for (int i = 0; i < 2; i++) {
		enum color c = colors[i];
		cmd_ok(gm->g, resp, "captures");
		char *end;
		long n = strtol(resp, &end, 10);
		if (end == resp || *end)
			game_fail(gm, "cannot parse GNU Go's captures %s: %s", color_name(c), resp);
		if (n != gm->b.captures[c])
			game_fail(gm, "captures by %s: ours %d, GNU Go %ld", color_name(c), gm->b.captures[c], n);
	}
	cmd_ok(gm->g, resp, "all_legal");
	compare_legal_resp(gm, gm->b.to_move, resp);
	if (both) {
		cmd_ok(gm->g, resp, "all_legal");
		compare_legal_resp(gm, color_other(gm->b.to_move), resp);
	}
	if (!board_selfcheck(&gm->b))
		game_fail(gm, "board_selfcheck failed");
	T->positions++;
}

#define BATCH_SIZE(both) ((both) ? 6 : 5) /* commands sent by send_batch */
static void send_batch(struct game *gm, bool both)
{
	struct gtp_pipe *g = gm->g;
	int r = gtp_pipe_send(g, "list_stones black");
	r |= gtp_pipe_send(g, "list_stones white");
	r |= gtp_pipe_send(g, "captures black");
	r |= gtp_pipe_send(g, "captures white");
	r |= gtp_pipe_send(g, "all_legal %s", color_name(gm->b.to_move));
	if (both)
		r |= gtp_pipe_send(g, "all_legal %s", color_name(color_other(gm->b.to_move)));
	ck_assert_msg(r == 0, "GNU Go: write failed");
}

static void random_game(struct gtp_pipe *g, int size, enum ko_rule ko, int number, uint64_t *rng)
{
	static struct game gm; /* large: keep it off the stack */
	char resp[RESP_MAX];
	memset(&gm, 0, sizeof gm);
	gm.g = g;
	gm.size = size;
	gm.ko = ko;
	gm.number = number;
	ck_assert_int_eq(board_init(&gm.b, size, ko), 0);
	ck_assert_msg(gtp_pipe_cmd(g, resp, sizeof resp, "boardsize %d", size) == 1, "boardsize %d: %s", size, resp);
	ck_assert_msg(gtp_pipe_cmd(g, resp, sizeof resp, "clear_board") == 1, "clear_board: %s", resp);
	send_batch(&gm, true);
	compare_batch(&gm, true);
	int list[BOARD_POINTS_MAX];
	bool legal[BOARD_POINTS_MAX];
	while (board_moves(&gm.b) < ORACLE_MAX_MOVES && gm.b.passes < 2) {
		enum color c = gm.b.to_move;
		int n = our_legal(&gm, c, legal, list);
		int pt = n == 0 || rnd_below(rng, ORACLE_PASS_ONE_IN) == 0 ? BOARD_PASS : list[rnd_below(rng, n)];
		char v[VERTEX_MAX_LEN];
		int ncap = 0;
		log_move(&gm, c, pt);
		vertex_format(&gm.b, pt, v);
		enum board_status st = board_play(&gm.b, c, pt, NULL, &ncap);
		if (st != BOARD_OK)
			game_fail(&gm, "board_play(%s %s) = %d after board_check said legal", color_name(c), v, st);
		/* The move and the questions about its result go in one write. */
		bool both = board_moves(&gm.b) % ORACLE_BOTH_EVERY == 0;
		ck_assert_msg(gtp_pipe_send(g, "play %s %s", color_name(c), v) == 0, "GNU Go: write failed");
		send_batch(&gm, both);
		if (gtp_pipe_recv(g, resp, sizeof resp) != 1) {
			char why[RESP_MAX];
			snprintf(why, sizeof why, "%s", resp);
			for (int i = 0; i < BATCH_SIZE(both); i++)
				gtp_pipe_recv(g, resp, sizeof resp);
			game_fail(&gm, "GNU Go refuses play %s %s: %s", color_name(c), v, why);
		}
		T->moves++;
		T->passes += pt == BOARD_PASS;
		T->captured += ncap;
		compare_batch(&gm, both);
	}
	T->games++;
	board_free(&gm.b);
}

static void random_games(enum ko_rule ko)
{
	struct gtp_pipe g;
	uint64_t rng = seed ^ (0x1000u * (unsigned)(ko + 1));
	long games0 = T->games, moves0 = T->moves, sk0 = T->superko_banned, ko0 = T->ko_banned;
	engine_open(&g, ko, NULL);
	int number = 0;
	for (size_t i = 0; i < sizeof random_plan / sizeof random_plan[0]; i++)
		for (int k = 0; k < random_plan[i].games; k++)
			random_game(&g, random_plan[i].size, ko, number++, &rng);
	gtp_pipe_close(&g);
	printf("oracle: ko=%s: %ld random games, %ld moves; banned points seen: %ld ko, %ld superko\n",
	       ko_name(ko), T->games - games0, T->moves - moves0, T->ko_banned - ko0, T->superko_banned - sk0);
	fflush(stdout);
	if (ko == KO_SIMPLE)
		ck_assert_msg(T->ko_banned - ko0 > 0, "no ko retake was ever banned: the games test too little");
	else
		ck_assert_msg(T->superko_banned - sk0 > 0, "no superko ban was ever seen: the games test too little");
}

START_TEST(test_random_simple) { random_games(KO_SIMPLE); }
END_TEST
START_TEST(test_random_positional) { random_games(KO_POSITIONAL); }
END_TEST
START_TEST(test_random_situational) { random_games(KO_SITUATIONAL); }
END_TEST

/* ---- b. scoring ---- */

/* Parse GNU Go's final_score ("B+3.5", "W+0.5", "0") into Black's margin. */
static bool parse_result(const char *s, double *margin)
{
	char *end;
	if (strcmp(s, "0") == 0) {
		*margin = 0;
		return true;
	}
	if ((s[0] != 'B' && s[0] != 'W') || s[1] != '+')
		return false;
	double m = strtod(s + 2, &end);
	if (end == s + 2 || *end)
		return false;
	*margin = s[0] == 'B' ? m : -m;
	return true;
}

struct sgame {
	struct gtp_pipe *g;
	struct board b;
	int number;
	char log[SCORE_MAX_MOVES * 8 + 64];
	size_t loglen;
	bool over; /* resigned or abandoned: not counted */
};

static void sgame_fail(struct sgame *sg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sgame_fail(struct sgame *sg, const char *fmt, ...)
{
	char why[1024], diag[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1], resp[RESP_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	board_diagram(&sg->b, diag);
	if (gtp_pipe_cmd(sg->g, resp, sizeof resp, "showboard") != 1)
		snprintf(resp, sizeof resp, "(showboard failed)");
	fprintf(stderr, "oracle SCORE MISMATCH: seed %" PRIu64 ", %dx%d self-play game %d: %s\nmoves: %s\n"
		"ours:\n%sGNU Go:%s\n", seed, sg->b.size, sg->b.size, sg->number, why, sg->log, diag, resp);
	ck_abort_msg("seed %" PRIu64 ", self-play game %d: %s", seed, sg->number, why);
}

static void sgame_play(struct sgame *sg, enum color c, int pt)
{
	char v[VERTEX_MAX_LEN];
	vertex_format(&sg->b, pt, v);
	int n = snprintf(sg->log + sg->loglen, sizeof sg->log - sg->loglen, "%s%c %s",
			 sg->loglen ? " " : "", c == BLACK ? 'B' : 'W', v);
	if (n > 0 && (size_t)n < sizeof sg->log - sg->loglen)
		sg->loglen += (size_t)n;
	enum board_status st = board_play(&sg->b, c, pt, NULL, NULL);
	if (st != BOARD_OK)
		sgame_fail(sg, "GNU Go's move %s %s is illegal for us (%d)", color_name(c), v, st);
}

/* Where GNU Go's count may rightly differ from ours, found region by region (a region: a maximal
 * connected set of empty points and dead stones):
 * - GNU Go (aftermath_compute_score) gives nobody the eyes of groups in seki; we (docs/rules.md §1,
 *   Art. 9) give a region surrounded by one colour's living stones to that colour, seki or not.
 *   *seki_margin gets the margin our count takes from such regions (+ Black's, - White's, one
 *   point per point; a region counts if one of its bordering stones is in seki).
 * - A region bordered by both colours is shared for us, but GNU Go, when the game stopped with
 *   boundaries open, calls parts of it territory (it plays the position out in its head).
 *   Returns the number of such points GNU Go calls territory: the game is not finished. */
static int regions_vs_gnugo(const struct board *b, const bool *dead, const bool *in_seki,
			    const bool *gg_territory, int *seki_margin)
{
	bool seen[BOARD_POINTS_MAX] = {false};
	int stack[BOARD_POINTS_MAX], region[BOARD_POINTS_MAX], open_territory = 0;
	*seki_margin = 0;
	for (int p = 0; p < b->stride * b->stride; p++) {
		bool open = board_at(b, p) == EMPTY || (board_at(b, p) != BORDER && dead[p]);
		if (!open || seen[p])
			continue;
		int sp = 0, size = 0;
		bool black = false, white = false, seki = false;
		stack[sp++] = p;
		seen[p] = true;
		while (sp > 0) {
			int q = stack[--sp];
			region[size++] = q;
			const int nbs[4] = {q - 1, q + 1, q - b->stride, q + b->stride};
			for (int k = 0; k < 4; k++) {
				int n = nbs[k];
				enum color c = board_at(b, n);
				if (c == BORDER)
					continue;
				if (c == EMPTY || dead[n]) {
					if (!seen[n]) {
						seen[n] = true;
						stack[sp++] = n;
					}
				} else {
					black |= c == BLACK;
					white |= c == WHITE;
					seki |= in_seki[n];
				}
			}
		}
		if (seki && black != white)
			*seki_margin += black ? size : -size;
		if (black && white)
			for (int i = 0; i < size; i++)
				open_territory += gg_territory[region[i]];
	}
	return open_territory;
}

/* Set up self-play game `number` on engine g: board, komi, GNU Go's random seed, and a few random
 * opening moves so that the games differ. */
static void selfplay_start(struct sgame *sg, struct gtp_pipe *g, int size, int number, uint64_t *rng)
{
	char resp[RESP_MAX];
	memset(sg, 0, sizeof *sg);
	sg->g = g;
	sg->number = number;
	ck_assert_int_eq(board_init(&sg->b, size, KO_SITUATIONAL), 0);
	int r = gtp_pipe_cmd(g, resp, sizeof resp, "boardsize %d", size);
	r &= gtp_pipe_cmd(g, resp, sizeof resp, "clear_board");
	r &= gtp_pipe_cmd(g, resp, sizeof resp, "komi %.1f", SCORE_KOMI);
	r &= gtp_pipe_cmd(g, resp, sizeof resp, "set_random_seed %d", (int)(rnd(rng) & 0x7fffffff));
	ck_assert_msg(r == 1, "GNU Go set-up failed: %s", resp);
	int opening = rnd_below(rng, SCORE_OPENING_MAX + 1);
	for (int i = 0; i < opening; i++) {
		enum color c = sg->b.to_move;
		int pt;
		do
			pt = board_pt(&sg->b, rnd_below(rng, size), rnd_below(rng, size));
		while (board_check(&sg->b, c, pt) != BOARD_OK);
		sgame_play(sg, c, pt);
		char v[VERTEX_MAX_LEN];
		if (gtp_pipe_cmd(g, resp, sizeof resp, "play %s %s", color_name(c), vertex_format(&sg->b, pt, v)) != 1)
			sgame_fail(sg, "GNU Go refuses play %s %s: %s", color_name(c), v, resp);
	}
	T->selfplay++;
}

/* Ask for the next move of a game in play. */
static void selfplay_ask(struct sgame *sg)
{
	ck_assert_msg(gtp_pipe_send(sg->g, "genmove %s", color_name(sg->b.to_move)) == 0, "GNU Go: write failed");
}

/* Read and play the move asked for. Returns true while the game goes on; false when it has
 * ended (two passes: ready to count) or was given up (sg->over set). */
static bool selfplay_answer(struct sgame *sg)
{
	char resp[RESP_MAX];
	enum color c = sg->b.to_move;
	if (gtp_pipe_recv(sg->g, resp, sizeof resp) != 1)
		sgame_fail(sg, "genmove %s failed: %s", color_name(c), resp);
	if (strcasecmp(resp, "resign") == 0) {
		T->resigned++;
		sg->over = true;
		return false;
	}
	int pt = vertex_parse(&sg->b, resp);
	if (pt < 0)
		sgame_fail(sg, "cannot parse GNU Go's move %s", resp);
	sgame_play(sg, c, pt);
	if (sg->b.passes >= 2)
		return false;
	if (board_moves(&sg->b) >= SCORE_MAX_MOVES) {
		T->abandoned++;
		sg->over = true;
		return false;
	}
	return true;
}

/* Count a game that ended with two passes and compare with GNU Go. Returns 1 if scored, 0 if
 * GNU Go's count is not a count of a finished game (see regions_vs_gnugo). */
static int selfplay_count(struct sgame *sg)
{
	struct gtp_pipe *g = sg->g;
	int number = sg->number;
	char resp[RESP_MAX];
/* Dead stones as GNU Go sees them, marked in ours. */
	static char deadlist[RESP_MAX], seki[RESP_MAX];
	bool set[BOARD_POINTS_MAX], dead[BOARD_POINTS_MAX];
	int pts[BOARD_POINTS_MAX], n = 0;
	if (gtp_pipe_cmd(g, deadlist, sizeof deadlist, "final_status_list dead") != 1 ||
	    parse_vertices(&sg->b, deadlist, set) < 0)
		sgame_fail(sg, "final_status_list dead: %s", deadlist);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		if (set[p])
			pts[n++] = p;
	int bad = score_mark_dead(&sg->b, pts, n, dead);
	if (bad != 0)
		sgame_fail(sg, "score_mark_dead refuses GNU Go's dead stone #%d (%s)", bad, deadlist);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		if (dead[p] != set[p])
			sgame_fail(sg, "score_mark_dead marks point %d %s, GNU Go's list (%s) does not", p,
				   dead[p] ? "dead" : "alive", deadlist);
	T->dead_marked += n;
	if (gtp_pipe_cmd(g, seki, sizeof seki, "final_status_list seki") == 1 && seki[0])
		T->seki_games++;
	static const int no_warnings[3] = {0, 0, 0};
	struct score s;
	score_area(&sg->b, dead, SCORE_KOMI, 0, no_warnings, &s);
	double ours = score_margin(&s), theirs;
	bool in_seki[BOARD_POINTS_MAX], territory[BOARD_POINTS_MAX], t2[BOARD_POINTS_MAX];
	if (parse_vertices(&sg->b, seki, in_seki) < 0)
		sgame_fail(sg, "final_status_list seki: %s", seki);
	if (gtp_pipe_cmd(g, resp, sizeof resp, "final_status_list black_territory") != 1 ||
	    parse_vertices(&sg->b, resp, territory) < 0 ||
	    gtp_pipe_cmd(g, resp, sizeof resp, "final_status_list white_territory") != 1 ||
	    parse_vertices(&sg->b, resp, t2) < 0)
		sgame_fail(sg, "final_status_list *_territory: %s", resp);
	for (int p = 0; p < BOARD_POINTS_MAX; p++)
		territory[p] |= t2[p];
	int eyes, open = regions_vs_gnugo(&sg->b, dead, in_seki, territory, &eyes);
	if (open > 0) {
		if (getenv("TENGEN_ORACLE_VERBOSE")) {
			char diag[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
			board_diagram(&sg->b, diag);
			printf("oracle: self-play game %d unfinished: GNU Go calls %d shared points territory\n%s",
			       number, open, diag);
		}
		T->unfinished++;
		return 0;
	}
	if (gtp_pipe_cmd(g, resp, sizeof resp, "final_score") != 1 || !parse_result(resp, &theirs))
		sgame_fail(sg, "final_score: %s", resp);
	if (fabs(ours - eyes - theirs) > 1e-9) {
		char res[SCORE_RESULT_MAX];
		sgame_fail(sg, "our margin %.1f (%s; black %.1f, white %.1f, komi %.1f; %d of it from seki "
			   "eyes) vs GNU Go %s; GNU Go dead: [%s], seki: [%s]", ours, score_result(ours, res),
			   s.black, s.white, s.komi, eyes, resp, deadlist, seki);
	}
	if (eyes != 0) {
		T->seki_eye_games++;
		T->seki_eye_points += abs(eyes);
		if (getenv("TENGEN_ORACLE_VERBOSE")) {
			char diag[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
			board_diagram(&sg->b, diag);
			printf("oracle: self-play game %d: ours %.1f, GNU Go %s; seki eyes %+d; seki [%s]\n%s",
			       number, ours, resp, eyes, seki, diag);
		}
	}
	T->scored++;
	return 1;
}

START_TEST(test_scoring)
{
	/* Two engines, one game each at a time, so that both cores work. */
	static struct sgame sg[SCORE_ENGINES];
	struct gtp_pipe g[SCORE_ENGINES];
	bool active[SCORE_ENGINES];
	uint64_t rng = seed ^ 0x5c0e;
	int started = 0;
	for (int e = 0; e < SCORE_ENGINES; e++) {
		engine_open(&g[e], KO_SITUATIONAL, SCORE_LEVEL);
		selfplay_start(&sg[e], &g[e], SCORE_SIZE(started), started, &rng);
		started++;
		active[e] = true;
	}
	for (;;) {
		bool any = false;
		for (int e = 0; e < SCORE_ENGINES; e++)
			if (active[e]) {
				selfplay_ask(&sg[e]);
				any = true;
			}
		if (!any)
			break;
		for (int e = 0; e < SCORE_ENGINES; e++) {
			if (!active[e] || selfplay_answer(&sg[e]))
				continue;
			if (!sg[e].over)
				selfplay_count(&sg[e]);
			board_free(&sg[e].b);
			active[e] = T->scored < SCORE_TARGET && started < SCORE_GAMES_MAX;
			if (active[e]) {
				selfplay_start(&sg[e], &g[e], SCORE_SIZE(started), started, &rng);
				started++;
			}
		}
	}
	for (int e = 0; e < SCORE_ENGINES; e++)
		gtp_pipe_close(&g[e]);
	printf("oracle: scoring: %ld self-play games, %ld scored and equal (%ld with seki; in %ld of them "
	       "GNU Go gives nobody the %ld points of seki eyes that we count for their owner), %ld resigned, "
	       "%ld abandoned, %ld left unfinished (GNU Go counts open boundaries as territory), %ld dead stones "
	       "marked\n", T->selfplay, T->scored, T->seki_games, T->seki_eye_games, T->seki_eye_points,
	       T->resigned, T->abandoned, T->unfinished, T->dead_marked);
	fflush(stdout);
	ck_assert_msg(T->scored >= SCORE_MIN_FINISHED, "only %ld self-play games were scored (want %d)",
		      T->scored, SCORE_MIN_FINISHED);
}
END_TEST

/* ---- c. fixed handicap ---- */

/* GNU Go departs from the GTP 2 §4.1.1 layout (as gomill's handicap_layout reads it) on two
 * sizes: it accepts 2-4 stones on 7x7, and puts 12x12's stones on the 4-4 points. There the
 * placements are only reported; everywhere else they must agree. */
static bool handicap_disputed(int size) { return size == 7 || size == 12; }

START_TEST(test_fixed_handicap)
{
	struct gtp_pipe g;
	char resp[RESP_MAX];
	engine_open(&g, KO_SIMPLE, NULL);
	for (int size = BOARD_MIN_SIZE; size <= GNUGO_MAX_SIZE; size++) {
		struct board b;
		ck_assert_int_eq(board_init(&b, size, KO_SIMPLE), 0);
		for (int n = 0; n <= 10; n++) {
			int out[BOARD_POINTS_MAX];
			bool theirs[BOARD_POINTS_MAX];
			char ours[BOARD_MAX_SIZE * VERTEX_MAX_LEN] = "", v[VERTEX_MAX_LEN];
			ck_assert(gtp_pipe_cmd(&g, resp, sizeof resp, "boardsize %d", size) == 1);
			ck_assert(gtp_pipe_cmd(&g, resp, sizeof resp, "clear_board") == 1);
			int r = gtp_pipe_cmd(&g, resp, sizeof resp, "fixed_handicap %d", n);
			ck_assert(r >= 0);
			int k = board_fixed_handicap(size, n, out, b.stride);
			for (int i = 0; i < k; i++) {
				strcat(ours, " ");
				strcat(ours, vertex_format(&b, out[i], v));
			}
			bool same = r == 0 ? k == -1 : k == n && parse_vertices(&b, resp, theirs) == n;
			for (int i = 0; same && r == 1 && i < k; i++)
				same = board_on(&b, out[i]) && theirs[out[i]];
			if (handicap_disputed(size)) {
				if (!same)
					printf("oracle: fixed_handicap %d on %dx%d (GNU Go differs from GTP here): "
					       "GNU Go %s %s, ours%s\n", n, size, size, r ? "places" : "refuses",
					       resp, k < 0 ? " refuse" : ours);
				fflush(stdout);
				continue;
			}
			ck_assert_msg(same, "%dx%d fixed_handicap %d: GNU Go %s %s, we %s%s", size, size, n,
				      r ? "places" : "refuses", resp, k < 0 ? "refuse" : "place", k < 0 ? "" : ours);
			T->handicap_pairs++;
			T->handicap_placements += r == 1;
		}
		board_free(&b);
	}
	gtp_pipe_close(&g);
	printf("oracle: fixed_handicap: %ld (size, n) pairs compared on 2x2..19x19 (7x7, 12x12 only "
	       "reported), %ld placements equal\n", T->handicap_pairs, T->handicap_placements);
	fflush(stdout);
}
END_TEST

static Suite *oracle_suite(void)
{
	Suite *s = suite_create("oracle");
	TCase *tc = tcase_create("random_games");
	tcase_set_timeout(tc, ORACLE_TIMEOUT_S);
	tcase_add_test(tc, test_random_simple);
	tcase_add_test(tc, test_random_positional);
	tcase_add_test(tc, test_random_situational);
	suite_add_tcase(s, tc);
	tc = tcase_create("scoring");
	tcase_set_timeout(tc, ORACLE_TIMEOUT_S);
	tcase_add_test(tc, test_scoring);
	suite_add_tcase(s, tc);
	tc = tcase_create("handicap");
	tcase_set_timeout(tc, ORACLE_TIMEOUT_S);
	tcase_add_test(tc, test_fixed_handicap);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (GNUGO_PATH[0] == '\0' || access(GNUGO_PATH, X_OK) != 0) {
		printf("test_oracle: skipped: GNU Go not found (configure found '%s')\n", GNUGO_PATH);
		return 77;
	}
	const char *env = getenv("TENGEN_ORACLE_SEED");
	seed = env && *env ? strtoull(env, NULL, 10) : ORACLE_DEFAULT_SEED;
	printf("test_oracle: GNU Go %s, seed %" PRIu64 " (set TENGEN_ORACLE_SEED to change)\n", GNUGO_PATH, seed);
	fflush(stdout);
	T = mmap(NULL, sizeof *T, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (T == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(T, 0, sizeof *T);
	SRunner *sr = srunner_create(oracle_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	printf("test_oracle summary: %ld random games, %ld moves (%ld passes, %ld stones captured), "
	       "%ld positions compared (stones + captures), %ld legal-move lists (%ld points) compared, "
	       "banned points seen: %ld ko, %ld superko, %ld suicide; %ld self-play games scored; "
	       "%ld handicap placements compared\n",
	       T->games, T->moves, T->passes, T->captured, T->positions, T->legal_lists, T->legal_points,
	       T->ko_banned, T->superko_banned, T->suicide_banned, T->scored, T->handicap_placements);
	munmap(T, sizeof *T);
	return failed == 0 ? 0 : 1;
}
