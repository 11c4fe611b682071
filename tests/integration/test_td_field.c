/* Integration tests of a director's field and pairing (issue 16 items 2 and 3) against a real
 * tengend (TENGEND, else ./server/tengend), over TCP through tests/support/harness and
 * tests/support/tourtest: entrants without an account (tournament.register `entrant`), their
 * checks, accounts' profiles (player.update, player), ranks down to 30k; absence for one round
 * (tournament.absent) and late entry scored as absent rounds (absent_points, mms_absent);
 * manual pairing (tournament.pair_edit: swap_players, swap_colors, handicap, bye) and its
 * refusals. Rules: docs/rules.md §4 (Art. 26-28); wire: docs/protocol.md.
 *
 * Each test runs in its own process (Check's fork mode) with its own daemon in a fresh
 * directory.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "harness.h"
#include "tourtest.h"
#include "h9check.h"

#define TEST_TIMEOUT_S 90 /* per test (Check's own timeout) */

/* ---- helpers ---- */

/* A board event of `system` (9x9, komi 0, unrated) with the fields in `more` (stolen). */
static long long board_event(struct hc *td, const char *name, const char *system, json_t *more)
{
	json_t *m = json_pack("{s:s}", "venue", "board");
	if (more) {
		json_object_update(m, more);
		json_decref(more);
	}
	return tt_create(td, name, system, m);
}

/* tournament.register of an entrant object (stolen): the reply (new reference). */
static json_t *enter(struct hc *td, long long t, json_t *entrant)
{
	return hc_reqj(td, json_pack("{s:s, s:I, s:o}", "cmd", "tournament.register", "tournament",
				     (json_int_t)t, "entrant", entrant));
}

static void register_ok(struct hc *td, long long t, const char *name)
{
	tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
				(json_int_t)t, "player", name));
}

/* The reply of `cmd` for tournament t, with `more` (stolen, may be NULL), expected to be an
 * error `code` whose message holds `has`. */
static void refused(struct hc *c, json_t *req, const char *code, const char *has)
{
	json_t *r = hc_reqj(c, req);
	ERR(r, code);
	ck_assert_msg(strstr(hj_str(r, "error.message"), has), "message without '%s': %s", has,
		      hj_text(r));
	json_decref(r);
}

/* A round's pairing as the server lists it. */
struct round_view {
	int n;
	long long game[8];
	char black[8][64], white[8][64];
	int handicap[8];
	int nbyes;
	char bye[4][64];
};

static void pairings(struct hc *c, long long t, int round, struct round_view *v)
{
	json_t *r = hc_req(c, "{s:s, s:I, s:i}", "cmd", "tournament.pairings", "tournament",
			   (json_int_t)t, "round", round);
	OK(r);
	memset(v, 0, sizeof *v);
	size_t k;
	json_t *p;
	json_array_foreach(hj_get(r, "pairings"), k, p) {
		ck_assert_int_lt(v->n, 8);
		v->game[v->n] = hj_int(p, "game");
		snprintf(v->black[v->n], 64, "%s", hj_str(p, "black"));
		snprintf(v->white[v->n], 64, "%s", hj_str(p, "white"));
		v->handicap[v->n] = (int)hj_int(p, "handicap");
		v->n++;
	}
	json_array_foreach(hj_get(r, "byes"), k, p)
		snprintf(v->bye[v->nbyes++], 64, "%s", json_string_value(p));
	json_decref(r);
}

/* Start the next round now; its pairing into *v. */
static void start(struct hc *td, long long t, int round, struct round_view *v)
{
	json_t *r = hc_req(td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)t, "start_at", tt_wall_s());
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), round);
	json_decref(r);
	pairings(td, t, round, v);
}

static bool in_round(const struct round_view *v, const char *name)
{
	for (int i = 0; i < v->n; i++)
		if (strcmp(v->black[i], name) == 0 || strcmp(v->white[i], name) == 0)
			return true;
	for (int i = 0; i < v->nbyes; i++)
		if (strcmp(v->bye[i], name) == 0)
			return true;
	return false;
}

/* The index of the game of v that `name` plays, or -1. */
static int game_of_player(const struct round_view *v, const char *name)
{
	for (int i = 0; i < v->n; i++)
		if (strcmp(v->black[i], name) == 0 || strcmp(v->white[i], name) == 0)
			return i;
	return -1;
}

/* The `games` reply for tournament t's games of `player`. */
static json_t *games_of(struct hc *td, long long t, const char *player)
{
	return hc_req(td, "{s:s, s:I, s:s}", "cmd", "games", "tournament", (json_int_t)t, "player",
		      player);
}

/* The id of the one game games_of lists. */
static long long only_game(struct hc *td, long long t, const char *player)
{
	json_t *r = games_of(td, t, player);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "games")), 1);
	long long id = hj_int(r, "games.0.id");
	json_decref(r);
	return id;
}

static void result(struct hc *td, long long g, const char *res)
{
	tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game", (json_int_t)g,
				"result", res));
}

/* The standings row of `name`: its field `key` as a number (fails if absent). */
static double standing(struct hc *c, long long t, const char *name, const char *key)
{
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	size_t k;
	json_t *row;
	json_array_foreach(hj_get(r, "standings"), k, row)
		if (strcmp(hj_str(row, "player"), name) == 0) {
			double v = hj_num(row, key);
			json_decref(r);
			return v;
		}
	ck_abort_msg("%s is not in the standings: %s", name, hj_text(r));
	return 0;
}

static json_t *pair_edit(struct hc *td, long long t, json_t *fields)
{
	json_t *req = json_pack("{s:s, s:I}", "cmd", "tournament.pair_edit", "tournament", (json_int_t)t);
	json_object_update(req, fields);
	json_decref(fields);
	return hc_reqj(td, req);
}

/* ---- entrants and profiles ---- */

/* Entrants without accounts: checked, entered, paired, given results, in the standings and
 * the h9 export by their names; an account's profile set by itself and shown; a td registers
 * the account without its password. */
