/* Integration tests of tournaments (issue 5) against a real tengend (TENGEND, else
 * ./server/tengend), driven over TCP through tests/harness: a 6-player round robin, a
 * 7-player 3-round Swiss and a 5-player knockout, each run by a director with the players'
 * clients playing their games out (resignations, games counted by agreement after a few
 * moves, a draw counted on the board with komi 0, a director's forfeit and a director's
 * draw), then the standings (points, ranks, SOS / SODOS against the test's own computation
 * from the games it played), pairings, get, list, exports, a result override, a withdrawal,
 * and the conflicts and role checks of the commands. Rules: Chinese Weiqi Rules 2002,
 * Art. 26-28 (docs/rules.md, docs/tiebreaks.md); wire:
 * docs/protocol.md.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory. Boards are 9x9, komi 0 (an integer komi: a counted draw is possible), no
 * clocks, rounds start START_DELAY_S after they are drawn.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"

extern char **environ;

#define T HARNESS_TIMEOUT_MS
#define TEST_TIMEOUT_S 60      /* per test (Check's own timeout) */
#define BOARD 9
#define START_DELAY_S 0.2      /* a round's start_at: this long after start_round */
#define MAXP 8                 /* players in one test's event */
#define MAXG 32                /* games in one test's event */
#define MAXR 8                 /* rounds */
#define EPS 1e-9
#define WIN 2                  /* game points, Art. 27.1 */
#define DRAW 1
#define BYE_POINTS 2           /* the default `bye` */

static struct hd D;

/* ---- helpers ---- */

#define OK(r) ck_assert_msg(hj_ok(r), "expected ok, got %s", hj_text(r))
#define ERR(r, code)                                                                          \
	ck_assert_msg(hj_err(r) && strcmp(hj_err(r), (code)) == 0, "expected error %s, got %s", \
		      (code), hj_text(r))

static double wall_s(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

static void setup(void)
{
	ck_assert_msg(hd_start(&D, NULL) == 0, "tengend (%s) did not start", hd_binary());
}

static void teardown(void)
{
	int st = hd_stop(&D);
	const char *san = hd_sanitizer_report(&D);
	ck_assert_msg(st == 0, "tengend exited with status %d after SIGTERM (log: %s)", st, D.log);
	ck_assert_msg(san == NULL, "the daemon's log holds a sanitizer report (%s): %s", san, D.log);
	hd_cleanup(&D);
}

static struct hc *login(const char *name)
{
	struct hc *c = hc_login_new(D.port, name);
	ck_assert_msg(c != NULL, "could not register and log in %s", name);
	return c;
}

/* A tournament director: registered, granted td, logged in again (the role applies from the
 * next login). */
static struct hc *director(const char *name)
{
	hc_close(login(name));
	ck_assert_int_eq(hd_grant(&D, name, "td"), 0);
	return login(name);
}

/* ---- the event as the test keeps it ---- */

enum outcome {
	BLACK_RESIGNS,   /* W+R */
	WHITE_RESIGNS,   /* B+R */
	BLACK_BY_COUNT,  /* a few moves, pass-pass, agreed all alive: B+1 with komi 0 */
	DRAW_BY_COUNT,   /* one stone each, pass-pass, agreed: 0 with komi 0 */
	TD_FORFEIT_BLACK, /* the director: W+F (Black forfeits) */
	TD_DRAW,         /* the director: 0 */
};

struct tgame {
	long long id;
	int round, b, w;
	int pts_b, pts_w; /* 2/1/0 */
	bool forfeit;     /* not played over the board: no tie-break */
	char result[16];
};

struct ev {
	struct hc *td;
	long long id;
	int n;
	const char *names[MAXP];
	struct hc *c[MAXP];
	bool withdrawn[MAXP];
	bool knockout;
	bool out[MAXP];            /* knockout: eliminated */
	struct tgame g[MAXG];
	int ng;
	int byes[MAXP];            /* byes received */
	int bye_round[MAXR][MAXP]; /* bye_round[r][k]: player index of the k-th bye of round r */
	int nbye_round[MAXR];
};

static int idx_of(const struct ev *e, const char *name)
{
	for (int i = 0; i < e->n; i++)
		if (name && strcmp(e->names[i], name) == 0)
			return i;
	ck_abort_msg("unknown player '%s'", name ? name : "(null)");
	return -1;
}

static long long tour_create(struct hc *td, const char *name, const char *system, json_t *more)
{
	json_t *req = json_pack("{s:s, s:s, s:s, s:i, s:f, s:b}", "cmd", "tournament.create", "name",
				name, "system", system, "size", BOARD, "komi", 0.0, "rated", 0);
	if (more)
		json_object_update(req, more);
	json_decref(more);
	json_t *r = hc_reqj(td, req);
	OK(r);
	long long id = hj_int(r, "tournament");
	ck_assert_msg(id > 0, "tournament.create: %s", hj_text(r));
	json_decref(r);
	return id;
}

static void tour_register(struct ev *e, int i)
{
	json_t *r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)e->id, "player", e->names[i]);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player"), e->names[i]);
	json_decref(r);
}

/* Log the players in (names "<prefix>_<i>"). */
static void players(struct ev *e, const char *prefix, int n, char store[][32])
{
	e->n = n;
	for (int i = 0; i < n; i++) {
		snprintf(store[i], 32, "%s_%d", prefix, i);
		e->names[i] = store[i];
		e->c[i] = login(store[i]);
	}
}

/* Start the next round: checks the reply (round number, every active player paired or
 * given a bye exactly once, game.start to the players), adds its games to e. Returns the
 * number of games. */
static int start_round(struct ev *e, int round)
{
	json_t *r = hc_req(e->td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)e->id, "start_at", wall_s() + START_DELAY_S);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), round);
	int seen[MAXP] = {0};
	json_t *pairs = hj_get(r, "pairings"), *byes = hj_get(r, "byes");
	size_t k;
	json_t *p;
	int before = e->ng;
	json_array_foreach(pairs, k, p) {
		ck_assert_int_lt(e->ng, MAXG);
		struct tgame *g = &e->g[e->ng++];
		memset(g, 0, sizeof *g);
		g->id = hj_int(p, "game");
		g->round = round;
		g->b = idx_of(e, hj_str(p, "black"));
		g->w = idx_of(e, hj_str(p, "white"));
		seen[g->b]++;
		seen[g->w]++;
		json_t *ev = hc_event(e->c[g->b], "game.start", g->id, T);
		ck_assert_msg(ev != NULL, "%s got no game.start for game %lld", e->names[g->b], g->id);
		ck_assert_pstr_eq(hj_str(ev, "color"), "B");
		ck_assert_int_eq(hj_int(ev, "size"), BOARD);
		json_decref(ev);
		ev = hc_event(e->c[g->w], "game.start", g->id, T);
		ck_assert_msg(ev != NULL, "%s got no game.start for game %lld", e->names[g->w], g->id);
		ck_assert_pstr_eq(hj_str(ev, "color"), "W");
		json_decref(ev);
	}
	e->nbye_round[round] = 0;
	json_array_foreach(byes, k, p) {
		int i = idx_of(e, json_string_value(p));
		seen[i]++;
		e->byes[i]++;
		e->bye_round[round][e->nbye_round[round]++] = i;
		json_t *ev = hc_event(e->c[i], "tournament.bye", 0, T);
		ck_assert_msg(ev != NULL, "%s got no tournament.bye", e->names[i]);
		json_decref(ev);
	}
	for (int i = 0; i < e->n; i++)
		ck_assert_msg(seen[i] == (e->withdrawn[i] || e->out[i] ? 0 : 1),
			      "round %d: %s is paired %d times (withdrawn %d, eliminated %d): %s", round,
			      e->names[i], seen[i], e->withdrawn[i], e->out[i], hj_text(r));
	json_decref(r);
	return e->ng - before;
}

