/* tests/integration/soak: many clients doing random valid and invalid things against a real tengend
 * (TENGEND, else ./server/tengend) while the daemon is killed with SIGKILL and restarted at
 * random moments.
 *
 *   tests/integration/soak [--seconds N] [--clients K] [--seed S]     (defaults 20 s, 8 clients, time)
 *
 * The clients (K players, paired into K/2 games on 9x9 with an absolute clock) play random
 * moves (mostly on empty points, some on occupied ones, passes), resign now and then, send
 * garbage and unknown commands, play out of turn, challenge and decline, disconnect in the
 * middle of a line and reconnect. Some moves are sent just before a kill and never answered.
 *
 * After each restart and at the end it checks (against the daemon, through `game`):
 *   - every move whose reply a client received is stored, with its number, colour and vertex;
 *   - every game's stored moves replay (common/board) to the stored board, and a game a client
 *     resigned has the other colour's "+R" result;
 *   - no game is stuck: a playing game's clock of the player to move runs;
 *   - the daemon's log holds no sanitizer or leak report.
 * At the end SIGTERM must stop the daemon cleanly (exit status 0).
 */
#include "config.h"

#include <check.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "board.h"
#include "harness.h"
#include "vertex.h"

#define T HARNESS_TIMEOUT_MS
#define SOAK_DEFAULT_SECONDS 20
#define SOAK_DEFAULT_CLIENTS 8
#define SOAK_MAX_CLIENTS 64
#define SOAK_SIZE 9
#define SOAK_MAIN_S 1800                 /* absolute clock of every soak game */
#define SOAK_KILL_MIN_MS 1500            /* time between two kills: uniform in [MIN, MAX] */
#define SOAK_KILL_MAX_MS 4500
#define SOAK_CLOCK_PROBE_MS 400          /* wait between two looks at a running clock */
#define SOAK_MAX_GAMES 4096
#define SOAK_MAX_ACKED 100000

static int opt_seconds = SOAK_DEFAULT_SECONDS;
static int opt_clients = SOAK_DEFAULT_CLIENTS;
static unsigned opt_seed;

static struct hd D;
static struct hc *cl[SOAK_MAX_CLIENTS];
static char names[SOAK_MAX_CLIENTS][16];
static long long pair_game[SOAK_MAX_CLIENTS / 2];

struct acked { long long game; int number; char color; char vertex[VERTEX_MAX_LEN]; };
static struct acked *acked;
static size_t nacked;
static long long games[SOAK_MAX_GAMES];
static char resigned[SOAK_MAX_GAMES]; /* 'B'/'W': that colour resigned (reply received) */
static size_t ngames;
static long stats_moves, stats_illegal, stats_kills, stats_inflight, stats_garbage,
	stats_midline, stats_resigns, stats_games, stats_rate_limited;

static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int rnd(int n) { return (int)(random() % (unsigned)n); }

static size_t game_index(long long id)
{
	for (size_t i = 0; i < ngames; i++)
		if (games[i] == id)
			return i;
	ck_assert_msg(ngames < SOAK_MAX_GAMES, "too many games");
	games[ngames] = id;
	resigned[ngames] = 0;
	return ngames++;
}

static void connect_all(void)
{
	for (int i = 0; i < opt_clients; i++) {
		if (cl[i])
			hc_close(cl[i]);
		cl[i] = hc_login_new(D.port, names[i]);
		ck_assert_msg(cl[i] != NULL, "%s could not log in", names[i]);
	}
}

/* The game record, or NULL (asserted not to happen while the daemon runs). */
static json_t *get_game(struct hc *c, long long id)
{
	json_t *r = hc_req(c, "{ss sI}", "cmd", "game", "game", (json_int_t)id);
	ck_assert_msg(r && hj_ok(r), "game %lld: %s", id, hj_text(r));
	return r;
}