START_TEST(test_entrants)
{
	struct hc *td = tt_director("en_td");
	struct hc *ann = tt_login("ann");
	long long t = board_event(td, "EN Open", "swiss", json_pack("{s:i}", "rounds", 2));

	/* Each field checked, with a message naming it; nothing entered. */
	refused(td, json_pack("{s:s, s:I, s:{s:s}}", "cmd", "tournament.register", "tournament",
			      (json_int_t)t, "entrant", "name", "Doe"), "bad_request", "'entrant.name'");
	refused(td, json_pack("{s:s, s:I, s:{s:s, s:s}}", "cmd", "tournament.register", "tournament",
			      (json_int_t)t, "entrant", "name", "Doe John", "rank", "31k"),
		"bad_request", "'entrant.rank'");
	refused(td, json_pack("{s:s, s:I, s:{s:s, s:s}}", "cmd", "tournament.register", "tournament",
			      (json_int_t)t, "entrant", "name", "Doe John", "country", "FRA"),
		"bad_request", "'entrant.country'");
	refused(td, json_pack("{s:s, s:I, s:{s:s, s:s}}", "cmd", "tournament.register", "tournament",
			      (json_int_t)t, "entrant", "name", "Doe John", "club", "Le Mans"),
		"bad_request", "'entrant.club'");
	refused(td, json_pack("{s:s, s:I, s:{s:s, s:s}}", "cmd", "tournament.register", "tournament",
			      (json_int_t)t, "entrant", "name", "Doe John", "egd_pin", "1234567x"),
		"bad_request", "'entrant.egd_pin'");
	refused(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			      (json_int_t)t, "entrant", "Doe John"), "bad_request", "'entrant'");
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert_int_eq(json_array_size(hj_get(r, "tournament.field")), 0);
	json_decref(r);

	r = enter(td, t, json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", "Doe John", "rank", "25k",
				   "country", "fr", "club", "Lyon", "egd_pin", "12345678"));
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player"), "Doe John");
	ck_assert_int_eq(hj_bool(r, "entrant"), 1);
	json_decref(r);
	r = enter(td, t, json_pack("{s:s, s:s}", "name", "Müller Hans Peter", "rank", "2d"));
	OK(r);
	json_decref(r);
	r = enter(td, t, json_pack("{s:s}", "name", "doe john"));
	ERR(r, "conflict");
	json_decref(r);
	r = enter(td, t, json_pack("{s:s}", "name", "Roe Jane"));
	OK(r);
	json_decref(r);

	/* ann's profile, by ann; 30k is a rank now. */
	r = hc_req(ann, "{s:s, s:s, s:s, s:s, s:s}", "cmd", "player.update", "full_name",
		   "Smith Ann", "country", "gb", "club", "Lond", "rank", "30k");
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player.country"), "GB");
	ck_assert_pstr_eq(hj_str(r, "player.declared_rank"), "30k");
	json_decref(r);
	r = hc_req(ann, "{s:s, s:s}", "cmd", "player.update", "egd_pin", "123");
	ERR_FIELD(r, "bad_request", "egd_pin");
	json_decref(r);
	r = hc_req(ann, "{s:s, s:s, s:s}", "cmd", "player.update", "player", "en_td", "club", "X");
	ERR(r, "forbidden");
	json_decref(r);
	r = hc_req(ann, "{s:s, s:s}", "cmd", "player", "name", "ann");
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "player.full_name"), "Smith Ann");
	ck_assert_pstr_eq(hj_str(r, "player.club"), "Lond");
	ck_assert_ptr_null(hj_get(r, "player.egd_pin"));
	json_decref(r);
	/* The td sets ann's PIN and registers her: no password asked. */
	tt_req_ok(td, json_pack("{s:s, s:s, s:s}", "cmd", "player.update", "player", "ann", "egd_pin",
				"87654321"));
	register_ok(td, t, "ann");
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament", (json_int_t)t,
		   "player", "nobody");
	ERR(r, "not_found");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "entrant"), "%s", hj_text(r));
	json_decref(r);

	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "tournament.field")), 4);
	ck_assert_pstr_eq(hj_str(r, "tournament.field.0.name"), "Doe John");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.0.rank"), "25k");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.0.country"), "FR");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.0.egd_pin"), "12345678");
	ck_assert_int_eq(hj_bool(r, "tournament.field.0.entrant"), 1);
	ck_assert_pstr_eq(hj_str(r, "tournament.field.1.rank"), "2d");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.3.name"), "ann");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.3.rank"), "30k");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.3.country"), "GB");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.3.egd_pin"), "87654321");
	ck_assert_pstr_eq(hj_str(r, "tournament.field.3.full_name"), "Smith Ann");
	json_decref(r);

	/* Round 1: the entrants by name; results; standings. */
	struct round_view v;
	start(td, t, 1, &v);
	ck_assert_int_eq(v.n, 2);
	ck_assert(in_round(&v, "Doe John") && in_round(&v, "Müller Hans Peter") &&
		  in_round(&v, "Roe Jane") && in_round(&v, "ann"));
	int k = game_of_player(&v, "Doe John");
	/* ann's game.start names her opponent, an entrant, as entered, as the pairings do. */
	int ka = game_of_player(&v, "ann");
	json_t *ev = hc_event(ann, "game.start", v.game[ka], T);
	ck_assert_msg(ev, "ann got no game.start");
	ck_assert_pstr_eq(hj_str(ev, "black"), v.black[ka]);
	ck_assert_pstr_eq(hj_str(ev, "white"), v.white[ka]);
	/* and so do its players' profiles (the internal record's name leaked there) */
	ck_assert_pstr_eq(hj_str(ev, "players.B.name"), v.black[ka]);
	ck_assert_pstr_eq(hj_str(ev, "players.W.name"), v.white[ka]);
	json_decref(ev);
	result(td, v.game[k], "b+r");
	/* a margin no area count gives with the event's komi 0 (81 points: a whole margin) */
	json_t *bad = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			     (json_int_t)v.game[1 - k], "result", "w+3.5");
	ERR(bad, "bad_request");
	ck_assert_msg(strstr(hj_str(bad, "error.message"), "komi"), "%s", hj_text(bad));
	json_decref(bad);
	result(td, v.game[1 - k], "w+3");
	const char *winner = v.black[k];
	ck_assert_double_eq(standing(td, t, winner, "points"), 2);
	ck_assert_double_eq(standing(td, t, v.white[1 - k], "points"), 2);
	ck_assert_double_eq(standing(td, t, v.white[k], "points"), 0);
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", (json_int_t)t,
		   "format", "h9");
	OK(r);
	const char *h9 = hj_str(r, "data");
	/* the name as the export writes it (its format: another change); country and club */
	ck_assert_msg(strstr(h9, "Doe") && strstr(h9, "25k FR Lyon"), "h9: %s", h9);
	json_decref(r);
	/* The game object and the games listing name an entrant as entered, not by its internal
	 * record (issue 16). */
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)v.game[k]);
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "game.black"), v.black[k]);
	ck_assert_pstr_eq(hj_str(r, "game.white"), v.white[k]);
	json_decref(r);
	/* the record too: PB/PW as entered */
	r = hc_req(td, "{s:s, s:I}", "cmd", "sgf", "game", (json_int_t)v.game[k]);
	OK(r);
	{
		char pb[96], pw[96];
		snprintf(pb, sizeof pb, "PB[%s]", v.black[k]);
		snprintf(pw, sizeof pw, "PW[%s]", v.white[k]);
		ck_assert_msg(strstr(hj_str(r, "sgf"), pb) && strstr(hj_str(r, "sgf"), pw) &&
			      !strchr(hj_str(r, "sgf"), '~'), "sgf: %s", hj_str(r, "sgf"));
		/* the event and round (EV, RO), and that the director set the result */
		ck_assert_msg(strstr(hj_str(r, "sgf"), "RO[1]") && strstr(hj_str(r, "sgf"), "EV[") &&
			      strstr(hj_str(r, "sgf"), "set by the tournament director"), "sgf: %s",
			      hj_str(r, "sgf"));
	}
	json_decref(r);
	/* ann's profile names her opponent, an entrant, as entered */
	r = hc_req(td, "{s:s, s:s}", "cmd", "player", "name", "ann");
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "recent_games.0.opponent"),
			  strcmp(v.black[ka], "ann") == 0 ? v.white[ka] : v.black[ka]);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "games", "tournament", (json_int_t)t);
	OK(r);
	int listed = 0;
	size_t gi;
	json_t *gv;
	json_array_foreach(hj_get(r, "games"), gi, gv) {
		const char *bn = json_string_value(json_object_get(gv, "black"));
		const char *wn = json_string_value(json_object_get(gv, "white"));
		ck_assert_msg(bn && wn && !strchr(bn, '~') && !strchr(wn, '~'), "listed: %s",
			      hj_text(r));
		listed += strcmp(bn, "Doe John") == 0 || strcmp(wn, "Doe John") == 0;
	}
	ck_assert_msg(listed == 1, "Doe John's game not listed by name: %s", hj_text(r));
	json_decref(r);
	/* With the tournament, the filter `player` takes a name of its field: an entrant's as
	 * entered (any case), an account's; without it, account names only. */
	ck_assert_int_eq(only_game(td, t, "doe john"), v.game[k]);
	ck_assert_int_eq(only_game(td, t, "ann"), v.game[ka]);
	r = games_of(td, t, "Nobody Here");
	ERR(r, "not_found");
	json_decref(r);
	r = hc_req(td, "{s:s, s:s}", "cmd", "games", "player", "Doe John");
	ERR_FIELD(r, "bad_request", "player");
	json_decref(r);
	/* The leaderboard lists accounts only: ann, not the entrants (rated games or not). */
	r = hc_req(ann, "{s:s, s:i}", "cmd", "players", "limit", 100);
	OK(r);
	bool ann_listed = false;
	json_array_foreach(hj_get(r, "players"), gi, gv) {
		const char *pn = json_string_value(json_object_get(gv, "name"));
		ck_assert_msg(pn && !strchr(pn, '~'), "an entrant on the leaderboard: %s", hj_text(r));
		ann_listed = ann_listed || strcmp(pn, "ann") == 0;
	}
	ck_assert_msg(ann_listed, "ann not on the leaderboard: %s", hj_text(r));
	json_decref(r);
	/* An entrant has no account: nobody logs in as its record (Doe John's, the first entry). */
	char handle[64];
	snprintf(handle, sizeof handle, "Doe_John~%lld.0", t);
	json_t *lr = hc_req(ann, "{s:s, s:s, s:s}", "cmd", "login", "name", handle, "password",
			    "whatever-password");
	ck_assert_msg(!hj_ok(lr), "logged in as an entrant: %s", hj_text(lr));
	json_decref(lr);

	/* An entrant withdraws by the name entered (Art. 28); round 1's results are in, so no
	 * result is written (the reply's `forfeited`) */
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", (json_int_t)t,
		   "player", "Roe Jane");
	OK(r);
	ck_assert_int_eq(hj_int(r, "withdrawn_after"), 1);
	ck_assert_msg(json_is_array(hj_get(r, "forfeited")) &&
		      json_array_size(hj_get(r, "forfeited")) == 0, "%s", hj_text(r));
	json_decref(r);

	/* An online event takes no entrant. */
	long long on = tt_create(td, "EN Online", "swiss", NULL);
	r = enter(td, on, json_pack("{s:s}", "name", "Doe John"));
	ERR(r, "conflict");
	json_decref(r);
	hc_close(ann);
	hc_close(td);
}
END_TEST

/* Accounts with profiles (full name, country, club, PIN) in a board event: the exports name
 * the person, not the account. h9 read back by OpenGotha's own importer (tests/support/
 * h9check.h; that part skipped without java or TENGEN_OPENGOTHA_DIR) with the surname, first
 * name, country and club of each profile (in ASCII: the EGD reads ASCII) and every game; CSV
 * and HTML by the full name (UTF-8). */
