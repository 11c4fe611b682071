/* tests/support/tourtest: the tournament integration tests' daemon, players and event as the test
 * keeps it (tourtest.h says what each helper does). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "tourtest.h"
#include "h9check.h"

struct hd tt_d;

double tt_wall_s(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

void tt_setup(void)
{
	st_start(&tt_d, NULL);
}

void tt_teardown(void)
{
	st_finish(&tt_d);
}

struct hc *tt_login(const char *name)
{
	return st_login(&tt_d, name);
}

/* A tournament director: registered, granted td, logged in again (the role applies from the
 * next login). */
struct hc *tt_director(const char *name)
{
	hc_close(tt_login(name));
	ck_assert_int_eq(hd_grant(&tt_d, name, "td"), 0);
	return tt_login(name);
}

static int idx_of(const struct tt_event *e, const char *name)
{
	for (int i = 0; i < e->n; i++)
		if (name && strcmp(e->names[i], name) == 0)
			return i;
	ck_abort_msg("unknown player '%s'", name ? name : "(null)");
	return -1;
}

long long tt_create(struct hc *td, const char *name, const char *system, json_t *more)
{
	json_t *req = json_pack("{s:s, s:s, s:s, s:i, s:f, s:b}", "cmd", "tournament.create", "name",
				name, "system", system, "size", TT_BOARD, "komi", 0.0, "rated", 0);
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

void tt_register(struct tt_event *e, int i)
{
	json_t *r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)e->id, "player", e->names[i]);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player"), e->names[i]);
	json_decref(r);
}

/* Log the players in (names "<prefix>_<i>"). */
void tt_players(struct tt_event *e, const char *prefix, int n, char store[][32])
{
	e->n = n;
	for (int i = 0; i < n; i++) {
		snprintf(store[i], 32, "%s_%d", prefix, i);
		e->names[i] = store[i];
		e->c[i] = tt_login(store[i]);
	}
}

/* Start the next round: checks the reply (round number, every active player paired or
 * given a bye exactly once, game.start to the players), adds its games to e. Returns the
 * number of games. */