static void req_ok(struct hc *c, json_t *req)
{
	json_t *r = hc_reqj(c, req);
	ck_assert_msg(hj_ok(r), "%s: %s", c->name, hj_text(r));
	json_decref(r);
}

static void mv(struct hc *c, long long g, const char *v)
{
	req_ok(c, json_pack("{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", v));
}

static void dead_none(struct hc *c, long long g)
{
	req_ok(c, json_pack("{s:s, s:I, s:[]}", "cmd", "dead", "game", (json_int_t)g, "stones"));
}

/* Play game g out to `o`; checks game.end at both players and records the result. */
static void play_out(struct ev *e, struct tgame *g, enum outcome o)
{
	struct hc *b = e->c[g->b], *w = e->c[g->w];
	json_t *ev = hc_event(b, "game.begin", g->id, T);
	ck_assert_msg(ev != NULL, "game %lld did not begin", g->id);
	json_decref(ev);
	const char *want = NULL, *reason = NULL;
	switch (o) {
	case BLACK_RESIGNS:
		req_ok(b, json_pack("{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g->id));
		want = "W+R", reason = "resignation";
		break;
	case WHITE_RESIGNS:
		mv(b, g->id, "E5");
		req_ok(w, json_pack("{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g->id));
		want = "B+R", reason = "resignation";
		break;
	case BLACK_BY_COUNT: /* Black 2 stones + half of 78, White 1 + half of 78: B+1 */
		mv(b, g->id, "C3");
		mv(w, g->id, "G7");
		mv(b, g->id, "C7");
		mv(w, g->id, "pass");
		mv(b, g->id, "pass");
		dead_none(b, g->id);
		dead_none(w, g->id);
		want = "B+1", reason = "score";
		break;
	case DRAW_BY_COUNT: /* one stone each, the rest shared: 40.5 each, komi 0 */
		mv(b, g->id, "C3");
		mv(w, g->id, "G7");
		mv(b, g->id, "pass");
		mv(w, g->id, "pass");
		dead_none(w, g->id);
		dead_none(b, g->id);
		want = "0", reason = "score";
		break;
	case TD_FORFEIT_BLACK:
		req_ok(e->td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
					(json_int_t)g->id, "result", "W+F"));
		want = "W+F", reason = "adjudicated";
		break;
	case TD_DRAW:
		req_ok(e->td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
					(json_int_t)g->id, "result", "0"));
		want = "0", reason = "adjudicated";
		break;
	}
	struct hc *both[2] = {b, w};
	for (int k = 0; k < 2; k++) {
		ev = hc_event(both[k], "game.end", g->id, T);
		ck_assert_msg(ev != NULL, "%s got no game.end for game %lld", both[k]->name, g->id);
		ck_assert_msg(strcmp(hj_str(ev, "result"), want) == 0 && strcmp(hj_str(ev, "reason"), reason) == 0,
			      "game %lld ended %s, expected %s (%s)", g->id, hj_text(ev), want, reason);
		json_decref(ev);
	}
	snprintf(g->result, sizeof g->result, "%s", want);
	g->forfeit = o == TD_FORFEIT_BLACK;
	g->pts_b = want[0] == 'B' ? WIN : want[0] == 'W' ? 0 : DRAW;
	g->pts_w = WIN - g->pts_b;
	if (e->knockout && g->pts_b != DRAW) /* out after a loss */
		e->out[g->pts_b == WIN ? g->w : g->b] = true;
}

/* Points of every player (games + byes). */
static void points(const struct ev *e, int *pts)
{
	for (int i = 0; i < e->n; i++)
		pts[i] = e->byes[i] * BYE_POINTS;
	for (int k = 0; k < e->ng; k++) {
		pts[e->g[k].b] += e->g[k].pts_b;
		pts[e->g[k].w] += e->g[k].pts_w;
	}
}

/* The test's own tie-breaks (docs/tiebreaks.md): over games played on the board (forfeits
 * and byes are unplayed rounds: a virtual opponent of score 0), SOS = sum of opponents'
 * points, SODOS = points of opponents beaten + half of those drawn. */
static void tiebreaks(const struct ev *e, const int *pts, double *sos, double *sodos)
{
	for (int i = 0; i < e->n; i++)
		sos[i] = sodos[i] = 0;
	for (int k = 0; k < e->ng; k++) {
		const struct tgame *g = &e->g[k];
		if (g->forfeit)
			continue;
		sos[g->b] += pts[g->w];
		sos[g->w] += pts[g->b];
		sodos[g->b] += g->pts_b == WIN ? pts[g->w] : g->pts_b == DRAW ? pts[g->w] / 2.0 : 0;
		sodos[g->w] += g->pts_w == WIN ? pts[g->b] : g->pts_w == DRAW ? pts[g->b] / 2.0 : 0;
	}
}

/* tournament.standings against the test's computation: every player once, points, wins,
 * draws, losses, byes, the SOS / SODOS / WARN tie-breaks present, rows ordered by points
 * then the tie-breaks `tb` (ntb of them, as listed by the event), places shared only by
 * rows equal on all of them (competition ranking). */
static void check_standings(const struct ev *e, const char *const *tb, int ntb)
{
	json_t *r = hc_req(e->c[0], "{s:s, s:I}", "cmd", "tournament.standings", "tournament",
			   (json_int_t)e->id);
	OK(r);
	int pts[MAXP];
	double sos[MAXP], sodos[MAXP];
	points(e, pts);
	tiebreaks(e, pts, sos, sodos);
	json_t *rows = hj_get(r, "standings");
	ck_assert_msg(json_array_size(rows) == (size_t)e->n, "%zu rows for %d players: %s",
		      json_array_size(rows), e->n, hj_text(r));
	int seen[MAXP] = {0};
	double prev[1 + 8] = {0};
	int prev_rank = 0;
	for (size_t k = 0; k < json_array_size(rows); k++) {
		json_t *row = json_array_get(rows, k);
		int i = idx_of(e, hj_str(row, "player"));
		seen[i]++;
		int wins = 0, draws = 0, losses = 0;
		for (int q = 0; q < e->ng; q++) {
			const struct tgame *g = &e->g[q];
			int mine = g->b == i ? g->pts_b : g->w == i ? g->pts_w : -1;
			wins += mine == WIN;
			draws += mine == DRAW;
			losses += mine == 0;
		}
		ck_assert_msg(hj_int(row, "points") == pts[i], "%s: points %lld, expected %d (%s)",
			      e->names[i], hj_int(row, "points"), pts[i], hj_text(row));
		ck_assert_msg(hj_int(row, "wins") == wins && hj_int(row, "draws") == draws &&
				      hj_int(row, "losses") == losses,
			      "%s: expected %d/%d/%d wins/draws/losses: %s", e->names[i], wins, draws,
			      losses, hj_text(row));
		ck_assert_int_eq(hj_int(row, "byes"), e->byes[i]);
		ck_assert_int_eq(hj_int(row, "warnings"), 0);
		double key[1 + 8];
		key[0] = pts[i];
		for (int t = 0; t < ntb; t++) {
			char path[64];
			snprintf(path, sizeof path, "tiebreaks.%s", tb[t]);
			double v = hj_num(row, path);
			ck_assert_msg(!isnan(v), "%s: no tie-break %s: %s", e->names[i], tb[t], hj_text(row));
			double want = strcmp(tb[t], "SOS") == 0 ? sos[i] : strcmp(tb[t], "SODOS") == 0 ? sodos[i] : 0;
			ck_assert_msg(fabs(v - want) < EPS, "%s: %s %g, expected %g (%s)", e->names[i],
				      tb[t], v, want, hj_text(row));
			key[1 + t] = strcmp(tb[t], "WARN") == 0 ? -v : v; /* fewer warnings is better */
		}
		/* Order and places. */
		int rank = (int)hj_int(row, "rank");
		if (k == 0) {
			ck_assert_int_eq(rank, 1);
		} else {
			int cmp = 0;
			for (int t = 0; t <= ntb && !cmp; t++)
				cmp = key[t] > prev[t] + EPS ? 1 : key[t] < prev[t] - EPS ? -1 : 0;
			ck_assert_msg(cmp <= 0, "row %zu (%s) is better than the row above it: %s", k + 1,
				      e->names[i], hj_text(r));
			ck_assert_msg(rank == (cmp == 0 ? prev_rank : (int)k + 1),
				      "row %zu (%s): rank %d (tied with the row above: %d): %s", k + 1,
				      e->names[i], rank, cmp == 0, hj_text(r));
		}
		memcpy(prev, key, sizeof key);
		prev_rank = rank;
	}
	for (int i = 0; i < e->n; i++)
		ck_assert_msg(seen[i] == 1, "%s is listed %d times", e->names[i], seen[i]);
	json_decref(r);
}

/* tournament.pairings of `round` against the games the test recorded. */
static void check_pairings(const struct ev *e, int round)
{
	json_t *r = hc_req(e->c[0], "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)e->id, "round", round);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), round);
	int n = 0;
	for (int k = 0; k < e->ng; k++) {
		const struct tgame *g = &e->g[k];
		if (g->round != round)
			continue;
		n++;
		json_t *p = NULL, *v;
		size_t q;
		json_array_foreach(hj_get(r, "pairings"), q, v)
			if (hj_int(v, "game") == g->id)
				p = v;
		ck_assert_msg(p != NULL, "round %d: game %lld missing from %s", round, g->id, hj_text(r));
		ck_assert_pstr_eq(hj_str(p, "black"), e->names[g->b]);
		ck_assert_pstr_eq(hj_str(p, "white"), e->names[g->w]);
		const char *res = hj_str(p, "result");
		ck_assert_msg(res != NULL, "round %d game %lld: no result: %s", round, g->id, hj_text(p));
		/* Results are listed by kind: B+ / W+ (over the board), B+F / W+F, 0. */
		char want[8];
		if (g->forfeit)
			snprintf(want, sizeof want, "%c+F", g->result[0]);
		else if (strcmp(g->result, "0") == 0)
			snprintf(want, sizeof want, "0");
		else
			snprintf(want, sizeof want, "%c+", g->result[0]);
		ck_assert_msg(strcmp(res, want) == 0, "round %d game %lld: result %s, expected %s",
			      round, g->id, res, want);
	}
	ck_assert_int_eq(json_array_size(hj_get(r, "pairings")), n);
	ck_assert_int_eq(json_array_size(hj_get(r, "byes")), e->nbye_round[round]);
	for (int k = 0; k < e->nbye_round[round]; k++)
		ck_assert(hj_has_str(r, "byes", e->names[e->bye_round[round][k]]));
	json_decref(r);
}

static void expect_conflict_start(const struct ev *e, const char *why)
{
	json_t *r = hc_req(e->td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)e->id);
	ck_assert_msg(hj_err(r) && strcmp(hj_err(r), "conflict") == 0,
		      "start_round (%s) should be a conflict: %s", why, hj_text(r));
	json_decref(r);
}

/* tournament.export in each format (td only): h9 has header lines (";") and one line per
 * player, CSV a header and a row per player, JSON parses with a row per player. */
static void check_exports(const struct ev *e, const char *tname)
{
	json_t *r = hc_req(e->c[0], "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
			   (json_int_t)e->id, "format", "csv");
	ERR(r, "forbidden");
	json_decref(r);

	r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
		   (json_int_t)e->id, "format", "h9");
	OK(r);
	char *h9 = strdup(hj_str(r, "data"));
	json_decref(r);
	int header = 0, lines = 0;
	bool ev_line = false, columns = false;
	char ev_want[128];
	snprintf(ev_want, sizeof ev_want, "; EV[%s]", tname);
	for (char *save, *l = strtok_r(h9, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save)) {
		if (l[0] == ';') {
			header++;
			ev_line |= strcmp(l, ev_want) == 0;
			columns |= strncmp(l, "; Num Name", 10) == 0;
		} else if (l[0]) {
			lines++;
			int found = 0;
			for (int i = 0; i < e->n; i++)
				found += strstr(l, e->names[i]) != NULL;
			ck_assert_msg(found == 1, "h9 line without exactly one player: '%s'", l);
		}
	}
	free(h9);
	ck_assert_msg(header >= 2 && ev_line && columns, "h9 header: %d lines, EV %d, columns %d",
		      header, ev_line, columns);
	ck_assert_int_eq(lines, e->n);

	r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
		   (json_int_t)e->id, "format", "csv");
	OK(r);
	char *csv = strdup(hj_str(r, "data"));
	json_decref(r);
	lines = 0;
	for (char *save, *l = strtok_r(csv, "\r\n", &save); l; l = strtok_r(NULL, "\r\n", &save)) {
		if (lines++ == 0)
			ck_assert_msg(strncmp(l, "Num,Place,Name,", 15) == 0, "CSV header: '%s'", l);
	}
	free(csv);
	ck_assert_int_eq(lines, 1 + e->n);

	r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
		   (json_int_t)e->id, "format", "json");
	OK(r);
	json_error_t jerr;
	json_t *doc = json_loads(hj_str(r, "data"), 0, &jerr);
	ck_assert_msg(doc != NULL, "JSON export does not parse: %s", jerr.text);
	ck_assert_int_eq(json_array_size(hj_get(doc, "standings")), e->n);
	json_decref(doc);
	json_decref(r);
}