START_TEST(test_exports_full_names)
{
	static const struct {
		const char *acct, *full, *sur, *first, *country, *club, *pin;
	} who[4] = {
		{"fn_ann", "Smith Ann", "Smith", "Ann", "GB", "Lond", "11111111"},
		/* UTF-8 in, ASCII in the h9 (the EGD reads ASCII) */
		{"fn_bob", "Dvo\xc5\x99\xc3\xa1k Zo\xc3\xab", "Dvorak", "Zoe", "CZ", "Br\xc3\xbcn",
		 "22222222"},
		{"fn_cyd", "Novak Cyd", "Novak", "Cyd", "CZ", "Brno", NULL},
		{"fn_dan", NULL, NULL, NULL, "DE", "Berl", NULL}, /* no full name: the account's */
	};
	static char got[16384];
	struct hc *td = tt_director("fn_td");
	long long t = board_event(td, "FN Open", "swiss", json_pack("{s:i}", "rounds", 2));
	for (int i = 0; i < 4; i++) {
		hc_close(tt_login(who[i].acct));
		json_t *u = json_pack("{s:s, s:s, s:s, s:s}", "cmd", "player.update", "player",
				      who[i].acct, "country", who[i].country, "club", who[i].club);
		if (who[i].full)
			json_object_set_new(u, "full_name", json_string(who[i].full));
		if (who[i].pin)
			json_object_set_new(u, "egd_pin", json_string(who[i].pin));
		tt_req_ok(td, u);
		register_ok(td, t, who[i].acct);
	}
	struct round_view v;
	int games = 0;
	for (int rd = 1; rd <= 2; rd++) {
		start(td, t, rd, &v);
		ck_assert_int_eq(v.n, 2);
		result(td, v.game[0], "b+r");
		result(td, v.game[1], "w+3");
		games += v.n;
	}
	json_t *r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
			   (json_int_t)t, "format", "h9");
	OK(r);
	const char *h9 = hj_str(r, "data");
	ck_assert_msg(strstr(h9, "Smith Ann") && strstr(h9, "Dvorak Zoe") &&
		      strstr(h9, "Novak Cyd") && !strstr(h9, "fn_ann") && strstr(h9, "fn_dan"),
		      "h9 without the full names: %s", h9);
	ck_assert_msg(strstr(h9, "|11111111"), "h9 without ann's PIN: %s", h9);
	if (h9check_read(h9, 2, got, sizeof got) == 0) {
		int players = 0, ngames = 0;
		for (int i = 0; i < 4; i++) {
			char want[128];
			if (who[i].full)
				snprintf(want, sizeof want, "%s|%s|", who[i].sur, who[i].first);
			else
				snprintf(want, sizeof want, "%s|", who[i].acct);
			char *at = strstr(got, want);
			ck_assert_msg(at, "OpenGotha did not read %s: %s", want, got);
			char tail[64];
			snprintf(tail, sizeof tail, "|%s|%s\n", who[i].country,
				 i == 1 ? "Brun" : who[i].club);
			char *eol = strchr(at, '\n');
			ck_assert_msg(eol && (size_t)(eol - at) >= strlen(tail) - 1 &&
				      strncmp(eol - (strlen(tail) - 1), tail, strlen(tail) - 1) == 0,
				      "OpenGotha read %s's country and club otherwise: %s", want, got);
			players++;
		}
		for (char *l = strstr(got, "game "); l; l = strstr(l + 1, "\ngame "))
			ngames++;
		ck_assert_int_eq(players, 4);
		ck_assert_int_eq(ngames, games);
	} else {
		ck_assert_msg(!h9check_ready(), "OpenGotha's importer failed: %s", got);
	}
	json_decref(r);
	const char *fmts[2] = {"csv", "html"};
	for (int f = 0; f < 2; f++) {
		r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament",
			   (json_int_t)t, "format", fmts[f]);
		OK(r);
		const char *d = hj_str(r, "data");
		ck_assert_msg(strstr(d, "Smith Ann") && strstr(d, "Novak Cyd") &&
			      strstr(d, "Dvo\xc5\x99\xc3\xa1k Zo\xc3\xab") &&
			      !strstr(d, "fn_bob") && strstr(d, "fn_dan"), "%s: %s", fmts[f], d);
		json_decref(r);
	}
	hc_close(td);
}
END_TEST

/* ---- absence and late entry ---- */

/* Swiss, absent_points 1: an absent player is not paired and scores 1; a late entrant's
 * missed round too; refusals. */
START_TEST(test_absent_late)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "al", 6, names);
	e.td = tt_director("al_td");
	long long t = board_event(e.td, "AL Swiss", "swiss", json_pack("{s:i, s:i}", "rounds", 3,
				  "absent_points", 1));
	for (int i = 0; i < 5; i++)
		register_ok(e.td, t, e.names[i]);
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				  (json_int_t)t, "player", e.names[4], "round", 1));
	refused(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				(json_int_t)t, "player", e.names[4], "round", 1), "conflict", "already");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				(json_int_t)t, "player", e.names[4], "round", 4), "bad_request",
		"'round'");
	/* past the most rounds any event has: the event's own count said, not that maximum */
	refused(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				(json_int_t)t, "player", e.names[4], "round", 99), "bad_request",
		"the event has rounds 1 to 3");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				(json_int_t)t, "player", "al_9", "round", 2), "not_found", "al_9");
	struct round_view v;
	start(e.td, t, 1, &v);
	ck_assert_int_eq(v.n, 2);
	ck_assert_int_eq(v.nbyes, 0);
	ck_assert(!in_round(&v, e.names[4]));
	refused(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				(json_int_t)t, "player", e.names[0], "round", 1), "conflict",
		"paired already");
	/* A late entry (round 1 is paired): its round 1 is absent. */
	json_t *r = hc_req(e.td, "{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
			   (json_int_t)t, "player", e.names[5]);
	OK(r);
	ck_assert_int_eq(hj_int(r, "entered_round"), 1);
	json_decref(r);
	for (int i = 0; i < v.n; i++)
		result(e.td, v.game[i], "b+r");
	ck_assert_double_eq(standing(e.td, t, e.names[4], "points"), 1);
	ck_assert_double_eq(standing(e.td, t, e.names[5], "points"), 1);
	ck_assert_double_eq(standing(e.td, t, v.white[0], "points"), 0);
	ck_assert_double_eq(standing(e.td, t, v.black[0], "points"), 2);
	start(e.td, t, 2, &v);
	ck_assert_int_eq(v.n, 3);
	ck_assert(in_round(&v, e.names[4]) && in_round(&v, e.names[5]));
	/* just paired, no result yet: the standings are still after round 1 (they said "after
	 * round 2" and counted its games as unplayed, SOS with virtual opponents) */
	json_t *st = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament",
			    (json_int_t)t);
	OK(st);
	ck_assert_int_eq(hj_int(st, "round"), 1);
	json_decref(st);
	result(e.td, v.game[0], "w+r");
	st = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	ck_assert_int_eq(hj_int(st, "round"), 2); /* a result of round 2 is in: round 2 shows */
	json_decref(st);

	/* Round robin: no absence, no late entry. */
	long long rr = board_event(e.td, "AL RR", "round_robin", NULL);
	for (int i = 0; i < 4; i++)
		register_ok(e.td, rr, e.names[i]);
	refused(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				(json_int_t)rr, "player", e.names[0], "round", 2), "conflict",
		"Swiss and McMahon");
	start(e.td, rr, 1, &v);
	refused(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.register", "tournament",
				(json_int_t)rr, "player", e.names[4]), "conflict", "late entry");
	tt_close_all(&e);
}
END_TEST

/* McMahon: an absent round adds mms_absent (here 1) to the McMahon score; a loss adds 0. */
START_TEST(test_absent_mcmahon)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "am", 3, names);
	e.td = tt_director("am_td");
	long long t = board_event(e.td, "AM McMahon", "mcmahon", json_pack("{s:i, s:f}", "rounds",
				  2, "mms_absent", 1.0));
	for (int i = 0; i < 3; i++)
		register_ok(e.td, t, e.names[i]);
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				  (json_int_t)t, "player", e.names[2], "round", 1));
	struct round_view v;
	start(e.td, t, 1, &v);
	ck_assert_int_eq(v.n, 1);
	ck_assert_int_eq(v.nbyes, 0);
	result(e.td, v.game[0], "w+r");
	double loser = standing(e.td, t, v.black[0], "score");
	double winner = standing(e.td, t, v.white[0], "score");
	double absent = standing(e.td, t, e.names[2], "score");
	ck_assert_double_eq_tol(winner - loser, 1.0, 1e-9);
	ck_assert_double_eq_tol(absent - loser, 1.0, 1e-9);
	refused(e.td, json_pack("{s:s, s:s, s:s, s:f}", "cmd", "tournament.create", "name", "AM bad",
				"system", "mcmahon", "mms_absent", 0.3), "bad_request", "'mms_absent'");
	tt_close_all(&e);
}
END_TEST

/* ---- manual pairing ---- */