int tt_start_round(struct tt_event *e, int round)
{
	json_t *r = hc_req(e->td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)e->id, "start_at", tt_wall_s() + TT_START_DELAY_S);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), round);
	int seen[TT_MAXP] = {0};
	json_t *pairs = hj_get(r, "pairings"), *byes = hj_get(r, "byes");
	size_t k;
	json_t *p;
	int before = e->ng;
	json_array_foreach(pairs, k, p) {
		ck_assert_int_lt(e->ng, TT_MAXG);
		struct tt_game *g = &e->g[e->ng++];
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
		ck_assert_int_eq(hj_int(ev, "size"), TT_BOARD);
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

void tt_req_ok(struct hc *c, json_t *req)
{
	json_t *r = hc_reqj(c, req);
	ck_assert_msg(hj_ok(r), "%s: %s", c->name, hj_text(r));
	json_decref(r);
}

void tt_mv(struct hc *c, long long g, const char *v)
{
	tt_req_ok(c, json_pack("{s:s, s:I, s:s}", "cmd", "play", "game", (json_int_t)g, "vertex", v));
}

static void dead_none(struct hc *c, long long g)
{
	tt_req_ok(c, json_pack("{s:s, s:I, s:[]}", "cmd", "dead", "game", (json_int_t)g, "stones"));
}

/* Play game g out to `o`; checks game.end at both players and records the result. */
void tt_play_out(struct tt_event *e, struct tt_game *g, enum tt_outcome o)
{
	struct hc *b = e->c[g->b], *w = e->c[g->w];
	json_t *ev = hc_event(b, "game.begin", g->id, T);
	ck_assert_msg(ev != NULL, "game %lld did not begin", g->id);
	json_decref(ev);
	const char *want = NULL, *reason = NULL;
	switch (o) {
	case TT_BLACK_RESIGNS:
		tt_req_ok(b, json_pack("{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g->id));
		want = "W+R", reason = "resignation";
		break;
	case TT_WHITE_RESIGNS:
		tt_mv(b, g->id, "E5");
		tt_req_ok(w, json_pack("{s:s, s:I}", "cmd", "resign", "game", (json_int_t)g->id));
		want = "B+R", reason = "resignation";
		break;
	case TT_BLACK_BY_COUNT: /* Black 2 stones + half of 78, White 1 + half of 78: B+1 */
		tt_mv(b, g->id, "C3");
		tt_mv(w, g->id, "G7");
		tt_mv(b, g->id, "C7");
		tt_mv(w, g->id, "pass");
		tt_mv(b, g->id, "pass");
		dead_none(b, g->id);
		dead_none(w, g->id);
		want = "B+1", reason = "score";
		break;
	case TT_DRAW_BY_COUNT: /* one stone each, the rest shared: 40.5 each, komi 0 */
		tt_mv(b, g->id, "C3");
		tt_mv(w, g->id, "G7");
		tt_mv(b, g->id, "pass");
		tt_mv(w, g->id, "pass");
		dead_none(w, g->id);
		dead_none(b, g->id);
		want = "0", reason = "score";
		break;
	case TT_TD_FORFEIT_BLACK:
		tt_req_ok(e->td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
					(json_int_t)g->id, "result", "W+F"));
		want = "W+F", reason = "adjudicated";
		break;
	case TT_TD_DRAW:
		tt_req_ok(e->td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
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
	g->forfeit = o == TT_TD_FORFEIT_BLACK;
	g->pts_b = want[0] == 'B' ? TT_WIN : want[0] == 'W' ? 0 : TT_DRAW;
	g->pts_w = TT_WIN - g->pts_b;
	if (e->knockout && g->pts_b != TT_DRAW) /* out after a loss */
		e->out[g->pts_b == TT_WIN ? g->w : g->b] = true;
}

/* Points of every player (games + byes). */
static void points(const struct tt_event *e, int *pts)
{
	for (int i = 0; i < e->n; i++)
		pts[i] = e->byes[i] * TT_BYE_POINTS;
	for (int k = 0; k < e->ng; k++) {
		pts[e->g[k].b] += e->g[k].pts_b;
		pts[e->g[k].w] += e->g[k].pts_w;
	}
}

/* The test's own tie-breaks (docs/tiebreaks.md): over games played on the board (forfeits
 * and byes are unplayed rounds: a virtual opponent of score 0), SOS = sum of opponents'
 * points, SODOS = points of opponents beaten + half of those drawn. */
static void tiebreaks(const struct tt_event *e, const int *pts, double *sos, double *sodos)
{
	for (int i = 0; i < e->n; i++)
		sos[i] = sodos[i] = 0;
	for (int k = 0; k < e->ng; k++) {
		const struct tt_game *g = &e->g[k];
		if (g->forfeit)
			continue;
		sos[g->b] += pts[g->w];
		sos[g->w] += pts[g->b];
		sodos[g->b] += g->pts_b == TT_WIN ? pts[g->w] : g->pts_b == TT_DRAW ? pts[g->w] / 2.0 : 0;
		sodos[g->w] += g->pts_w == TT_WIN ? pts[g->b] : g->pts_w == TT_DRAW ? pts[g->b] / 2.0 : 0;
	}
}

/* tournament.standings against the test's computation: every player once, points, wins,
 * draws, losses, byes, the SOS / SODOS / WARN tie-breaks present, rows ordered by points
 * then the tie-breaks `tb` (ntb of them, as listed by the event), places shared only by
 * rows equal on all of them (competition ranking). */
void tt_check_standings(const struct tt_event *e, const char *const *tb, int ntb)
{
	json_t *r = hc_req(e->c[0], "{s:s, s:I}", "cmd", "tournament.standings", "tournament",
			   (json_int_t)e->id);
	OK(r);
	int pts[TT_MAXP];
	double sos[TT_MAXP], sodos[TT_MAXP];
	points(e, pts);
	tiebreaks(e, pts, sos, sodos);
	json_t *rows = hj_get(r, "standings");
	ck_assert_msg(json_array_size(rows) == (size_t)e->n, "%zu rows for %d players: %s",
		      json_array_size(rows), e->n, hj_text(r));
	int seen[TT_MAXP] = {0};
	double prev[1 + 8] = {0};
	int prev_rank = 0;
	for (size_t k = 0; k < json_array_size(rows); k++) {
		json_t *row = json_array_get(rows, k);
		int i = idx_of(e, hj_str(row, "player"));
		seen[i]++;
		int wins = 0, draws = 0, losses = 0;
		for (int q = 0; q < e->ng; q++) {
			const struct tt_game *g = &e->g[q];
			int mine = g->b == i ? g->pts_b : g->w == i ? g->pts_w : -1;
			wins += mine == TT_WIN;
			draws += mine == TT_DRAW;
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
			ck_assert_msg(fabs(v - want) < TT_EPS, "%s: %s %g, expected %g (%s)", e->names[i],
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
				cmp = key[t] > prev[t] + TT_EPS ? 1 : key[t] < prev[t] - TT_EPS ? -1 : 0;
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
void tt_check_pairings(const struct tt_event *e, int round)
{
	json_t *r = hc_req(e->c[0], "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)e->id, "round", round);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), round);
	int n = 0;
	for (int k = 0; k < e->ng; k++) {
		const struct tt_game *g = &e->g[k];
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
		/* Results: as recorded when won over the board (B+R, W+3.5), else by kind:
		 * B+F / W+F, 0. */
		char want[16];
		if (g->forfeit)
			snprintf(want, sizeof want, "%c+F", g->result[0]);
		else
			snprintf(want, sizeof want, "%s", g->result);
		ck_assert_msg(strcmp(res, want) == 0, "round %d game %lld: result %s, expected %s",
			      round, g->id, res, want);
	}
	ck_assert_int_eq(json_array_size(hj_get(r, "pairings")), n);
	ck_assert_int_eq(json_array_size(hj_get(r, "byes")), e->nbye_round[round]);
	for (int k = 0; k < e->nbye_round[round]; k++)
		ck_assert(hj_has_str(r, "byes", e->names[e->bye_round[round][k]]));
	json_decref(r);
}

void tt_expect_conflict_start(const struct tt_event *e, const char *why)
{
	json_t *r = hc_req(e->td, "{s:s, s:I}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)e->id);
	ck_assert_msg(hj_err(r) && strcmp(hj_err(r), "conflict") == 0,
		      "start_round (%s) should be a conflict: %s", why, hj_text(r));
	json_decref(r);
}

/* The server's h9 read by OpenGotha's own importer (tests/support/h9check.h; skipped without
 * java or TENGEN_OPENGOTHA_DIR): every player once, with its name as the first-name-less
 * account name; every game with a result once, with its round, colours and result (a draw
 * reads as unknown there, a forfeit as by default); nothing else. */
static void tt_check_h9_opengotha(const struct tt_event *e)
{
	static char got[65536];
	if (!h9check_ready())
		return;
	json_t *r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
			   (json_int_t)e->id, "format", "h9");
	OK(r);
	int rounds = 0, games = 0, nplayers = 0, ngames = 0;
	for (int k = 0; k < e->ng; k++) {
		if (e->g[k].round > rounds)
			rounds = e->g[k].round;
		games += strchr("BW0", e->g[k].result[0]) != NULL && e->g[k].result[0];
	}
	ck_assert_int_eq(h9check_read(hj_str(r, "data"), rounds, got, sizeof got), 0);
	json_decref(r);
	const char *by_num[TT_MAXP + 1] = {0};
	for (char *save, *l = strtok_r(got, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[64], res[8];
		int num, rd, b, w, h;
		if (sscanf(l, "player %d %63[^|]|x|", &num, name) == 2) {
			int i = 0;
			while (i < e->n && strcmp(e->names[i], name) != 0)
				i++;
			ck_assert_msg(i < e->n && num >= 1 && num <= TT_MAXP && !by_num[num],
				      "OpenGotha read an unknown or repeated player: %s", l);
			by_num[num] = e->names[i];
			nplayers++;
		} else if (sscanf(l, "game %d %d %d %d %7s", &rd, &b, &w, &h, res) == 5) {
			ck_assert_msg(b >= 1 && b <= TT_MAXP && w >= 1 && w <= TT_MAXP && by_num[b] &&
				      by_num[w], "OpenGotha read a game of unknown players: %s", l);
			int k = 0;
			for (; k < e->ng; k++) {
				const struct tt_game *g = &e->g[k];
				if (g->round == rd && strcmp(e->names[g->b], by_num[b]) == 0 &&
				    strcmp(e->names[g->w], by_num[w]) == 0)
					break;
			}
			ck_assert_msg(k < e->ng, "OpenGotha read a game not played: %s", l);
			const struct tt_game *g = &e->g[k];
			char want[8];
			if (g->result[0] == '0')
				snprintf(want, sizeof want, "?");
			else
				snprintf(want, sizeof want, "%c+%s", g->result[0], g->forfeit ? "!" : "");
			ck_assert_msg(strcmp(res, want) == 0, "OpenGotha read %s for %s (%s)", l,
				      g->result, want);
			ngames++;
		} else {
			ck_assert_msg(strncmp(l, "absent ", 7) == 0, "OpenGotha said: %s", l);
		}
	}
	ck_assert_int_eq(nplayers, e->n);
	ck_assert_int_eq(ngames, games);
}

/* tournament.export in each format (td only): h9 has header lines (";") and one line per
 * player, CSV a header and a row per player, JSON parses with a row per player, HTML is a
 * page naming every player. */
void tt_check_exports(const struct tt_event *e, const char *tname)
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
			columns |= strncmp(l, "; Pl Name", 9) == 0;
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
	tt_check_h9_opengotha(e);

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

	r = hc_req(e->td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
		   (json_int_t)e->id, "format", "html");
	OK(r);
	const char *html = hj_str(r, "data");
	ck_assert_msg(html && strncmp(html, "<!DOCTYPE html>", 15) == 0 &&
		      strstr(html, "<h2>Cross-table</h2>") && strstr(html, "</html>\n"),
		      "HTML export: %s", html ? html : "null");
	for (int i = 0; i < e->n; i++)
		ck_assert_msg(strstr(html, e->names[i]), "HTML export without %s", e->names[i]);
	json_decref(r);
}

void tt_close_all(struct tt_event *e)
{
	for (int i = 0; i < e->n; i++)
		hc_close(e->c[i]);
	hc_close(e->td);
}
