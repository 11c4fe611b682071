/* fuzz_sgf: the SGF reader (common/sgf). Any input: sgf_parse must return a status without
 * crashing, leaking or reading out of bounds. A record it accepts must survive a round trip:
 * sgf_write succeeds, its text parses again to the same size, komi, handicap, setup stones and
 * moves, and writing that gives the same text. Its main line is then replayed on a board
 * (setup stones, then the moves; illegal ones skipped) with board_selfcheck after each.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board.h"
#include "sgf.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

#define REQUIRE(cond)                                                                   \
	do {                                                                            \
		if (!(cond)) {                                                          \
			fprintf(stderr, "fuzz_sgf: invariant failed: %s (line %d)\n", #cond, \
				__LINE__);                                              \
			abort();                                                        \
		}                                                                       \
	} while (0)

static void same_record(const struct sgf_game *a, const struct sgf_game *b)
{
	REQUIRE(a->size == b->size);
	REQUIRE(a->handicap == b->handicap);
	REQUIRE(fabs(a->komi - b->komi) < 1e-9);
	REQUIRE(a->nmoves == b->nmoves);
	REQUIRE(a->nsetup_black == b->nsetup_black && a->nsetup_white == b->nsetup_white);
	for (size_t i = 0; i < a->nmoves; i++) {
		REQUIRE(a->moves[i].color == b->moves[i].color);
		REQUIRE(a->moves[i].x == b->moves[i].x && a->moves[i].y == b->moves[i].y);
	}
	for (size_t i = 0; i < a->nsetup_black; i++)
		REQUIRE(a->setup_black[i].x == b->setup_black[i].x &&
			a->setup_black[i].y == b->setup_black[i].y);
	for (size_t i = 0; i < a->nsetup_white; i++)
		REQUIRE(a->setup_white[i].x == b->setup_white[i].x &&
			a->setup_white[i].y == b->setup_white[i].y);
}

static void replay(const struct sgf_game *g)
{
	static struct board b;
	if (board_init(&b, g->size, KO_SITUATIONAL) != 0)
		return; /* sizes the reader takes but the board does not: nothing to replay */
	for (size_t i = 0; i < g->nsetup_black; i++)
		board_setup(&b, BLACK, board_pt(&b, g->setup_black[i].x, g->setup_black[i].y));
	for (size_t i = 0; i < g->nsetup_white; i++)
		board_setup(&b, WHITE, board_pt(&b, g->setup_white[i].x, g->setup_white[i].y));
	REQUIRE(board_selfcheck(&b));
	for (size_t i = 0; i < g->nmoves && i < 2000; i++) {
		const struct sgf_move *m = &g->moves[i];
		REQUIRE(m->color == SGF_BLACK || m->color == SGF_WHITE);
		int pt = BOARD_PASS;
		if (m->x >= 0) {
			REQUIRE(m->x < g->size && m->y >= 0 && m->y < g->size);
			pt = board_pt(&b, m->x, m->y);
		}
		board_play(&b, m->color == SGF_BLACK ? BLACK : WHITE, pt, NULL, NULL);
		REQUIRE(board_selfcheck(&b));
	}
	board_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct sgf_game g, g2;
	struct sgf_error err;
	int rc = sgf_parse((const char *)d, n, &g, &err);
	if (rc != SGF_OK) {
		REQUIRE(rc > SGF_OK && rc <= SGF_ENOMEM);
		REQUIRE(memchr(err.message, '\0', sizeof err.message) != NULL);
		REQUIRE(err.offset <= n);
		return 0;
	}
	REQUIRE(g.size >= BOARD_MIN_SIZE && g.size <= BOARD_MAX_SIZE);
	char *text = sgf_write(&g);
	REQUIRE(text != NULL);
	rc = sgf_parse(text, strlen(text), &g2, &err);
	if (rc != SGF_OK)
		fprintf(stderr, "fuzz_sgf: written text does not parse (%s):\n%s\n", err.message, text);
	REQUIRE(rc == SGF_OK);
	same_record(&g, &g2);
	char *text2 = sgf_write(&g2);
	REQUIRE(text2 != NULL);
	REQUIRE(strcmp(text, text2) == 0);
	replay(&g);
	free(text);
	free(text2);
	sgf_game_free(&g2);
	sgf_game_free(&g);
	return 0;
}