START_TEST(test_pair_edit)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "pe", 6, names);
	e.td = tt_director("pe_td");
	long long t = board_event(e.td, "PE Swiss", "swiss", json_pack("{s:i}", "rounds", 2));
	for (int i = 0; i < 5; i++)
		register_ok(e.td, t, e.names[i]);
	json_t *r = pair_edit(e.td, t, json_pack("{s:s, s:I}", "op", "swap_colors", "game", 1));
	ERR(r, "conflict"); /* no round yet */
	json_decref(r);
	struct round_view v, w;
	start(e.td, t, 1, &v);
	ck_assert_int_eq(v.n, 2);
	ck_assert_int_eq(v.nbyes, 1);
	/* A late entrant is not paired: cannot be swapped in. */
	register_ok(e.td, t, e.names[5]);

	/* swap_players: v.black[0] and v.white[1] change places. */
	char a[64], b[64];
	snprintf(a, sizeof a, "%s", v.black[0]);
	snprintf(b, sizeof b, "%s", v.white[1]);
	struct hc *ac = NULL;
	for (int i = 0; i < 6; i++)
		if (strcmp(e.names[i], a) == 0)
			ac = e.c[i];
	hc_clear(ac);
	r = pair_edit(e.td, t, json_pack("{s:s, s:s, s:s}", "op", "swap_players", "player_a", a,
					 "player_b", b));
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert_msg(json_is_array(hj_get(r, "warnings")) && json_array_size(hj_get(r, "warnings")) == 0,
		      "%s", hj_text(r));
	json_decref(r);
	pairings(e.td, t, 1, &w);
	ck_assert_str_eq(w.black[0], b);
	ck_assert_str_eq(w.white[1], a);
	ck_assert_str_eq(w.white[0], v.white[0]);
	json_t *ev = hc_event(ac, "tournament.unpaired", 0, T);
	ck_assert_msg(ev != NULL, "%s was not told of the change", a);
	ck_assert_int_eq(hj_int(ev, "game"), v.game[0]);
	json_decref(ev);
	ev = hc_event(ac, "game.start", v.game[1], T);
	ck_assert_msg(ev != NULL, "%s got no game.start for the new game", a);
	ck_assert_pstr_eq(hj_str(ev, "color"), "W");
	json_decref(ev);

	/* swap_colors, handicap. */
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:I}", "cmd", "tournament.pair_edit", "tournament",
				  (json_int_t)t, "op", "swap_colors", "game", (json_int_t)w.game[0]));
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:I, s:i}", "cmd", "tournament.pair_edit",
				  "tournament", (json_int_t)t, "op", "handicap", "game",
				  (json_int_t)w.game[0], "handicap", 3));
	pairings(e.td, t, 1, &v);
	ck_assert_str_eq(v.black[0], w.white[0]);
	ck_assert_str_eq(v.white[0], b);
	ck_assert_int_eq(v.handicap[0], 3);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)v.game[0]);
	ck_assert_int_eq(hj_int(r, "game.handicap"), 3);
	ck_assert_double_eq(hj_num(r, "game.komi"), 0.5); /* handicap_komi */
	ck_assert_str_eq(hj_str(r, "game.white"), b);
	json_decref(r);

	/* bye: to v.black[1]; the bye's holder takes that seat. */
	char holder[64], taker[64];
	snprintf(holder, sizeof holder, "%s", v.bye[0]);
	snprintf(taker, sizeof taker, "%s", v.black[1]);
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:s}", "cmd", "tournament.pair_edit", "tournament",
				  (json_int_t)t, "op", "bye", "player", taker));
	pairings(e.td, t, 1, &w);
	ck_assert_int_eq(w.nbyes, 1);
	ck_assert_str_eq(w.bye[0], taker);
	ck_assert_str_eq(w.black[1], holder);

	/* Refusals, each changing nothing. */
	refused(e.td, json_pack("{s:s, s:I, s:s, s:s, s:s}", "cmd", "tournament.pair_edit",
				"tournament", (json_int_t)t, "op", "swap_players", "player_a",
				w.black[0], "player_b", w.white[0]), "bad_request", "swap_colors");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:s, s:s}", "cmd", "tournament.pair_edit",
				"tournament", (json_int_t)t, "op", "swap_players", "player_a",
				w.black[0], "player_b", e.names[5]), "conflict", "not paired");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:s, s:s}", "cmd", "tournament.pair_edit",
				"tournament", (json_int_t)t, "op", "swap_players", "player_a",
				w.black[0], "player_b", "nobody"), "not_found", "nobody");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:s}", "cmd", "tournament.pair_edit", "tournament",
				(json_int_t)t, "op", "swap_players", "player_a", w.black[0]),
		"bad_request", "'player_b'");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:I, s:i}", "cmd", "tournament.pair_edit",
				"tournament", (json_int_t)t, "op", "handicap", "game",
				(json_int_t)w.game[0], "handicap", 10), "bad_request", "'handicap'");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:I}", "cmd", "tournament.pair_edit", "tournament",
				(json_int_t)t, "op", "swap_colors", "game", (json_int_t)99999),
		"not_found", "99999");
	refused(e.td, json_pack("{s:s, s:I, s:s, s:I, s:i}", "cmd", "tournament.pair_edit",
				"tournament", (json_int_t)t, "op", "swap_colors", "game",
				(json_int_t)w.game[0], "round", 2), "conflict", "current round");
	refused(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.pair_edit", "tournament",
				(json_int_t)t, "op", "rotate"), "bad_request", "'op'");
	/* A game under way can no longer change: both join game 0 on the server. */
	for (int i = 0; i < 6; i++)
		if (strcmp(e.names[i], w.black[0]) == 0 || strcmp(e.names[i], w.white[0]) == 0)
			tt_req_ok(e.c[i], json_pack("{s:s, s:I}", "cmd", "join", "game",
						    (json_int_t)w.game[0]));
	refused(e.td, json_pack("{s:s, s:I, s:s, s:I}", "cmd", "tournament.pair_edit", "tournament",
				(json_int_t)t, "op", "swap_colors", "game", (json_int_t)w.game[0]),
		"conflict", "has begun");
	pairings(e.td, t, 1, &v);
	ck_assert_str_eq(v.black[0], w.black[0]);
	ck_assert_str_eq(v.bye[0], taker);

	/* The results go to the players as edited. */
	result(e.td, w.game[1], "b+r");
	ck_assert_double_eq(standing(e.td, t, holder, "points"), 2);
	ck_assert_double_eq(standing(e.td, t, taker, "byes"), 1);

	/* Round 2: a swap that makes a rematch is done, with a warning (it was silent). */
	result(e.td, w.game[0], "w+r");
	struct round_view r2;
	start(e.td, t, 2, &r2);
	const char *p = w.black[1], *q = w.white[1]; /* they met in round 1 */
	int gi = -1, gj = -1;
	for (int i = 0; i < r2.n; i++) {
		if (!strcmp(r2.black[i], p) || !strcmp(r2.white[i], p))
			gi = i;
		if (!strcmp(r2.black[i], q) || !strcmp(r2.white[i], q))
			gj = i;
	}
	ck_assert_msg(gi >= 0 && gj >= 0 && gi != gj, "round 2 should part %s and %s", p, q);
	const char *o = strcmp(r2.black[gi], p) == 0 ? r2.white[gi] : r2.black[gi];
	r = pair_edit(e.td, t, json_pack("{s:s, s:s, s:s}", "op", "swap_players", "player_a", q,
					 "player_b", o));
	OK(r);
	char met[160];
	snprintf(met, sizeof met, "met in round 1 already");
	ck_assert_msg(json_array_size(hj_get(r, "warnings")) == 1 &&
		      strstr(hj_str(r, "warnings.0"), met) && strstr(hj_str(r, "warnings.0"), p) &&
		      strstr(hj_str(r, "warnings.0"), q), "%s", hj_text(r));
	json_decref(r);
	tt_close_all(&e);
}
END_TEST

/* tournament.unpair (OpenGotha's "unpair"): the current round's pairing taken back while no
 * game has begun, so that a forgotten absence or a late player can be put right before it is
 * paired again; refused once a game has begun, changing nothing. Before, a paired round could
 * not be redone at all. */
START_TEST(test_unpair)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "up", 6, names);
	e.td = tt_director("up_td");
	long long t = board_event(e.td, "UP Swiss", "swiss", json_pack("{s:i}", "rounds", 2));
	for (int i = 0; i < 5; i++)
		register_ok(e.td, t, e.names[i]);
	refused(e.td, json_pack("{s:s, s:I}", "cmd", "tournament.unpair", "tournament",
				(json_int_t)t), "conflict", "no round");
	struct round_view v, w;
	start(e.td, t, 1, &v);
	ck_assert_int_eq(v.n, 2);
	ck_assert_int_eq(v.nbyes, 1);
	register_ok(e.td, t, e.names[5]); /* late: absent in round 1 as paired */
	struct hc *pc = NULL, *bc = NULL;
	for (int i = 0; i < 6; i++) {
		if (strcmp(e.names[i], v.black[0]) == 0)
			pc = e.c[i];
		if (strcmp(e.names[i], v.bye[0]) == 0)
			bc = e.c[i];
	}
	hc_clear(pc);
	hc_clear(bc);
	json_t *r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.unpair", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_int_eq(hj_int(r, "round"), 1);
	ck_assert_int_eq(json_array_size(hj_get(r, "games")), 2);
	json_decref(r);
	/* the players are told; the games are called off, without a result */
	json_t *ev = hc_event(pc, "tournament.unpaired", 0, T);
	ck_assert_msg(ev && hj_int(ev, "game") == v.game[0], "%s", ev ? hj_text(ev) : "no event");
	json_decref(ev);
	ev = hc_event(bc, "tournament.unpaired", 0, T);
	ck_assert_msg(ev && json_is_null(hj_get(ev, "game")), "%s", ev ? hj_text(ev) : "no event");
	json_decref(ev);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)v.game[0]);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "ended");
	ck_assert(json_is_null(hj_get(r, "game.result")));
	json_decref(r);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert_int_eq(hj_int(r, "tournament.round"), 0);
	json_decref(r);
	/* the forgotten absence, then round 1 again: the late player is in, the absent one not */
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:i}", "cmd", "tournament.absent", "tournament",
				  (json_int_t)t, "player", e.names[0], "round", 1));
	start(e.td, t, 1, &w);
	ck_assert_int_eq(w.n, 2);
	ck_assert_int_eq(w.nbyes, 1);
	ck_assert_msg(!in_round(&w, e.names[0]), "%s was absent", e.names[0]);
	ck_assert_msg(in_round(&w, e.names[5]), "the late player %s was not paired", e.names[5]);
	/* standings know nothing of the called-off games */
	ck_assert_double_eq(standing(e.td, t, w.black[1], "points"), 0);
	/* a result typed against a called-off game's number (an old sheet) is refused: it put
	 * its players in two games of the round and broke the standings and exports */
	refused(e.td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
				(json_int_t)v.game[0], "result", "B+R"), "conflict", "called off");
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	json_decref(r);
	pairings(e.td, t, 1, &v);
	ck_assert_int_eq(v.n, 2);
	/* once a game has begun (both joined at the board), the round stands */
	for (int i = 0; i < 6; i++)
		if (strcmp(e.names[i], w.black[0]) == 0 || strcmp(e.names[i], w.white[0]) == 0)
			tt_req_ok(e.c[i], json_pack("{s:s, s:I}", "cmd", "join", "game",
						    (json_int_t)w.game[0]));
	refused(e.td, json_pack("{s:s, s:I}", "cmd", "tournament.unpair", "tournament",
				(json_int_t)t), "conflict", "has begun");
	/* the way on, in the client's words too (it named protocol commands only) */
	refused(e.td, json_pack("{s:s, s:I}", "cmd", "tournament.unpair", "tournament",
				(json_int_t)t), "conflict", "tengen td result");
	pairings(e.td, t, 1, &v);
	ck_assert_int_eq(v.n, 2);
	ck_assert_int_eq(v.game[0], w.game[0]);
	refused(e.td, json_pack("{s:s, s:I}", "cmd", "tournament.unpair", "tournament",
				(json_int_t)99999), "not_found", "99999");
	tt_close_all(&e);
}
END_TEST