static void close_all(struct ev *e)
{
	for (int i = 0; i < e->n; i++)
		hc_close(e->c[i]);
	hc_close(e->td);
}

/* ---- tests ---- */

/* A 6-player round robin: 5 rounds, every pair once; standings with SODOS and SOS; an
 * override; exports; the conflicts; the role checks. */
START_TEST(test_round_robin)
{
	static char names[MAXP][32];
	struct ev e = {0};
	players(&e, "rr", 6, names);
	e.td = director("rr_td");
	/* A player may not run a tournament. */
	json_t *r = hc_req(e.c[0], "{s:s, s:s, s:s}", "cmd", "tournament.create", "name", "mine",
			   "system", "swiss");
	ERR(r, "forbidden");
	json_decref(r);
	const char *const tb[] = {"SODOS", "SOS", "WARN"};
	e.id = tour_create(e.td, "RR Cup", "round_robin", json_pack("{s:[s,s,s]}", "tiebreaks", tb[0],
								       tb[1], tb[2]));
	r = hc_req(e.c[0], "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
		   (json_int_t)e.id, "player", e.names[1]);
	ERR(r, "forbidden");
	json_decref(r);
	for (int i = 0; i < e.n; i++)
		tour_register(&e, i);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
		   (json_int_t)e.id, "player", e.names[2]);
	ERR(r, "conflict"); /* registered already */
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
		   (json_int_t)e.id, "player", "nobody_here");
	ERR(r, "not_found");
	json_decref(r);

	/* get and list before the start (no login needed for them). */
	struct hc *anon = hc_open(D.port);
	ck_assert_ptr_nonnull(anon);
	r = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)e.id);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "tournament.name"), "RR Cup");
	ck_assert_pstr_eq(hj_str(r, "tournament.system"), "round_robin");
	ck_assert_int_eq(hj_int(r, "tournament.players"), 6);
	ck_assert_int_eq(hj_int(r, "tournament.round"), 0);
	ck_assert_int_eq(json_array_size(hj_get(r, "tournament.field")), 6);
	json_decref(r);

	static const enum outcome special[15] = {
		[1] = DRAW_BY_COUNT, [4] = BLACK_BY_COUNT, [7] = TD_FORFEIT_BLACK, [10] = TD_DRAW};
	int k = 0;
	for (int round = 1; round <= 5; round++) {
		int n = start_round(&e, round);
		ck_assert_int_eq(n, 3);
		ck_assert_int_eq(e.nbye_round[round], 0);
		if (round == 1) {
			expect_conflict_start(&e, "round 1 has no results yet");
			r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
				   (json_int_t)e.id, "player", "rr_td");
			ERR(r, "conflict"); /* registration closed */
			json_decref(r);
		}
		for (int q = e.ng - n; q < e.ng; q++, k++) {
			struct tgame *g = &e.g[q];
			enum outcome o;
			if (special[k])
				o = special[k];
			else /* the better-numbered player wins, with an upset now and then */
				o = ((g->b < g->w) != (k % 5 == 3)) ? WHITE_RESIGNS : BLACK_RESIGNS;
			if (q == e.ng - 1 && round == 2)
				expect_conflict_start(&e, "round 2 still has a game in play");
			play_out(&e, g, o);
		}
		check_pairings(&e, round);
	}
	expect_conflict_start(&e, "every round of the round robin is played");
	/* Each pair met exactly once. */
	int met[MAXP][MAXP] = {{0}};
	for (int q = 0; q < e.ng; q++) {
		met[e.g[q].b][e.g[q].w]++;
		met[e.g[q].w][e.g[q].b]++;
	}
	for (int i = 0; i < e.n; i++)
		for (int j = 0; j < e.n; j++)
			ck_assert_msg(met[i][j] == (i != j), "%s and %s met %d times", e.names[i],
				      e.names[j], met[i][j]);
	check_standings(&e, tb, 3);

	/* A result override: a resignation game turned round. */
	struct tgame *ov = NULL;
	for (int q = 0; q < e.ng && !ov; q++)
		if (strcmp(e.g[q].result, "B+R") == 0)
			ov = &e.g[q];
	ck_assert_ptr_nonnull(ov);
	r = hc_req(e.td, "{s:s, s:I, s:s, s:s}", "cmd", "tournament.result", "game", (json_int_t)ov->id,
		   "result", "W+R", "reason", "resignation");
	OK(r);
	json_decref(r);
	for (int s = 0; s < 2; s++) {
		struct hc *c = e.c[s == 0 ? ov->b : ov->w];
		json_t *ev = hc_event(c, "game.end", ov->id, T);
		ck_assert_msg(ev != NULL, "%s got no game.end for the override", c->name);
		ck_assert_pstr_eq(hj_str(ev, "result"), "W+R");
		ck_assert_int_eq(hj_bool(ev, "override"), 1);
		json_decref(ev);
	}
	snprintf(ov->result, sizeof ov->result, "W+R");
	ov->pts_b = 0;
	ov->pts_w = WIN;
	r = hc_req(anon, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)ov->id);
	ck_assert_pstr_eq(hj_str(r, "game.result"), "W+R");
	json_decref(r);
	check_standings(&e, tb, 3);
	check_pairings(&e, ov->round);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)ov->id,
		   "result", "X+1");
	ERR(r, "bad_request");
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)999999,
		   "result", "B+R");
	ERR(r, "not_found");
	json_decref(r);
	r = hc_req(e.c[0], "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)ov->id,
		   "result", "B+R");
	ERR(r, "forbidden");
	json_decref(r);

	check_exports(&e, "RR Cup");

	r = hc_req(anon, "{s:s}", "cmd", "tournament.list");
	OK(r);
	bool listed = false;
	size_t q;
	json_t *v;
	json_array_foreach(hj_get(r, "tournaments"), q, v)
		if (hj_int(v, "id") == e.id) {
			listed = true;
			ck_assert_pstr_eq(hj_str(v, "name"), "RR Cup");
			ck_assert_int_eq(hj_int(v, "round"), 5);
		}
	ck_assert_msg(listed, "tournament %lld not listed: %s", e.id, hj_text(r));
	json_decref(r);
	r = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)e.id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournament.round"), 5);
	json_decref(r);
	r = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)(e.id + 100));
	ERR(r, "not_found");
	json_decref(r);
	/* The player profile lists the event with the player's place and points, as the
	 * standings have them. */
	json_t *st = hc_req(anon, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)e.id);
	OK(st);
	json_t *top = json_array_get(hj_get(st, "standings"), 0);
	r = hc_req(anon, "{s:s, s:s}", "cmd", "player", "name", hj_str(top, "player"));
	OK(r);
	bool found = false;
	json_array_foreach(hj_get(r, "tournaments"), q, v)
		if (hj_int(v, "id") == e.id) {
			found = true;
			ck_assert_int_eq(hj_int(v, "place"), hj_int(top, "rank"));
			ck_assert_int_eq(hj_int(v, "points"), hj_int(top, "points"));
			ck_assert_pstr_eq(hj_str(v, "system"), "round_robin");
		}
	ck_assert_msg(found, "tournament %lld not in the profile: %s", e.id, hj_text(r));
	json_decref(r);
	json_decref(st);
	hc_close(anon);
	close_all(&e);
}
END_TEST