/* Pair k (clients 2k Black, 2k+1 White) starts a new game. */
static void new_game(int k)
{
	struct hc *b = cl[2 * k], *w = cl[2 * k + 1];
	json_t *r = hc_req(b, "{ss ss si sf sb ss s{ss si}}", "cmd", "challenge", "opponent",
			   names[2 * k + 1], "size", SOAK_SIZE, "komi", 6.5, "rated", 0, "color", "black",
			   "time", "system", "absolute", "main_s", SOAK_MAIN_S);
	if (r && hj_err(r) && strcmp(hj_err(r), "rate_limited") == 0) {
		/* the challenges its player declined-to (below) used up the minute's: later */
		json_decref(r);
		pair_game[k] = 0;
		stats_rate_limited++;
		return;
	}
	ck_assert_msg(r && hj_ok(r), "challenge: %s", hj_text(r));
	long long id = hj_int(r, "game.id");
	if (id <= 0)
		id = hj_int(r, "game");
	json_decref(r);
	ck_assert(id > 0);
	r = hc_req(w, "{ss sI}", "cmd", "accept", "game", (json_int_t)id);
	ck_assert_msg(r && hj_ok(r), "accept: %s", hj_text(r));
	json_decref(r);
	pair_game[k] = id;
	game_index(id);
	stats_games++;
}

/* One random action of pair k. */
static void pair_act(int k)
{
	if (!pair_game[k]) {
		new_game(k);
		return;
	}
	long long id = pair_game[k];
	json_t *g = get_game(cl[2 * k], id);
	const char *phase = hj_str(g, "game.phase");
	char tm[2] = {hj_str(g, "game.to_move") ? hj_str(g, "game.to_move")[0] : 0, 0};
	if (strcmp(phase, "ended") == 0) {
		json_decref(g);
		new_game(k);
		return;
	}
	if (strcmp(phase, "counting") == 0) {
		json_decref(g);
		for (int s = 0; s < 2; s++) {
			json_t *r = hc_req(cl[2 * k + s], "{ss sI s[]}", "cmd", "dead", "game",
					   (json_int_t)id, "stones");
			ck_assert_msg(r != NULL, "no reply to dead");
			json_decref(r);
		}
		return;
	}
	if (strcmp(phase, "playing") != 0 || !tm[0]) {
		json_decref(g);
		return;
	}
	int me = tm[0] == 'B' ? 2 * k : 2 * k + 1;
	int dice = rnd(100);
	if (dice < 2) {
		/* resign */
		json_t *r = hc_req(cl[me], "{ss sI}", "cmd", "resign", "game", (json_int_t)id);
		if (r && hj_ok(r)) {
			resigned[game_index(id)] = tm[0];
			stats_resigns++;
		}
		json_decref(r);
		json_decref(g);
		return;
	}
	if (dice < 5) {
		/* out of turn */
		json_t *r = hc_req(cl[me ^ 1], "{ss sI ss}", "cmd", "play", "game", (json_int_t)id,
				   "vertex", "E5");
		ck_assert_msg(r && !hj_ok(r), "a move out of turn was accepted: %s", hj_text(r));
		json_decref(r);
		json_decref(g);
		return;
	}
	/* a point: mostly an empty one, sometimes any; sometimes a pass */
	char v[VERTEX_MAX_LEN];
	const json_t *board = hj_get(g, "game.board");
	if (dice < 9) {
		snprintf(v, sizeof v, "pass");
	} else {
		int x = 0, y = 0;
		for (int tries = 0; tries < 20; tries++) {
			x = rnd(SOAK_SIZE);
			y = rnd(SOAK_SIZE);
			const char *row = json_string_value(json_array_get(board, (size_t)(SOAK_SIZE - 1 - y)));
			if (dice < 12 || (row && row[x] == '.'))
				break;
		}
		vertex_format_xy(SOAK_SIZE, x, y, v);
	}
	json_decref(g);
	json_t *r = hc_req(cl[me], "{ss sI ss}", "cmd", "play", "game", (json_int_t)id, "vertex", v);
	ck_assert_msg(r != NULL, "no reply to play %s in game %lld", v, id);
	if (hj_ok(r)) {
		ck_assert_msg(nacked < SOAK_MAX_ACKED, "too many moves");
		struct acked *a = &acked[nacked++];
		a->game = id;
		a->number = (int)hj_int(r, "move.number");
		a->color = hj_str(r, "move.color") ? hj_str(r, "move.color")[0] : '?';
		snprintf(a->vertex, sizeof a->vertex, "%s", hj_str(r, "move.vertex") ? hj_str(r, "move.vertex") : "?");
		ck_assert_msg(strcasecmp(a->vertex, v) == 0, "played %s, reply says %s", v, a->vertex);
		ck_assert_int_eq(a->color, tm[0]);
		stats_moves++;
	} else {
		ck_assert_msg(hj_err(r) && (strcmp(hj_err(r), "illegal_move") == 0 ||
					    strcmp(hj_err(r), "conflict") == 0),
			      "play %s: %s", v, hj_text(r));
		stats_illegal++;
	}
	json_decref(r);
}