/* tournament.delete: an event made by mistake goes, with its entrants' records, while it has
 * no games; its name is free again (names are unique, so a typo in one blocked it for good). */
START_TEST(test_delete)
{
	struct hc *td = tt_director("dl_td");
	struct hc *pl = tt_login("dl_p");
	long long t = board_event(td, "DL Cup", "swiss", NULL);
	json_t *r = enter(td, t, json_pack("{s:s}", "name", "Doe John"));
	OK(r);
	json_decref(r);
	register_ok(td, t, "dl_p");
	refused(pl, json_pack("{s:s, s:I}", "cmd", "tournament.delete", "tournament", (json_int_t)t),
		"forbidden", "td");
	refused(td, json_pack("{s:s, s:I}", "cmd", "tournament.delete", "tournament",
			      (json_int_t)99999), "not_found", "99999");
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.delete", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_int_eq(hj_int(r, "tournament"), t);
	ck_assert_pstr_eq(hj_str(r, "name"), "DL Cup");
	ck_assert_int_eq(hj_int(r, "entrants"), 1);
	json_decref(r);
	refused(td, json_pack("{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t),
		"not_found", "tournament");
	r = hc_req(td, "{s:s}", "cmd", "tournament.list");
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "tournaments")), 0);
	json_decref(r);
	/* the player's profile no longer lists it */
	r = hc_req(td, "{s:s, s:s}", "cmd", "player", "name", "dl_p");
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "tournaments")), 0);
	json_decref(r);
	/* the name again; the same entrant again (the new event may have the deleted one's id:
	 * its entrant's record, named after the event's id, is gone with it) */
	long long t2 = board_event(td, "DL Cup", "swiss", json_pack("{s:i}", "rounds", 2));
	r = enter(td, t2, json_pack("{s:s}", "name", "Doe John"));
	OK(r);
	json_decref(r);
	register_ok(td, t2, "dl_p");
	/* an event with games stays: a round paired, or unpaired (its games called off) */
	struct round_view v;
	start(td, t2, 1, &v);
	refused(td, json_pack("{s:s, s:I}", "cmd", "tournament.delete", "tournament", (json_int_t)t2),
		"conflict", "a round is paired");
	tt_req_ok(td, json_pack("{s:s, s:I}", "cmd", "tournament.unpair", "tournament",
				(json_int_t)t2));
	refused(td, json_pack("{s:s, s:I}", "cmd", "tournament.delete", "tournament", (json_int_t)t2),
		"conflict", "called off");
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t2);
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "tournament.field")), 2);
	json_decref(r);
	hc_close(pl);
	hc_close(td);
}
END_TEST

/* A McMahon handicap event by MMS difference (handicap_by "mms", OpenGotha's way): the top
 * group, all on the bar's score, plays even; by rank difference (the default) the 5d gives
 * the 2d two stones (three ranks less the correction of one). */
START_TEST(test_handicap_by_mms)
{
	struct hc *td = tt_director("hb_td");
	for (int by_mms = 0; by_mms < 2; by_mms++) {
		json_t *more = json_pack("{s:i, s:b, s:i}", "mcmahon_bar", 1 /* 2d */, "handicap", 1,
					 "rounds", 1);
		if (by_mms)
			json_object_set_new(more, "handicap_by", json_string("mms"));
		long long t = board_event(td, by_mms ? "HB MMS" : "HB Rank", "mcmahon", more);
		json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
		ck_assert_pstr_eq(hj_str(r, "tournament.settings.handicap_by"), by_mms ? "mms" : "rank");
		json_decref(r);
		r = enter(td, t, json_pack("{s:s, s:s}", "name", "Strong Five", "rank", "5d"));
		OK(r);
		json_decref(r);
		r = enter(td, t, json_pack("{s:s, s:s}", "name", "Bar Two", "rank", "2d"));
		OK(r);
		json_decref(r);
		struct round_view v;
		start(td, t, 1, &v);
		ck_assert_int_eq(v.n, 1);
		ck_assert_int_eq(v.handicap[0], by_mms ? 0 : 2);
	}
	refused(td, json_pack("{s:s, s:s, s:s, s:s}", "cmd", "tournament.create", "name", "HB Bad",
			      "system", "mcmahon", "handicap_by", "elo"), "bad_request", "'handicap_by'");
	/* a swap keeps each game's handicap, and says where the ranks ask for another (it said
	 * nothing: a 4k took Black with two stones against a 3k) */
	json_t *more = json_pack("{s:i, s:b, s:i}", "mcmahon_bar", 0, "handicap", 1, "rounds", 1);
	long long t = board_event(td, "HB Swap", "mcmahon", more);
	const char *nm[4] = {"Five Dan", "Four Dan", "Ten Kyu", "Twelve Kyu"};
	const char *rk[4] = {"5d", "4d", "10k", "12k"};
	for (int i = 0; i < 4; i++) {
		json_t *r = enter(td, t, json_pack("{s:s, s:s}", "name", nm[i], "rank", rk[i]));
		OK(r);
		json_decref(r);
	}
	struct round_view v;
	start(td, t, 1, &v);
	ck_assert_int_eq(v.n, 2);
	json_t *r = pair_edit(td, t, json_pack("{s:s, s:s, s:s}", "op", "swap_players", "player_a",
					       "Four Dan", "player_b", "Ten Kyu"));
	OK(r);
	char *w = json_dumps(hj_get(r, "warnings"), 0);
	ck_assert_msg(w && strstr(w, "keeps handicap 0, where the ranks of") && strstr(w, "ask for 9"),
		      "warnings: %s", w ? w : "none");
	free(w);
	json_decref(r);
	/* the colours or the handicap of one game changed by hand: said the same way where the
	 * ranks ask otherwise (it said nothing: a 5k took Black with two stones against a 12k) */
	t = board_event(td, "HB Edit", "mcmahon", json_pack("{s:i, s:b, s:i}", "mcmahon_bar", 0,
							      "handicap", 1, "rounds", 1));
	for (int i = 0; i < 2; i++) {
		r = enter(td, t, json_pack("{s:s, s:s}", "name", i ? "Ten Kyu" : "Four Dan", "rank",
					   i ? "10k" : "4d"));
		OK(r);
		json_decref(r);
	}
	start(td, t, 1, &v);
	ck_assert_int_eq(v.n, 1);
	ck_assert_pstr_eq(v.black[0], "Ten Kyu");
	int h = v.handicap[0];
	ck_assert_int_gt(h, 1);
	char want[64];
	snprintf(want, sizeof want, "ask for %d", h);
	for (int k = 0; k < 4; k++) {
		/* colours swapped, and back; the handicap 0, and back */
		r = pair_edit(td, t, k < 2 ? json_pack("{s:s, s:I}", "op", "swap_colors", "game",
						       (json_int_t)v.game[0])
				  : json_pack("{s:s, s:I, s:i}", "op", "handicap", "game",
					      (json_int_t)v.game[0], "handicap", k == 2 ? 0 : h));
		OK(r);
		w = json_dumps(hj_get(r, "warnings"), 0);
		if (k == 0)
			ck_assert_msg(w && strstr(w, "the weaker player, Ten Kyu, has White in a "
						  "handicap game") && strstr(w, "colors"), "%s", w ? w : "none");
		else if (k == 2)
			ck_assert_msg(w && strstr(w, "has handicap 0, where the ranks of") &&
				      strstr(w, want), "%s", w ? w : "none");
		else
			ck_assert_msg(!w || !strstr(w, "handicap"), "k %d: %s", k, w);
		free(w);
		json_decref(r);
	}
	hc_close(td);
}
END_TEST