/* A 7-player, 3-round Swiss: a bye each round while the field is odd, a withdrawal after
 * round 1 (never paired again), a player joining by themself, standings with SOS. */
START_TEST(test_swiss)
{
	static char names[MAXP][32];
	struct ev e = {0};
	players(&e, "sw", 7, names);
	e.td = director("sw_td");
	const char *const tb[] = {"SOS", "WARN"}; /* the Swiss default */
	e.id = tour_create(e.td, "Swiss Open", "swiss", json_pack("{s:i}", "rounds", 3));
	for (int i = 0; i < e.n - 1; i++)
		tour_register(&e, i);
	/* The last one joins by themself (tournament.join). */
	req_ok(e.c[6], json_pack("{s:s, s:I}", "cmd", "tournament.join", "tournament", (json_int_t)e.id));

	ck_assert_int_eq(start_round(&e, 1), 3);
	ck_assert_int_eq(e.nbye_round[1], 1);
	expect_conflict_start(&e, "round 1 has no results yet");
	json_t *r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)e.id, "player", "sw_td");
	ERR(r, "conflict");
	json_decref(r);
	r = hc_req(e.c[0], "{s:s, s:I}", "cmd", "tournament.join", "tournament", (json_int_t)e.id);
	ERR(r, "conflict"); /* registered already, and closed */
	json_decref(r);
	play_out(&e, &e.g[0], WHITE_RESIGNS);
	play_out(&e, &e.g[1], TD_FORFEIT_BLACK);
	play_out(&e, &e.g[2], BLACK_BY_COUNT);
	check_pairings(&e, 1);

	/* The loser of game 0 withdraws: not paired again. */
	int gone = e.g[0].w;
	r = hc_req(e.c[1], "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
		   (json_int_t)e.id, "player", e.names[gone]);
	ERR(r, "forbidden");
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
		   (json_int_t)e.id, "player", e.names[gone]);
	OK(r);
	ck_assert_int_eq(hj_int(r, "withdrawn_after"), 1);
	json_decref(r);
	e.withdrawn[gone] = true;
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)e.id);
	OK(r);
	json_t *v;
	size_t q;
	bool marked = false;
	json_array_foreach(hj_get(r, "tournament.field"), q, v)
		if (strcmp(hj_str(v, "name"), e.names[gone]) == 0)
			marked = hj_int(v, "withdrawn_after") == 1;
	ck_assert_msg(marked, "%s should be withdrawn after round 1: %s", e.names[gone], hj_text(r));
	json_decref(r);

	ck_assert_int_eq(start_round(&e, 2), 3); /* 6 left: no bye */
	ck_assert_int_eq(e.nbye_round[2], 0);
	play_out(&e, &e.g[3], DRAW_BY_COUNT);
	play_out(&e, &e.g[4], BLACK_RESIGNS);
	play_out(&e, &e.g[5], WHITE_RESIGNS);
	check_pairings(&e, 2);
	ck_assert_int_eq(start_round(&e, 3), 3);
	play_out(&e, &e.g[6], TD_DRAW);
	play_out(&e, &e.g[7], WHITE_RESIGNS);
	play_out(&e, &e.g[8], BLACK_RESIGNS);
	check_pairings(&e, 3);
	expect_conflict_start(&e, "the 3 rounds are played");
	/* No rematches in a Swiss. */
	for (int a = 0; a < e.ng; a++)
		for (int b = a + 1; b < e.ng; b++)
			ck_assert_msg(!((e.g[a].b == e.g[b].b && e.g[a].w == e.g[b].w) ||
					(e.g[a].b == e.g[b].w && e.g[a].w == e.g[b].b)),
				      "rematch: games %lld and %lld", e.g[a].id, e.g[b].id);
	check_standings(&e, tb, 2);
	/* Standings after round 1 only: the bye counted, the later rounds not. */
	r = hc_req(e.td, "{s:s, s:I, s:i}", "cmd", "tournament.standings", "tournament",
		   (json_int_t)e.id, "round", 1);
	OK(r);
	int byer = e.bye_round[1][0];
	json_array_foreach(hj_get(r, "standings"), q, v)
		if (strcmp(hj_str(v, "player"), e.names[byer]) == 0)
			ck_assert_int_eq(hj_int(v, "points"), BYE_POINTS);
	json_decref(r);
	check_exports(&e, "Swiss Open");
	close_all(&e);
}
END_TEST

