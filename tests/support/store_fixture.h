/* store_fixture: the store tests' shared fixture (tests/support/store_fixture.c). */
#ifndef TENGEN_STORE_FIXTURE_H
#define TENGEN_STORE_FIXTURE_H

#include <stdint.h>
#include "store.h"

#define GROUP_MOVES 500 /* moves written in one group-commit transaction */

/* Every move row: the folded ones and the journal's (migration 0005). */
#define ALL_MOVES "(SELECT * FROM moves UNION ALL SELECT game_id, number, color, vertex, " \
	"forfeit, clocks, at FROM move_journal)"

extern char dir[64];     /* the test's mkdtemp directory */
extern char path[128];   /* its database file */
extern struct store *s;  /* the store under test, NULL until open_store */

/* Check fixture: a fresh directory (setup); close the store, remove the files (teardown). */
void setup(void);
void teardown(void);
/* store_open the test's database into s, which must succeed. */
void open_store(void);
/* The first column of the first row of `sql`, through a connection of its own (not the
 * store's); -1 for no row. */
int raw_int(const char *sql);
/* Run `sql` through a connection of its own. */
void raw_exec(const char *sql);
/* Create player `name`; its id. */
int64_t player(const char *name);
/* A game with every field set. */
void game_fill(struct store_game *g, int64_t black, int64_t white);
/* Assert that every field of two games is equal. */
void game_eq(const struct store_game *a, const struct store_game *b);
/* Create a game (game_fill) in `phase`; its id. */
int64_t game_new(int64_t black, int64_t white, const char *phase);
/* A move numbered `number` at `vertex`, colour by parity (odd: B). */
void move_fill(struct store_move *m, int number, const char *vertex);

/* Collects moves: numbers in order, count. */
struct moves_seen {
	int n;
	int numbers[GROUP_MOVES + 8];
	char last_forfeit[STORE_REASON_SIZE];
	char last_clocks[128];
	char last_color;
};

/* A store_move_cb collecting into a struct moves_seen. */
int on_move(void *ctx, const struct store_move *m);
/* The number of moves store_moves_get lists for game. */
int moves_count(int64_t game);

#endif