/* tournament.update: a setting wrong at creation is put right before round 1 is paired (it
 * meant creating the event again); checked as tournament.create checks it; refused after. */
START_TEST(test_update_settings)
{
	struct hc *td = tt_director("up_td");
	long long t = board_event(td, "UP McMahon", "mcmahon", json_pack("{s:i, s:b}", "rounds", 3,
									 "handicap", 1));
	json_t *r = hc_req(td, "{s:s, s:I, s:s, s:i, s:[s,s], s:s}", "cmd", "tournament.update",
			   "tournament", (json_int_t)t, "handicap_by", "mms", "rounds", 4, "tiebreaks",
			   "SOS", "SOSOS", "place", "FR,Lyon");
	OK(r);
	ck_assert_pstr_eq(hj_str(r, "settings.handicap_by"), "mms");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert_pstr_eq(hj_str(r, "tournament.settings.handicap_by"), "mms");
	ck_assert_int_eq(hj_int(r, "tournament.settings.rounds"), 4);
	ck_assert_pstr_eq(hj_str(r, "tournament.settings.place"), "FR,Lyon");
	ck_assert_pstr_eq(hj_str(r, "tournament.settings.venue"), "board"); /* kept */
	ck_assert(hj_bool(r, "tournament.settings.handicap")); /* kept */
	ck_assert_int_eq(json_array_size(hj_get(r, "tournament.settings.tiebreaks")), 2);
	json_decref(r);
	/* checked as at creation; a refused change changes nothing */
	refused(td, json_pack("{s:s, s:I, s:f}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "komi", 7.3), "bad_request", "'komi'");
	refused(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "name", "Other"), "bad_request", "cannot change");
	refused(td, json_pack("{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "roundz", 3), "bad_request", "not a setting");
	refused(td, json_pack("{s:s, s:I}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t), "bad_request", "no setting");
	refused(td, json_pack("{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament",
			      (json_int_t)99999, "rounds", 3), "not_found", "99999");
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	ck_assert(hj_num(r, "tournament.settings.komi") == 0.0); /* tt_create's */
	json_decref(r);
	/* once round 1 is paired, the settings stand */
	for (int i = 0; i < 2; i++) {
		r = enter(td, t, json_pack("{s:s, s:s}", "name", i ? "Up Two" : "Up One", "rank", "3k"));
		OK(r);
		json_decref(r);
	}
	/* entrants play at boards only */
	refused(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "venue", "online"), "conflict", "entrants");
	struct round_view v;
	start(td, t, 1, &v);
	/* after it, what bears on the games already made or on the pairings so far stands ... */
	refused(td, json_pack("{s:s, s:I, s:f}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "komi", 6.5), "conflict", "field 'komi': tournament");
	refused(td, json_pack("{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "mcmahon_bar", 5), "conflict", "fixed once round 1 is paired");
	refused(td, json_pack("{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "rounds", 0), "bad_request", "'rounds'");
	/* ... the same value given again is no change (komi 0 as an integer is the stored 0.0) */
	r = hc_req(td, "{s:s, s:I, s:s, s:i, s:i}", "cmd", "tournament.update", "tournament",
		   (json_int_t)t, "handicap_by", "mms", "rounds", 4, "komi", 0);
	OK(r);
	json_decref(r);
	/* ... but a round more (it was "round 1 is paired": the event made again), the
	 * tie-breaks, and the clocks of the rounds to come may change */
	r = hc_req(td, "{s:s, s:I, s:i, s:[s], s:{s:s, s:i}}", "cmd", "tournament.update",
		   "tournament", (json_int_t)t, "rounds", 5, "tiebreaks", "SODOS", "time", "system",
		   "absolute", "main_s", 900);
	OK(r);
	ck_assert_int_eq(hj_int(r, "settings.rounds"), 5);
	ck_assert_pstr_eq(hj_str(r, "settings.tiebreaks.0"), "SODOS");
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.standings", "tournament", (json_int_t)t);
	OK(r);
	ck_assert_ptr_nonnull(hj_get(r, "standings.0.tiebreaks.SODOS"));
	ck_assert_ptr_null(hj_get(r, "standings.0.tiebreaks.SOS"));
	json_decref(r);
	ck_assert(hd_log_has(&tt_d, "tournament_update tournament="));
	/* a round 1 game keeps its clock; round 2's has the new one */
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)v.game[0]);
	ck_assert_msg(hj_str(r, "game.time.system") && strcmp(hj_str(r, "game.time.system"), "absolute"),
		      "round 1's game took the new clock: %s", hj_text(r));
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A round robin's rounds come from its field: they do not change once round 1 is paired, and
 * no event drops below the rounds it has paired. */
START_TEST(test_update_rounds_late)
{
	struct hc *td = tt_director("ul_td");
	long long t = board_event(td, "UL RR", "round_robin", NULL);
	long long s = board_event(td, "UL Swiss", "swiss", json_pack("{s:i}", "rounds", 3));
	for (int i = 0; i < 4; i++) {
		char name[16];
		snprintf(name, sizeof name, "Ul P%d", i);
		json_t *r = enter(td, i < 2 ? t : s, json_pack("{s:s, s:s}", "name", name, "rank", "3k"));
		OK(r);
		json_decref(r);
	}
	struct round_view v;
	start(td, t, 1, &v);
	refused(td, json_pack("{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament",
			      (json_int_t)t, "rounds", 3), "conflict", "field 'rounds'");
	start(td, s, 1, &v);
	json_t *r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.result", "game",
			   (json_int_t)v.game[0], "result", "B+R");
	OK(r);
	json_decref(r);
	start(td, s, 2, &v);
	refused(td, json_pack("{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament",
			      (json_int_t)s, "rounds", 1), "conflict", "fewer than the 2 rounds paired");
	r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.update", "tournament", (json_int_t)s,
		   "rounds", 2); /* ending the event early, after the round in play */
	OK(r);
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A board event `name` of `system` (`more`: fields, stolen, may be NULL) with the n entrants
 * "<prefix> P0", ... (5k). Returns its id. */
static long long event_of(struct hc *td, const char *name, const char *system, json_t *more,
			  const char *prefix, int n)
{
	long long t = board_event(td, name, system, more);
	for (int i = 0; i < n; i++) {
		char who[32];
		snprintf(who, sizeof who, "%s P%d", prefix, i);
		json_t *r = enter(td, t, json_pack("{s:s, s:s}", "name", who, "rank", "5k"));
		OK(r);
		json_decref(r);
	}
	return t;
}

/* Start round `round` of t and give each of its games `res`; its pairing into *v. */
static void play_round(struct hc *td, long long t, int round, const char *res,
		       struct round_view *v)
{
	start(td, t, round, v);
	for (int i = 0; i < v->n; i++)
		result(td, v->game[i], res);
}

/* tournament.update of t with `fields` (stolen): the reply (new reference). */
/* tournament.withdraw of `who` from t: the reply (the caller's). */
static json_t *withdraw(struct hc *td, long long t, const char *who)
{
	return hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament", (json_int_t)t,
		      "player", who);
}

static json_t *update(struct hc *td, long long t, json_t *fields)
{
	json_t *req = json_pack("{s:s, s:I}", "cmd", "tournament.update", "tournament", (json_int_t)t);
	json_object_update(req, fields);
	json_decref(fields);
	return hc_reqj(td, req);
}

/* tournament.get's settings.rounds of t. */
static long long rounds_shown(struct hc *td, long long t)
{
	json_t *r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	OK(r);
	long long n = hj_int(r, "tournament.settings.rounds");
	json_decref(r);
	return n;
}

/* A refusal of tournament.update arrives whole: the message buffer held 255 bytes, and "td set
 * "Club Swiss" --size 13" after round 1 ended "... while none of its games h". */
START_TEST(test_update_message_whole)
{
	struct hc *td = tt_director("uw_td");
	long long t = event_of(td, "Club Swiss", "swiss", json_pack("{s:i}", "rounds", 3), "Uw", 2);
	struct round_view v;
	start(td, t, 1, &v);
	json_t *r = update(td, t, json_pack("{s:i}", "size", 13));
	ERR(r, "conflict");
	char want[512];
	snprintf(want, sizeof want, "field 'size': tournament %lld is at round 1, and this setting "
		 "is fixed once round 1 is paired (what may still change: rounds in a Swiss or "
		 "McMahon event, tiebreaks, time, lateness_limit_s, place; tournament.unpair takes "
		 "a round back while none of its games has begun)", t);
	ck_assert_pstr_eq(hj_str(r, "error.message"), want);
	json_decref(r);
	/* a knockout's rounds: the sentence to its end */
	long long ko = event_of(td, "Club KO", "knockout", NULL, "Uk", 4);
	start(td, ko, 1, &v);
	r = update(td, ko, json_pack("{s:i}", "rounds", 7));
	ERR(r, "conflict");
	snprintf(want, sizeof want, "field 'rounds': tournament %lld is a knockout, whose rounds "
		 "follow from its field, not from this setting: 2 for its 4 entries (the rounds "
		 "until one is left); 7 would change nothing", ko);
	ck_assert_pstr_eq(hj_str(r, "error.message"), want);
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A round robin's or knockout's rounds follow from its field: a `rounds` other than those is a
 * conflict, before round 1 and after the last (a finished round robin's "rounds": 5, the
 * stored default, replied ok with 5 while tournament.get said 3, and nothing changed); the
 * rounds it plays are no change, and the reply says those. */
START_TEST(test_update_rounds_derived)
{
	struct hc *td = tt_director("ud_td");
	long long t = event_of(td, "UD RR", "round_robin", NULL, "Ud", 4);
	ck_assert_int_eq(rounds_shown(td, t), 3);
	json_t *r = update(td, t, json_pack("{s:i}", "rounds", 7));
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "is a round robin, whose rounds follow "
			     "from its field, not from this setting: 3 for its 4 entries "
			     "(everyone meets everyone, Art. 26)"), "%s", hj_text(r));
	json_decref(r);
	r = update(td, t, json_pack("{s:i, s:s}", "rounds", 3, "place", "FR,Lyon")); /* no change */
	OK(r);
	ck_assert_int_eq(hj_int(r, "settings.rounds"), 3);
	json_decref(r);
	struct round_view v;
	for (int round = 1; round <= 3; round++)
		play_round(td, t, round, "b+r", &v);
	tt_expect_conflict_start(&(struct tt_event){.td = td, .id = t}, "the event is over");
	for (int k = 0; k < 2; k++) { /* the stored default, and another */
		r = update(td, t, json_pack("{s:i}", "rounds", k ? 4 : 5));
		ERR(r, "conflict");
		ck_assert_msg(strstr(hj_str(r, "error.message"), "field 'rounds': tournament") &&
			      strstr(hj_str(r, "error.message"), "follow from its field"), "%s",
			      hj_text(r));
		json_decref(r);
	}
	ck_assert_int_eq(rounds_shown(td, t), 3);
	r = update(td, t, json_pack("{s:i, s:[s]}", "rounds", 3, "tiebreaks", "SOS"));
	OK(r);
	ck_assert_int_eq(hj_int(r, "settings.rounds"), 3);
	json_decref(r);
	/* a knockout's before round 1 too; a double elimination's are its setting */
	long long ko = event_of(td, "UD KO", "knockout", NULL, "Uk", 5);
	r = update(td, ko, json_pack("{s:i}", "rounds", 5));
	ERR(r, "conflict");
	ck_assert_msg(strstr(hj_str(r, "error.message"), "3 for its 5 entries (the rounds until "
			     "one is left)"), "%s", hj_text(r));
	json_decref(r);
	long long de = event_of(td, "UD DE", "knockout", json_pack("{s:b}", "double_elimination",
								   true), "Ue", 4);
	r = update(td, de, json_pack("{s:i}", "rounds", 6));
	OK(r);
	ck_assert_int_eq(hj_int(r, "settings.rounds"), 6);
	json_decref(r);
	ck_assert_int_eq(rounds_shown(td, de), 6);
	hc_close(td);
}
END_TEST

/* tournament.withdraw of a finished event (every round played, every result in) is a conflict
 * for every system: it was accepted, marked the winner "withdrawn after round 3", and a
 * knockout's could not be undone. An event still under way takes it; so does one given a
 * round more. */
START_TEST(test_withdraw_over)
{
	struct hc *td = tt_director("wo_td");
	static const char *const systems[] = {"round_robin", "knockout", "swiss", "mcmahon"};
	for (size_t k = 0; k < sizeof systems / sizeof *systems; k++) {
		char name[32], prefix[8];
		snprintf(name, sizeof name, "WO %s", systems[k]);
		snprintf(prefix, sizeof prefix, "Wo%c", (char)('a' + k));
		long long t = event_of(td, name, systems[k], json_pack("{s:i}", "rounds", 2), prefix, 4);
		struct round_view v;
		int last = k == 0 ? 3 : 2; /* a round robin of 4: 3 rounds, whatever `rounds` says */
		for (int round = 1; round <= last; round++)
			play_round(td, t, round, "w+r", &v);
		char who[32];
		snprintf(who, sizeof who, "%s P0", prefix);
		json_t *r = withdraw(td, t, who);
		ERR(r, "conflict");
		char want[128];
		snprintf(want, sizeof want, "tournament %lld is over (round %d was its last, and every "
			 "game has a result)", t, last);
		ck_assert_msg(strstr(hj_str(r, "error.message"), want), "%s: %s", systems[k],
			      hj_text(r));
		json_decref(r);
		r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
		size_t i;
		json_t *p;
		json_array_foreach(hj_get(r, "tournament.field"), i, p)
			ck_assert_msg(hj_int(p, "withdrawn_after") == 0, "%s: %s", systems[k],
				      hj_text(p));
		json_decref(r);
		if (k < 2)
			continue;
		/* a Swiss given a third round is under way again */
		r = update(td, t, json_pack("{s:i}", "rounds", 3));
		OK(r);
		json_decref(r);
		tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
					(json_int_t)t, "player", who));
	}
	/* the last round paired, a result still to come: the withdrawal forfeits the game */
	long long t = event_of(td, "WO Last", "swiss", json_pack("{s:i}", "rounds", 1), "Wl", 2);
	struct round_view v;
	start(td, t, 1, &v);
	json_t *r = withdraw(td, t, "Wl P0");
	OK(r);
	ck_assert_int_eq(json_array_size(hj_get(r, "forfeited")), 1);
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A round robin's player withdrawn before playing half their games has those results voided
 * (Art. 28): the reply says which (`voided`), as it says which games it forfeited. */
START_TEST(test_withdraw_voided)
{
	struct hc *td = tt_director("wv_td");
	long long t = event_of(td, "WV RR", "round_robin", NULL, "Wv", 4);
	struct round_view v;
	play_round(td, t, 1, "b+r", &v);
	int g = game_of_player(&v, "Wv P0");
	ck_assert_int_ge(g, 0);
	json_t *r = withdraw(td, t, "Wv P0");
	OK(r);
	ck_assert_msg(json_array_size(hj_get(r, "voided")) == 1 &&
		      hj_int(r, "voided.0") == v.game[g], "game %lld: %s", v.game[g], hj_text(r));
	json_decref(r);
	/* results stand elsewhere: a Swiss's withdrawal voids nothing */
	long long s = event_of(td, "WV Swiss", "swiss", json_pack("{s:i}", "rounds", 3), "Ws", 4);
	play_round(td, s, 1, "b+r", &v);
	r = withdraw(td, s, "Ws P0");
	OK(r);
	ck_assert_msg(json_is_array(hj_get(r, "voided")) && json_array_size(hj_get(r, "voided")) == 0,
		      "%s", hj_text(r));
	json_decref(r);
	hc_close(td);
}
END_TEST

/* A board event of `system` with the four entrants `nm`, round 1 paired (into *v), and `gone`
 * withdrawn. Returns its id. */
static long long withdrawn_in_round_1(struct hc *td, const char *name, const char *system,
				      const char *const nm[4], const char *gone, struct round_view *v)
{
	long long t = board_event(td, name, system, NULL);
	for (int i = 0; i < 4; i++) {
		json_t *r = enter(td, t, json_pack("{s:s, s:s}", "name", nm[i], "rank", "5k"));
		OK(r);
		json_decref(r);
	}
	start(td, t, 1, v);
	tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
				(json_int_t)t, "player", gone));
	return t;
}

/* A withdrawal undone (Swiss, McMahon, round robin): the player entered again is back from the
 * next round paired, the rounds missed count as absent (a round robin's forfeits stand).
 * Before: "registered already", for good. */
START_TEST(test_reinstate)
{
	struct hc *td = tt_director("ri_td");
	long long t = board_event(td, "RI Swiss", "swiss", json_pack("{s:i}", "rounds", 4));
	const char *nm[4] = {"Ri Ann", "Ri Bob", "Ri Cid", "Ri Dan"};
	for (int i = 0; i < 4; i++) {
		json_t *r = enter(td, t, json_pack("{s:s, s:s}", "name", nm[i], "rank", "5k"));
		OK(r);
		json_decref(r);
	}
	struct round_view v;
	start(td, t, 1, &v);
	tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
				(json_int_t)t, "player", "Ri Ann")); /* by mistake: her game is forfeit */
	for (int i = 0; i < v.n; i++)
		if (strcmp(v.black[i], "Ri Ann") != 0 && strcmp(v.white[i], "Ri Ann") != 0)
			result(td, v.game[i], "b+r");
	start(td, t, 2, &v);
	ck_assert(!in_round(&v, "Ri Ann"));
	for (int i = 0; i < v.n; i++)
		result(td, v.game[i], "w+r");
	json_t *r = enter(td, t, json_pack("{s:s, s:s}", "name", "Ri Ann", "rank", "5k"));
	OK(r);
	ck_assert_int_eq(hj_int(r, "reinstated_after"), 1);
	json_decref(r);
	r = hc_req(td, "{s:s, s:I}", "cmd", "tournament.get", "tournament", (json_int_t)t);
	size_t k;
	json_t *p;
	json_array_foreach(hj_get(r, "tournament.field"), k, p)
		if (strcmp(hj_str(p, "name"), "Ri Ann") == 0)
			ck_assert_int_eq(hj_int(p, "withdrawn_after"), 0);
	json_decref(r);
	start(td, t, 3, &v);
	ck_assert_msg(in_round(&v, "Ri Ann"), "the reinstated player was not paired");
	/* round 2, missed, counts as absent (0 points, as a late entry's) */
	ck_assert_double_eq(standing(td, t, "Ri Ann", "points"), 0);
	/* a round robin's too: the player keeps their place in the schedule (it was a
	 * conflict, "Swiss and McMahon events only"); the forfeit stands */
	long long rr = withdrawn_in_round_1(td, "RI RR", "round_robin", nm, "Ri Bob", &v);
	for (int i = 0; i < v.n; i++)
		if (strcmp(v.black[i], "Ri Bob") != 0 && strcmp(v.white[i], "Ri Bob") != 0)
			result(td, v.game[i], "b+r");
	r = enter(td, rr, json_pack("{s:s, s:s}", "name", "Ri Bob", "rank", "5k"));
	OK(r);
	ck_assert_int_eq(hj_int(r, "reinstated_after"), 1);
	json_decref(r);
	ck_assert_double_eq(standing(td, rr, "Ri Bob", "losses"), 1); /* round 1's forfeit */
	start(td, rr, 2, &v);
	int gb = game_of_player(&v, "Ri Bob");
	ck_assert_msg(gb >= 0, "the reinstated player is not in round 2");
	r = hc_req(td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)v.game[gb]);
	OK(r);
	const char *phase = hj_str(r, "game.phase");
	ck_assert_msg(!json_is_string(hj_get(r, "game.result")) && phase && strcmp(phase, "ended"),
		      "round 2's game is not to be played: %s", hj_text(r));
	json_decref(r);
	/* a knockout's withdrawal stands */
	long long ko = withdrawn_in_round_1(td, "RI KO", "knockout", nm, "Ri Cid", &v);
	refused(td, json_pack("{s:s, s:I, s:{s:s}}", "cmd", "tournament.register", "tournament",
			      (json_int_t)ko, "entrant", "name", "Ri Cid"), "conflict",
		"a knockout's withdrawal is not undone");
	hc_close(td);
}
END_TEST