/* A 5-player knockout: a bracket of 8, so the top three seeds (registration order: equal
 * ratings) have byes in round 1; three rounds to a single winner; then the event is over. */
/* Regressions from review: a time control the clocks refuse is refused at creation (it used to
 * spin the server's timer); a forfeit by withdrawal moves no rating; a drawn knockout game is
 * replayed in the same round with colours swapped. */
START_TEST(test_review_regressions)
{
	struct hc *td = director("rv_td");
	struct hc *pa = login("rv_a"), *pb = login("rv_b"), *pc = login("rv_c");
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:{s:s, s:i, s:i}}", "cmd", "tournament.create", "name",
			   "RV bad clock", "system", "round_robin", "time", "system", "fischer", "main_s", 0,
			   "increment_s", 10);
	ERR(r, "bad_request");
	json_decref(r);

	r = hc_req(td, "{s:s, s:s, s:s}", "cmd", "tournament.create", "name", "RV RR", "system", "round_robin");
	OK(r);
	json_int_t rr = hj_int(r, "tournament");
	json_decref(r);
	const char *names[] = {"rv_a", "rv_b", "rv_c"};
	for (int i = 0; i < 3; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", rr, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	struct timeval tv;
	gettimeofday(&tv, NULL);
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", rr, "start_at",
		   (double)tv.tv_sec + 3600);
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", rr, "player", "rv_b");
	OK(r);
	json_decref(r);
	for (int i = 0; i < 3; i++) {
		r = hc_req(td, "{s:s, s:s}", "cmd", "player", "name", names[i]);
		OK(r);
		ck_assert_msg(hj_num(r, "player.rating") == 1500 && hj_num(r, "player.rd") == 350,
			      "a withdrawal forfeit moved %s's rating: %s", names[i], hj_text(r));
		json_decref(r);
	}

	r = hc_req(td, "{s:s, s:s, s:s, s:f}", "cmd", "tournament.create", "name", "RV KO", "system",
		   "knockout", "komi", 0.0);
	OK(r);
	json_int_t ko = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 3; i += 2) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", ko, "player", names[i]);
		OK(r);
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", ko);
	OK(r);
	json_t *p0 = json_array_get(hj_get(r, "pairings"), 0);
	json_int_t g1 = hj_int(p0, "game");
	char black[32];
	snprintf(black, sizeof black, "%s", hj_str(p0, "black"));
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", g1, "result", "0");
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", ko);
	OK(r);
	ck_assert_msg(hj_bool(r, "replay"), "a drawn knockout game is not replayed: %s", hj_text(r));
	ck_assert_int_eq(hj_int(r, "round"), 1);
	json_t *p1 = json_array_get(hj_get(r, "pairings"), 0);
	ck_assert_pstr_eq(hj_str(p1, "white"), black); /* colours swapped */
	json_int_t g2 = hj_int(p1, "game");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game", g2, "result", "B+R");
	OK(r);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", ko);
	ERR(r, "conflict"); /* decided: the knockout has its winner */
	json_decref(r);
	hc_close(pa);
	hc_close(pb);
	hc_close(pc);
	hc_close(td);
}
END_TEST