/* Something invalid from a random client. */
static void misbehave(void)
{
	int i = rnd(opt_clients);
	json_t *r = NULL;
	switch (rnd(6)) {
	case 0:
		hc_send_line(cl[i], "this is not json");
		r = hc_reply(cl[i], T);
		ck_assert_msg(hj_err(r) && strcmp(hj_err(r), "bad_request") == 0, "garbage: %s", hj_text(r));
		break;
	case 1:
		r = hc_req(cl[i], "{ss}", "cmd", "no.such.command");
		ck_assert_msg(hj_err(r) && strcmp(hj_err(r), "unknown_command") == 0, "unknown: %s",
			      hj_text(r));
		break;
	case 2: {
		/* play in somebody else's game */
		int k = rnd(opt_clients / 2);
		if (!pair_game[k] || i / 2 == k)
			return;
		r = hc_req(cl[i], "{ss sI ss}", "cmd", "play", "game", (json_int_t)pair_game[k],
			   "vertex", "A1");
		ck_assert_msg(r && !hj_ok(r), "a stranger's move was accepted: %s", hj_text(r));
		break;
	}
	case 3: {
		/* challenge someone, who declines */
		int j = (i + 1 + rnd(opt_clients - 1)) % opt_clients;
		r = hc_req(cl[i], "{ss ss si}", "cmd", "challenge", "opponent", names[j], "size", 9);
		if (r && hj_ok(r)) {
			long long id = hj_int(r, "game.id");
			if (id <= 0)
				id = hj_int(r, "game");
			json_decref(r);
			r = hc_req(cl[j], "{ss sI}", "cmd", "decline", "game", (json_int_t)id);
			ck_assert_msg(r != NULL, "no reply to decline");
		}
		break;
	}
	case 4:
		/* disconnect in the middle of a line, then come back */
		hc_send(cl[i], "{\"cmd\":\"play\",\"game\":", 22);
		hc_close(cl[i]);
		cl[i] = hc_login_new(D.port, names[i]);
		ck_assert_msg(cl[i] != NULL, "%s could not log in again", names[i]);
		stats_midline++;
		return;
	default:
		r = hc_req(cl[i], "{ss sI ss}", "cmd", "play", "game", (json_int_t)999999, "vertex", "Z99");
		ck_assert_msg(hj_err(r) != NULL, "bad play accepted: %s", hj_text(r));
		break;
	}
	stats_garbage++;
	json_decref(r);
}