/* A player withdrawn during round 2: standings as of round 1 do not mark them (they were in
 * the event then; it said withdrawn_after 2 there), as of round 2 they do. */
START_TEST(test_withdrawn_mark_as_of)
{
	struct hc *td = tt_director("wm_td");
	long long t = board_event(td, "WM Swiss", "swiss", json_pack("{s:i}", "rounds", 3));
	const char *nm[4] = {"Wm Ann", "Wm Bob", "Wm Cid", "Wm Dan"};
	for (int i = 0; i < 4; i++) {
		json_t *r = enter(td, t, json_pack("{s:s, s:s}", "name", nm[i], "rank", "5k"));
		OK(r);
		json_decref(r);
	}
	struct round_view v;
	start(td, t, 1, &v);
	for (int i = 0; i < v.n; i++)
		result(td, v.game[i], "b+r");
	start(td, t, 2, &v);
	tt_req_ok(td, json_pack("{s:s, s:I, s:s}", "cmd", "tournament.withdraw", "tournament",
				(json_int_t)t, "player", "Wm Cid"));
	for (int round = 1; round <= 2; round++) {
		json_t *r = hc_req(td, "{s:s, s:I, s:i}", "cmd", "tournament.standings", "tournament",
				   (json_int_t)t, "round", round);
		OK(r);
		size_t k;
		json_t *row;
		bool seen = false;
		json_array_foreach(hj_get(r, "standings"), k, row)
			if (strcmp(hj_str(row, "player"), "Wm Cid") == 0) {
				seen = true;
				json_t *wd = json_object_get(row, "withdrawn_after");
				ck_assert_msg(round == 1 ? !wd : json_integer_value(wd) == 2,
					      "as of round %d: %s", round, hj_text(row));
			}
		ck_assert(seen);
		json_decref(r);
	}
	hc_close(td);
}
END_TEST