START_TEST(test_knockout)
{
	static char names[MAXP][32];
	struct ev e = {0};
	players(&e, "ko", 5, names);
	e.knockout = true;
	e.td = director("ko_td");
	e.id = tour_create(e.td, "KO Cup", "knockout", NULL);
	for (int i = 0; i < e.n; i++)
		tour_register(&e, i);
	/* Round 1: 4 v 5, byes for seeds 1-3. */
	ck_assert_int_eq(start_round(&e, 1), 1);
	ck_assert_int_eq(e.nbye_round[1], 3);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(e.byes[i], 1);
	ck_assert_msg((e.g[0].b == 3 && e.g[0].w == 4) || (e.g[0].b == 4 && e.g[0].w == 3),
		      "round 1 should pair seeds 4 and 5");
	play_out(&e, &e.g[0], e.g[0].b == 3 ? WHITE_RESIGNS : BLACK_RESIGNS); /* seed 4 wins */
	check_pairings(&e, 1);
	/* Round 2: 1 v 4, 2 v 3. */
	ck_assert_int_eq(start_round(&e, 2), 2);
	ck_assert_int_eq(e.nbye_round[2], 0);
	int winner = -1;
	for (int q = 1; q <= 2; q++) {
		struct tgame *g = &e.g[q];
		int lo = g->b < g->w ? g->b : g->w, hi = g->b ^ g->w ^ lo;
		ck_assert_msg((lo == 0 && hi == 3) || (lo == 1 && hi == 2),
			      "round 2 pairs %s with %s", e.names[lo], e.names[hi]);
		/* Seed 1 wins; seed 3 beats seed 2. */
		int win = lo == 0 ? 0 : 2;
		play_out(&e, g, g->b == win ? WHITE_RESIGNS : BLACK_RESIGNS);
	}
	check_pairings(&e, 2);
	/* The final: seed 1 v seed 3; seed 3 wins. */
	ck_assert_int_eq(start_round(&e, 3), 1);
	struct tgame *f = &e.g[3];
	ck_assert_msg((f->b == 0 && f->w == 2) || (f->b == 2 && f->w == 0), "the final pairs %s and %s",
		      e.names[f->b], e.names[f->w]);
	winner = 2;
	play_out(&e, f, f->b == winner ? WHITE_RESIGNS : BLACK_RESIGNS);
	expect_conflict_start(&e, "the knockout has a winner");
	json_t *r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)e.id);
	OK(r);
	ck_assert_str_eq(hj_str(r, "score"), "KO");
	ck_assert_pstr_eq(hj_str(r, "standings.0.player"), e.names[winner]);
	ck_assert_int_eq(hj_int(r, "standings.0.rank"), 1);
	ck_assert_msg(hj_int(r, "standings.1.rank") > 1, "a single winner: %s", hj_text(r));
	/* The finalist lost in round 3: 2 rounds survived; the winner 3. */
	ck_assert_msg(fabs(hj_num(r, "standings.0.score") - 3) < EPS, "winner's KO: %s", hj_text(r));
	ck_assert_pstr_eq(hj_str(r, "standings.1.player"), e.names[0]);
	ck_assert_msg(fabs(hj_num(r, "standings.1.score") - 2) < EPS, "finalist's KO: %s", hj_text(r));
	json_decref(r);
	close_all(&e);
}
END_TEST

/* ---- issue 15: handicap McMahon, handicap komi, refused rounds, double forfeits ---- */

#ifndef GNUGO_PATH
#define GNUGO_PATH ""
#endif

/* A player registered with a declared rank ("2k", "1d"), logged in. */
static struct hc *login_ranked(const char *name, const char *rank)
{
	char pw[128];
	struct hc *c = hc_open(D.port);
	ck_assert_ptr_nonnull(c);
	snprintf(pw, sizeof pw, "%s%s", name, HARNESS_PASSWORD_SUFFIX);
	json_t *r = hc_req(c, "{s:s, s:s, s:s, s:s}", "cmd", "register", "name", name, "password", pw,
			   "rank", rank);
	OK(r);
	json_decref(r);
	ck_assert_msg(hc_login_as(c, name), "could not log in %s", name);
	return c;
}

/* A McMahon with handicap on a size x size board, players registered; returns its id and
 * the create reply's handicap_max in *cap. `more`: extra create fields (taken). */
static json_int_t mcmahon_handicap(struct hc *td, const char *name, int size, json_t *more,
				   const char *const *players, int n, long long *cap)
{
	json_t *req = json_pack("{s:s, s:s, s:s, s:i, s:f, s:b, s:b, s:i}", "cmd", "tournament.create",
				"name", name, "system", "mcmahon", "size", size, "komi", 7.5, "rated", 0,
				"handicap", 1, "rounds", 1);
	if (more)
		json_object_update(req, more);
	json_decref(more);
	json_t *r = hc_reqj(td, req);
	OK(r);
	json_int_t id = hj_int(r, "tournament");
	*cap = hj_int(r, "handicap_max");
	ck_assert_msg(hj_get(r, "handicap_max") != NULL, "no handicap_max: %s", hj_text(r));
	json_decref(r);
	for (int i = 0; i < n; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", id,
			   "player", players[i]);
		OK(r);
		json_decref(r);
	}
	return id;
}

/* The record of game g as the server writes it (malloc'd). */
static char *sgf_of(struct hc *c, long long g)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)g);
	OK(r);
	char *s = strdup(hj_str(r, "sgf"));
	json_decref(r);
	return s;
}

static void ping_ok(struct hc *c)
{
	json_t *r = hc_req(c, "{s:s}", "cmd", "ping");
	OK(r);
	json_decref(r);
}

/* Issue 15 (4): a 2k and a 1d in a handicap McMahon (correction 1): one stone. start_round
 * used to make tengend exit (referee_init refused handicap 1); now the game has handicap 1:
 * no stones, Black (the 2k) to move first, komi 0.5 (handicap_komi's default), no HA in the
 * SGF, and the server is still up. */