/* Replay a game's stored moves on a board; compare with its stored board. */
static void check_game(struct hc *c, size_t gi)
{
	long long id = games[gi];
	json_t *g = get_game(c, id);
	const json_t *moves = hj_get(g, "game.moves"), *rows = hj_get(g, "game.board");
	int size = (int)hj_int(g, "game.size");
	ck_assert(json_is_array(moves));
	/* every acknowledged move is stored */
	for (size_t i = 0; i < nacked; i++) {
		if (acked[i].game != id)
			continue;
		json_t *m = json_array_get(moves, (size_t)acked[i].number - 1);
		ck_assert_msg(m != NULL, "game %lld: acknowledged move %d (%s) is not stored", id,
			      acked[i].number, acked[i].vertex);
		ck_assert_msg(strcasecmp(hj_str(m, "vertex"), acked[i].vertex) == 0 &&
			      hj_str(m, "color")[0] == acked[i].color,
			      "game %lld move %d: stored %s, acknowledged %c %s", id, acked[i].number,
			      hj_text(m), acked[i].color, acked[i].vertex);
	}
	if (json_array_size(rows) == 0) {
		json_decref(g); /* not started */
		return;
	}
	static struct board b;
	ck_assert_int_eq(board_init(&b, size, KO_SITUATIONAL), 0);
	size_t i;
	json_t *m;
	json_array_foreach(moves, i, m) {
		int pt = vertex_parse(&b, hj_str(m, "vertex"));
		ck_assert_msg(pt >= 0, "game %lld: stored vertex %s", id, hj_str(m, "vertex"));
		enum color col = hj_str(m, "color")[0] == 'B' ? BLACK : WHITE;
		ck_assert_msg(board_play(&b, col, pt, NULL, NULL) == BOARD_OK,
			      "game %lld: stored move %zu (%s) does not replay", id, i + 1, hj_text(m));
	}
	char diag[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
	board_diagram(&b, diag);
	char *line = diag;
	json_t *row;
	json_array_foreach(rows, i, row) {
		char *nl = strchr(line, '\n');
		ck_assert(nl != NULL);
		*nl = '\0';
		ck_assert_msg(strcmp(line, json_string_value(row)) == 0,
			      "game %lld: stored board row %zu is %s, the replay gives %s", id, i,
			      json_string_value(row), line);
		line = nl + 1;
	}
	board_free(&b);
	if (resigned[gi]) {
		char want[8];
		snprintf(want, sizeof want, "%c+R", resigned[gi] == 'B' ? 'W' : 'B');
		ck_assert_msg(hj_str(g, "game.result") && strcmp(hj_str(g, "game.result"), want) == 0,
			      "game %lld: %c resigned, result %s", id, resigned[gi], hj_text(hj_get(g, "game.result")));
	}
	json_decref(g);
}

/* No playing game is stuck: the clock of the player to move runs. */
static void check_clocks(struct hc *c)
{
	long long before[SOAK_MAX_CLIENTS / 2];
	char tm[SOAK_MAX_CLIENTS / 2];
	int n = opt_clients / 2;
	for (int k = 0; k < n; k++) {
		before[k] = -1;
		if (!pair_game[k])
			continue;
		json_t *g = get_game(c, pair_game[k]);
		if (strcmp(hj_str(g, "game.phase"), "playing") == 0 && hj_str(g, "game.to_move")) {
			tm[k] = hj_str(g, "game.to_move")[0];
			char path[32];
			snprintf(path, sizeof path, "game.clocks.%c.main_ms", tm[k]);
			before[k] = hj_int(g, path);
		}
		json_decref(g);
	}
	usleep(SOAK_CLOCK_PROBE_MS * 1000);
	for (int k = 0; k < n; k++) {
		if (before[k] < 0)
			continue;
		json_t *g = get_game(c, pair_game[k]);
		if (strcmp(hj_str(g, "game.phase"), "playing") == 0 && hj_str(g, "game.to_move") &&
		    hj_str(g, "game.to_move")[0] == tm[k]) {
			char path[32];
			snprintf(path, sizeof path, "game.clocks.%c.main_ms", tm[k]);
			long long after = hj_int(g, path);
			ck_assert_msg(after < before[k], "game %lld is stuck: %c's clock %lld -> %lld",
				      pair_game[k], tm[k], before[k], after);
		}
		json_decref(g);
	}
}

static void check_all(const char *when)
{
	const char *rep = hd_sanitizer_report(&D);
	ck_assert_msg(rep == NULL, "%s: sanitizer report in the daemon's log: %s", when, rep);
	for (size_t i = 0; i < ngames; i++)
		check_game(cl[0], i);
	check_clocks(cl[0]);
}

START_TEST(t_soak)
{
	srandom(opt_seed);
	fprintf(stderr, "soak: %d s, %d clients, seed %u\n", opt_seconds, opt_clients, opt_seed);
	acked = calloc(SOAK_MAX_ACKED, sizeof *acked);
	ck_assert(acked != NULL);
	ck_assert_int_eq(hd_start(&D, NULL), 0);
	for (int i = 0; i < opt_clients; i++)
		snprintf(names[i], sizeof names[i], "soak%d", i);
	connect_all();
	long long end = mono_ms() + (long long)opt_seconds * 1000;
	long long next_kill = mono_ms() + SOAK_KILL_MIN_MS + rnd(SOAK_KILL_MAX_MS - SOAK_KILL_MIN_MS);
	while (mono_ms() < end) {
		if (mono_ms() >= next_kill) {
			/* a move in flight, never answered, then kill -9 */
			int k = rnd(opt_clients / 2);
			if (pair_game[k] && rnd(2)) {
				char line[128];
				char v[VERTEX_MAX_LEN];
				vertex_format_xy(SOAK_SIZE, rnd(SOAK_SIZE), rnd(SOAK_SIZE), v);
				int n = snprintf(line, sizeof line,
						 "{\"cmd\":\"play\",\"game\":%lld,\"vertex\":\"%s\"}\n",
						 pair_game[k], v);
				hc_send(cl[2 * k + rnd(2)], line, (size_t)n);
				stats_inflight++;
			}
			ck_assert_int_eq(hd_kill(&D), 0);
			stats_kills++;
			ck_assert_msg(hd_restart(&D) == 0, "restart %ld failed", stats_kills);
			connect_all();
			check_all("after a restart");
			next_kill = mono_ms() + SOAK_KILL_MIN_MS + rnd(SOAK_KILL_MAX_MS - SOAK_KILL_MIN_MS);
			continue;
		}
		if (rnd(10) == 0)
			misbehave();
		else
			pair_act(rnd(opt_clients / 2));
	}
	check_all("at the end");
	for (int i = 0; i < opt_clients; i++)
		hc_close(cl[i]);
	ck_assert_int_eq(hd_stop(&D), 0);
	const char *rep = hd_sanitizer_report(&D);
	ck_assert_msg(rep == NULL, "sanitizer report after the stop: %s", rep);
	fprintf(stderr,
		"soak: %ld games, %ld moves acknowledged, %ld illegal, %ld resignations, %ld invalid "
		"requests, %ld mid-line disconnects, %ld kills (%ld with a move in flight), %ld "
		"challenges rate-limited, all checks passed\n",
		stats_games, stats_moves, stats_illegal, stats_resigns, stats_garbage, stats_midline,
		stats_kills, stats_inflight, stats_rate_limited);
	hd_cleanup(&D);
	free(acked);
}
END_TEST

int main(int argc, char **argv)
{
	/* Every flush through the writer thread: kill -9 with output in flight. */
	setenv("TENGEN_TEST_WRITER_MIN", "1", 0);
	setenv("TENGEN_TEST_FOLD_ROWS", "5", 0); /* folds between the kills, too */
	static const struct option opts[] = {{"seconds", required_argument, NULL, 's'},
					     {"clients", required_argument, NULL, 'c'},
					     {"seed", required_argument, NULL, 'r'},
					     {NULL, 0, NULL, 0}};
	opt_seed = (unsigned)time(NULL);
	int o;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 's': opt_seconds = atoi(optarg); break;
		case 'c': opt_clients = atoi(optarg); break;
		case 'r': opt_seed = (unsigned)strtoul(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: tests/integration/soak [--seconds N] [--clients K] [--seed S]\n");
			return 2;
		}
	}
	if (opt_seconds < 1 || opt_clients < 2 || opt_clients > SOAK_MAX_CLIENTS || opt_clients % 2) {
		fprintf(stderr, "soak: --seconds >= 1, --clients an even number 2..%d\n", SOAK_MAX_CLIENTS);
		return 2;
	}
	Suite *s = suite_create("soak");
	TCase *tc = tcase_create("soak");
	tcase_set_timeout(tc, opt_seconds + 90);
	tcase_add_test(tc, t_soak);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