/* h9's DT[] is the venue's day (the server's time zone, TZ), not UTC's: a daemon 12 hours
 * away from UTC (behind before noon UTC, ahead after, so that its day differs from UTC's)
 * dates a round played now on its own day. Before: the UTC day. */
START_TEST(test_h9_dates_local)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	bool behind = tm.tm_hour < 12;
	const char *env[] = {behind ? "TZ=XXX+12" : "TZ=XXX-12", NULL}; /* POSIX: no tzdata needed */
	struct hd d;
	ck_assert_int_eq(hd_start_env(&d, NULL, env), 0);
	struct hc *td = hc_login_new(d.port, "dt_td");
	ck_assert_ptr_nonnull(td);
	ck_assert_int_eq(hd_grant(&d, "dt_td", "td"), 0);
	ck_assert(hc_login_as(td, "dt_td"));
	json_t *r = hc_req(td, "{s:s, s:s, s:s, s:i, s:s, s:i}", "cmd", "tournament.create", "name",
			   "DT Cup", "system", "swiss", "rounds", 1, "venue", "board", "size", 9);
	OK(r);
	long long t = hj_int(r, "tournament");
	json_decref(r);
	for (int i = 0; i < 2; i++) {
		r = enter(td, t, json_pack("{s:s, s:s}", "name", i ? "Dt Two" : "Dt One", "rank", "3k"));
		OK(r);
		json_decref(r);
	}
	struct round_view v;
	start(td, t, 1, &v);
	result(td, v.game[0], "B+R");
	r = hc_req(td, "{s:s, s:I, s:s}", "cmd", "tournament.export", "tournament", (json_int_t)t,
		   "format", "h9");
	OK(r);
	char want[2][64];
	for (int k = 0; k < 2; k++) { /* the day there now, or a minute on (midnight) */
		time_t there = now + (behind ? -12 : 12) * 3600 + k * 60;
		char day[16];
		gmtime_r(&there, &tm);
		strftime(day, sizeof day, "%Y-%m-%d", &tm);
		snprintf(want[k], sizeof want[k], "; DT[%s,%s]", day, day);
	}
	const char *data = hj_str(r, "data");
	ck_assert_msg(data && (strstr(data, want[0]) || strstr(data, want[1])),
		      "expected %s: %s", want[0], data ? data : "no data");
	json_decref(r);
	hc_close(td);
	ck_assert_int_eq(hd_stop(&d), 0);
	hd_cleanup(&d);
}
END_TEST

/* An online event: the pairing may change while the games are scheduled (start_at later). */
START_TEST(test_pair_edit_online)
{
	static char names[TT_MAXP][32];
	struct tt_event e = {0};
	tt_players(&e, "po", 4, names);
	e.td = tt_director("po_td");
	long long t = tt_create(e.td, "PO Swiss", "swiss", json_pack("{s:i}", "rounds", 1));
	for (int i = 0; i < 4; i++)
		register_ok(e.td, t, e.names[i]);
	json_t *r = hc_req(e.td, "{s:s, s:I, s:f}", "cmd", "tournament.start_round", "tournament",
			   (json_int_t)t, "start_at", tt_wall_s() + 3600);
	OK(r);
	json_decref(r);
	struct round_view v, w;
	pairings(e.td, t, 1, &v);
	refused(e.td, json_pack("{s:s, s:I, s:s, s:s}", "cmd", "tournament.pair_edit", "tournament",
				(json_int_t)t, "op", "bye", "player", v.black[0]), "conflict", "no bye");
	tt_req_ok(e.td, json_pack("{s:s, s:I, s:s, s:I}", "cmd", "tournament.pair_edit", "tournament",
				  (json_int_t)t, "op", "swap_colors", "game", (json_int_t)v.game[0]));
	pairings(e.td, t, 1, &w);
	ck_assert_str_eq(w.black[0], v.white[0]);
	r = hc_req(e.td, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)v.game[0]);
	ck_assert_pstr_eq(hj_str(r, "game.phase"), "scheduled");
	ck_assert_double_eq_tol(hj_num(r, "game.start_at"), tt_wall_s() + 3600, 60);
	json_decref(r);
	tt_close_all(&e);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("td_field");
	TCase *tc = tcase_create("field");
	tcase_add_checked_fixture(tc, tt_setup, tt_teardown);
	tcase_set_timeout(tc, TEST_TIMEOUT_S);
	tcase_add_test(tc, test_entrants);
	tcase_add_test(tc, test_handicap_by_mms);
	tcase_add_test(tc, test_update_settings);
	tcase_add_test(tc, test_update_rounds_late);
	tcase_add_test(tc, test_update_message_whole);
	tcase_add_test(tc, test_update_rounds_derived);
	tcase_add_test(tc, test_withdraw_over);
	tcase_add_test(tc, test_withdraw_voided);
	tcase_add_test(tc, test_reinstate);
	tcase_add_test(tc, test_withdrawn_mark_as_of);
	tcase_add_test(tc, test_h9_dates_local);
	tcase_add_test(tc, test_exports_full_names);
	tcase_add_test(tc, test_absent_late);
	tcase_add_test(tc, test_absent_mcmahon);
	tcase_add_test(tc, test_pair_edit);
	tcase_add_test(tc, test_pair_edit_online);
	tcase_add_test(tc, test_unpair);
	tcase_add_test(tc, test_delete);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