START_TEST(test_mcmahon_handicap_one)
{
	struct hc *td = director("h1_td");
	struct hc *kyu = login_ranked("h1_kyu", "2k"), *dan = login_ranked("h1_dan", "1d");
	const char *names[] = {"h1_kyu", "h1_dan"};
	long long cap;
	json_int_t id = mcmahon_handicap(td, "H1 McMahon", BOARD, NULL, names, 2, &cap);
	ck_assert_int_eq(cap, 9);
	json_t *r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
			   "start_at", wall_s() + START_DELAY_S);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert_int_eq(hj_int(r, "pairings.0.handicap"), 1);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.black"), "h1_kyu");
	ck_assert_msg(hj_get(r, "pairings.0.handicap_wanted") == NULL, "not capped: %s", hj_text(r));
	long long g = hj_int(r, "pairings.0.game");
	json_decref(r);
	json_t *e = hc_event(kyu, "game.start", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_pstr_eq(hj_str(e, "color"), "B");
	ck_assert_int_eq(hj_int(e, "handicap"), 1);
	ck_assert_msg(hj_num(e, "komi") == 0.5, "komi: %s", hj_text(e));
	json_decref(e);
	e = hc_event(kyu, "game.begin", g, T); /* to_move is set once the game begins */
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.to_move"), "B");
	ck_assert_int_eq(hj_int(r, "game.handicap"), 1);
	json_t *board = hj_get(r, "game.board");
	for (size_t i = 0; i < json_array_size(board); i++)
		ck_assert_str_eq(json_string_value(json_array_get(board, i)), ".........");
	json_decref(r);
	char *sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "KM[0.5]") && !strstr(sgf, "HA[") && !strstr(sgf, "AB["),
		      "sgf: %s", sgf);
	free(sgf);
	ping_ok(td);
	hc_close(kyu);
	hc_close(dan);
	hc_close(td);
}
END_TEST

/* Issue 15 (4): small boards cap the handicap at what they hold, and say so: 5x5 (10k v 1d:
 * 9 wanted, 1 given: Black first, no stones) and 7x7 (8k v 1d: 7 wanted, 4 given). */
START_TEST(test_mcmahon_handicap_capped)
{
	struct hc *td = director("hc_td");
	static const struct { int size; const char *kyu; int cap, wanted; } cases[] = {
		{5, "10k", 1, 9}, {7, "8k", 4, 7}};
	for (int k = 0; k < 2; k++) {
		char a[32], b[32], tname[32];
		snprintf(a, sizeof a, "hc_kyu%d", k);
		snprintf(b, sizeof b, "hc_dan%d", k);
		snprintf(tname, sizeof tname, "HC %dx%d", cases[k].size, cases[k].size);
		struct hc *ca = login_ranked(a, cases[k].kyu), *cb = login_ranked(b, "1d");
		const char *names[] = {a, b};
		long long cap;
		json_int_t id = mcmahon_handicap(td, tname, cases[k].size, NULL, names, 2, &cap);
		ck_assert_int_eq(cap, cases[k].cap);
		json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", id);
		OK(r);
		ck_assert_int_eq(hj_int(r, "tournament.settings.handicap_max"), cases[k].cap);
		json_decref(r);
		r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
			   "start_at", wall_s() + START_DELAY_S);
		OK(r);
		ck_assert_int_eq(hj_int(r, "pairings.0.handicap"), cases[k].cap);
		ck_assert_int_eq(hj_int(r, "pairings.0.handicap_wanted"), cases[k].wanted);
		ck_assert_pstr_eq(hj_str(r, "pairings.0.black"), a);
		long long g = hj_int(r, "pairings.0.game");
		json_decref(r);
		char needle[64];
		snprintf(needle, sizeof needle, "handicap=%d handicap_wanted=%d", cases[k].cap,
			 cases[k].wanted);
		ck_assert_msg(hd_log_has(&D, needle), "the log does not say '%s'", needle);
		json_t *e = hc_event(ca, "game.begin", g, T); /* to_move is set once it begins */
		ck_assert_ptr_nonnull(e);
		json_decref(e);
		r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)g);
		OK(r);
		ck_assert_pstr_eq(hj_str(r, "game.to_move"), cases[k].cap == 1 ? "B" : "W");
		ck_assert_int_eq(hj_int(r, "game.handicap"), cases[k].cap);
		json_decref(r);
		hc_close(ca);
		hc_close(cb);
	}
	ping_ok(td);
	hc_close(td);
}
END_TEST

/* Run `cmd` through the shell; its stdout's first line ending in a result ("= B+18.5" from
 * GTP, or tengen score's JSON) into out. Returns the exit status. */
static int run_capture(const char *cmd, char *out, size_t n)
{
	FILE *f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	size_t len = fread(out, 1, n - 1, f);
	out[len] = '\0';
	return pclose(f);
}

/* Issue 15 (5): a handicap game gets handicap_komi (default 0.5), not the even-game komi 7.5;
 * the count, KM and the engine's komi are the same effective komi, 0.5 + 2 stones = 2.5. A 3k
 * v 1d on 9x9, two stones (C3, G7), counted all alive: Black's area 51 (columns A-D and rows
 * 7-9), White's 30: B+18.5. GNU Go, an independent reader, loads the record the server wrote
 * (loadsgf) and counts it with Chinese rules: the same result (it counts with KM and ignores HA,
 * so a KM of 0.5 would have given B+20.5). tengen score of the record agrees too. */
START_TEST(test_handicap_komi_counted_as_recorded)
{
	struct hc *td = director("hk_td");
	struct hc *kyu = login_ranked("hk_kyu", "3k"), *dan = login_ranked("hk_dan", "1d");
	const char *names[] = {"hk_kyu", "hk_dan"};
	long long cap;
	json_int_t id = mcmahon_handicap(td, "HK McMahon", BOARD,
					 json_pack("{s:{s:s}}", "rules", "counting", "all-alive"),
					 names, 2, &cap);
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "pairings.0.handicap"), 2);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.black"), "hk_kyu");
	long long g = hj_int(r, "pairings.0.game");
	json_decref(r);
	json_t *e = hc_event(kyu, "game.start", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(hj_num(e, "komi") == 0.5, "handicap komi: %s", hj_text(e));
	json_decref(e);
	e = hc_event(kyu, "game.begin", g, T);
	ck_assert_ptr_nonnull(e);
	json_decref(e);
	req_ok(kyu, json_pack("{s:s, s:I}", "cmd", "join", "game", (json_int_t)g));
	req_ok(dan, json_pack("{s:s, s:I}", "cmd", "join", "game", (json_int_t)g));
	static const char *const seq[] = {
		"E1", "D1", "E2", "D2", "E3", "D3", "E4", "D4", "E5", "D5", "E6", "D6", "F6", "D7",
		"G6", "E7", "H6", "F7", "J6", "H7", "pass", "J7", "pass", "pass"};
	for (size_t i = 0; i < sizeof seq / sizeof *seq; i++)
		mv(i % 2 ? kyu : dan, g, seq[i]); /* White first after a handicap */
	e = hc_event(kyu, "game.end", g, T);
	ck_assert_ptr_nonnull(e);
	ck_assert_pstr_eq(hj_str(e, "result"), "B+18.5");
	ck_assert_msg(hj_num(e, "score.komi") == 2.5 && hj_num(e, "score.black") == 51 &&
		      hj_num(e, "score.white") == 30, "score: %s", hj_text(e));
	json_decref(e);
	char *sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "KM[2.5]") && strstr(sgf, "HA[2]") && strstr(sgf, "RE[B+18.5]"),
		      "sgf: %s", sgf);
	char path[HARNESS_PATH_MAX + 16], cmd[2 * HARNESS_PATH_MAX + 256], out[4096];
	snprintf(path, sizeof path, "%s/hk.sgf", D.dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(sgf, f);
	fclose(f);
	free(sgf);
	/* our own reader: tengen score (TENGEN, else ./client/tengen) */
	const char *cli = getenv("TENGEN") && *getenv("TENGEN") ? getenv("TENGEN") : "./client/tengen";
	snprintf(cmd, sizeof cmd, "'%s' score '%s' --counting all-alive", cli, path);
	ck_assert_int_eq(run_capture(cmd, out, sizeof out), 0);
	ck_assert_msg(strstr(out, "\"result\": \"B+18.5\"") || strstr(out, "\"result\":\"B+18.5\""),
		      "tengen score: %s", out);
	if (GNUGO_PATH[0] && access(GNUGO_PATH, X_OK) == 0) {
		snprintf(cmd, sizeof cmd, "printf 'loadsgf %s\\nget_komi\\nfinal_score\\nquit\\n' | "
			 "'%s' --mode gtp --chinese-rules 2>/dev/null", path, GNUGO_PATH);
		ck_assert_int_eq(run_capture(cmd, out, sizeof out), 0);
		ck_assert_msg(strstr(out, " 2.5\n") && strstr(out, "= B+18.5\n"),
			      "GNU Go (Chinese rules) on the record: %s", out);
	} else {
		printf("test_handicap_komi_counted_as_recorded: no GNU Go, its check skipped\n");
	}
	hc_close(kyu);
	hc_close(dan);
	hc_close(td);
}
END_TEST

/* Issue 15 (4): a round one of whose games cannot be created is an error reply that changes
 * nothing: the stored settings are made impossible behind the server's back (size 30, no
 * board), start_round answers `conflict`, the server answers ping, the round counter stays
 * 0 and the tournament has no game; with the size restored the same round 1 is paired. */
START_TEST(test_refused_round_changes_nothing)
{
	struct hc *td = director("rf_td");
	struct hc *a = login_ranked("rf_a", "2k"), *b = login_ranked("rf_b", "1d");
	const char *names[] = {"rf_a", "rf_b"};
	long long cap;
	json_int_t id = mcmahon_handicap(td, "RF McMahon", BOARD, NULL, names, 2, &cap);
	char cmd[HARNESS_PATH_MAX + 256];
	snprintf(cmd, sizeof cmd, "sqlite3 '%s' \".timeout 5000\" \"UPDATE tournaments SET state = "
		 "json_set(state, '$.settings.size', 30) WHERE id = %lld\"", D.db, (long long)id);
	ck_assert_int_eq(system(cmd), 0);
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament", id);
	ERR(r, "conflict");
	json_decref(r);
	ping_ok(td);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", id);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournament.round"), 0);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "games", "tournament", id);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "games")), 0);
	json_decref(r);
	snprintf(cmd, sizeof cmd, "sqlite3 '%s' \".timeout 5000\" \"UPDATE tournaments SET state = "
		 "json_set(state, '$.settings.size', 9) WHERE id = %lld\"", D.db, (long long)id);
	ck_assert_int_eq(system(cmd), 0);
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
		   "start_at", wall_s() + 3600);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	json_decref(r);
	hc_close(a);
	hc_close(b);
	hc_close(td);
}
END_TEST

/* Issue 15 (7): a double forfeit (both absent past the lateness limit, Art. 22.1) has one
 * meaning: a double loss (Art. 17.5, 23.1). Stored Void with reason double_forfeit; the SGF's
 * RE[Void] carries the comment that says so; the standings give both 0 points and a loss;
 * tournament.pairings says double_loss; the h9 export marks it unplayed ("-!") for both. A
 * director cannot store double_forfeit with another result. */
START_TEST(test_double_forfeit_one_meaning)
{
	struct hc *td = director("df_td");
	struct hc *a = login("df_a"), *b = login("df_b");
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:i, s:i, s:b, s:i}", "cmd", "tournament.create",
			   "name", "DF Swiss", "system", "swiss", "size", BOARD, "lateness_limit_s", 1,
			   "rated", 0, "rounds", 1);
	OK(r);
	json_int_t id = hj_int(r, "tournament");
	json_decref(r);
	const char *names[] = {"df_a", "df_b"};
	for (int i = 0; i < 2; i++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", id,
			   "player", names[i]);
		OK(r);
		json_decref(r);
	}
	r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament", id,
		   "start_at", wall_s() + START_DELAY_S);
	OK(r);
	long long g = hj_int(r, "pairings.0.game");
	json_decref(r);
	json_t *e = hc_event(a, "game.end", g, T);
	ck_assert_msg(e != NULL, "no double forfeit");
	ck_assert_pstr_eq(hj_str(e, "result"), "Void");
	ck_assert_pstr_eq(hj_str(e, "reason"), "double_forfeit");
	json_decref(e);
	char *sgf = sgf_of(td, g);
	ck_assert_msg(strstr(sgf, "RE[Void]") && strstr(sgf, "C[Double loss: both players forfeited"),
		      "sgf: %s", sgf);
	free(sgf);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", id);
	OK(r);
	for (int i = 0; i < 2; i++) {
		char p[64];
		snprintf(p, sizeof p, "standings.%d", i);
		json_t *row = hj_get(r, p);
		ck_assert_int_eq(hj_int(row, "points"), 0);
		ck_assert_int_eq(hj_int(row, "losses"), 1);
		ck_assert_int_eq(hj_int(row, "wins"), 0);
	}
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament", id, "round", 1);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "pairings.0.result"), "double_loss");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", id, "format", "h9");
	OK(r);
	const char *h9 = hj_str(r, "data");
	ck_assert_msg(h9 && strstr(h9, " 2-!") && strstr(h9, " 1-!"), "h9: %s", h9 ? h9 : "null");
	ck_assert_msg(!strstr(h9, "-/"), "a double forfeit written as played: %s", h9);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I, s:s, s:s}", "cmd", "tournament.result", "game", (json_int_t)g,
		   "result", "B+R", "reason", "double_forfeit");
	ERR(r, "bad_request");
	json_decref(r);
	hc_close(a);
	hc_close(b);
	hc_close(td);
}
END_TEST

static Suite *tournament_suite(void)
{
	Suite *s = suite_create("tournament");
	TCase *tc = tcase_create("tournament");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_round_robin);
	tcase_add_test(tc, test_swiss);
	tcase_add_test(tc, test_knockout);
	tcase_add_test(tc, test_review_regressions);
	tcase_add_test(tc, test_mcmahon_handicap_one);
	tcase_add_test(tc, test_mcmahon_handicap_capped);
	tcase_add_test(tc, test_handicap_komi_counted_as_recorded);
	tcase_add_test(tc, test_refused_round_changes_nothing);
	tcase_add_test(tc, test_double_forfeit_one_meaning);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tournament_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
