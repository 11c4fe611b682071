/* Tests for common/sgf: the reader (grammar, escapes, main line, setup, passes, limits and
 * errors with byte offsets), the writer (exact output, escaping, komi and time formats) and
 * round trips, plus a mutation run that must never crash and must round-trip whatever it
 * accepts, and the shipped examples/game.sgf. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sgf.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static void parse_ok_len(const char *s, size_t len, struct sgf_game *g)
{
	struct sgf_error err;
	int rc = sgf_parse(s, len, g, &err);
	ck_assert_msg(rc == SGF_OK, "parse failed (%d): %s", rc, err.message);
}

static void parse_ok(const char *s, struct sgf_game *g) { parse_ok_len(s, strlen(s), g); }

static void check_move(const struct sgf_game *g, size_t i, int color, int x, int y)
{
	ck_assert_uint_lt(i, g->nmoves);
	ck_assert_int_eq(g->moves[i].color, color);
	ck_assert_int_eq(g->moves[i].x, x);
	ck_assert_int_eq(g->moves[i].y, y);
}

static void str_eq_or_null(const char *a, const char *b)
{
	if (!a || !b)
		ck_assert_ptr_eq(a, b);
	else
		ck_assert_str_eq(a, b);
}

static void games_equal(const struct sgf_game *a, const struct sgf_game *b)
{
	ck_assert_int_eq(a->size, b->size);
	ck_assert_double_eq(a->komi, b->komi);
	ck_assert_int_eq(a->handicap, b->handicap);
	ck_assert_int_eq(a->first_color, b->first_color);
	ck_assert_double_eq(a->time_limit_s, b->time_limit_s);
	ck_assert_uint_eq(a->nsetup_black, b->nsetup_black);
	ck_assert_uint_eq(a->nsetup_white, b->nsetup_white);
	for (size_t i = 0; i < a->nsetup_black; i++) {
		ck_assert_int_eq(a->setup_black[i].x, b->setup_black[i].x);
		ck_assert_int_eq(a->setup_black[i].y, b->setup_black[i].y);
	}
	for (size_t i = 0; i < a->nsetup_white; i++) {
		ck_assert_int_eq(a->setup_white[i].x, b->setup_white[i].x);
		ck_assert_int_eq(a->setup_white[i].y, b->setup_white[i].y);
	}
	str_eq_or_null(a->black, b->black);
	str_eq_or_null(a->white, b->white);
	str_eq_or_null(a->black_rank, b->black_rank);
	str_eq_or_null(a->white_rank, b->white_rank);
	str_eq_or_null(a->date, b->date);
	str_eq_or_null(a->event, b->event);
	str_eq_or_null(a->round, b->round);
	str_eq_or_null(a->rules, b->rules);
	str_eq_or_null(a->result, b->result);
	str_eq_or_null(a->overtime, b->overtime);
	str_eq_or_null(a->comment, b->comment);
	ck_assert_uint_eq(a->nmoves, b->nmoves);
	for (size_t i = 0; i < a->nmoves; i++) {
		const struct sgf_move *m = &a->moves[i], *n = &b->moves[i];
		ck_assert_int_eq(m->color, n->color);
		ck_assert_int_eq(m->x, n->x);
		ck_assert_int_eq(m->y, n->y);
		ck_assert_int_eq(m->time_left_ms, n->time_left_ms);
		ck_assert_int_eq(m->periods_left, n->periods_left);
		str_eq_or_null(m->comment, n->comment);
	}
}

/* ---- reader ----------------------------------------------------------------------------- */

static const char *full_record =
	"\xEF\xBB\xBF  (;FF[4]GM[1]SZ[19]KM[6.5]HA[2]PB[Black \\] Player]PW[Wh\\\\ite]\n"
	"BR[3d]WR[5k]DT[2024-05-01]EV[Test\tCup]RO[2 (final)]RU[Japanese]RE[W+R]\n"
	"OT[5x30 byo-yomi]TM[1800]PL[W]\n"
	"AB[dp][pd]  AW [dd]\n"
	"C[root line 1\nline 2 soft\\\nbreak]\n"
	"; W[qp]WL[1790.25]OW[5]BL[1.5]C[first]\n"
	";B[]BL[1700]\n"
	";W[tt]\n"
	";B[aa]XX[unknown][values]ZZZ[x]\n"
	";C[comment without a move]\n"
	";W[sa]C[a \\\\ b \\] c]\n"
	";B[as];W[ss])\n";

START_TEST(test_parse_full)
{
	struct sgf_game g;
	parse_ok(full_record, &g);
	ck_assert_int_eq(g.size, 19);
	ck_assert_double_eq(g.komi, 6.5);
	ck_assert_int_eq(g.handicap, 2);
	ck_assert_str_eq(g.black, "Black ] Player");
	ck_assert_str_eq(g.white, "Wh\\ite");
	ck_assert_str_eq(g.black_rank, "3d");
	ck_assert_str_eq(g.white_rank, "5k");
	ck_assert_str_eq(g.date, "2024-05-01");
	ck_assert_str_eq(g.event, "Test Cup"); /* SimpleText: tab becomes a space */
	ck_assert_str_eq(g.round, "2 (final)");
	ck_assert_str_eq(g.rules, "Japanese");
	ck_assert_str_eq(g.result, "W+R");
	ck_assert_str_eq(g.overtime, "5x30 byo-yomi");
	ck_assert_double_eq(g.time_limit_s, 1800);
	ck_assert_int_eq(g.first_color, SGF_WHITE);
	/* dp = column d (3), row p (15) -> y = 18 - 15 = 3; pd -> (15, 15); dd -> (3, 15) */
	ck_assert_uint_eq(g.nsetup_black, 2);
	ck_assert_int_eq(g.setup_black[0].x, 3);
	ck_assert_int_eq(g.setup_black[0].y, 3);
	ck_assert_int_eq(g.setup_black[1].x, 15);
	ck_assert_int_eq(g.setup_black[1].y, 15);
	ck_assert_uint_eq(g.nsetup_white, 1);
	ck_assert_int_eq(g.setup_white[0].x, 3);
	ck_assert_int_eq(g.setup_white[0].y, 15);
	ck_assert_str_eq(g.comment, "root line 1\nline 2 softbreak");

	ck_assert_uint_eq(g.nmoves, 7);
	check_move(&g, 0, SGF_WHITE, 16, 3); /* qp */
	ck_assert_int_eq(g.moves[0].time_left_ms, 1790250); /* WL kept, BL (other colour) not */
	ck_assert_int_eq(g.moves[0].periods_left, 5);
	ck_assert_str_eq(g.moves[0].comment, "first");
	check_move(&g, 1, SGF_BLACK, -1, -1); /* B[] */
	ck_assert_int_eq(g.moves[1].time_left_ms, 1700000);
	ck_assert_int_eq(g.moves[1].periods_left, -1);
	check_move(&g, 2, SGF_WHITE, -1, -1); /* W[tt] on 19x19 */
	ck_assert_int_eq(g.moves[2].time_left_ms, -1);
	ck_assert_ptr_null(g.moves[2].comment);
	check_move(&g, 3, SGF_BLACK, 0, 18); /* aa: top-left */
	/* the move-less node's comment joins the previous move's */
	ck_assert_str_eq(g.moves[3].comment, "comment without a move");
	check_move(&g, 4, SGF_WHITE, 18, 18); /* sa: top-right */
	ck_assert_str_eq(g.moves[4].comment, "a \\ b ] c");
	check_move(&g, 5, SGF_BLACK, 0, 0);   /* as: bottom-left */
	check_move(&g, 6, SGF_WHITE, 18, 0);  /* ss: bottom-right */
	sgf_game_free(&g);
	ck_assert_ptr_null(g.moves);
	ck_assert_uint_eq(g.nmoves, 0);
}
END_TEST

START_TEST(test_parse_defaults)
{
	struct sgf_game g;
	parse_ok("(;)", &g);
	ck_assert_int_eq(g.size, 19);
	ck_assert_double_eq(g.komi, 0);
	ck_assert_int_eq(g.handicap, 0);
	ck_assert_double_eq(g.time_limit_s, -1);
	ck_assert_int_eq(g.first_color, 0);
	ck_assert_ptr_null(g.black);
	ck_assert_ptr_null(g.result);
	ck_assert_ptr_null(g.comment);
	ck_assert_uint_eq(g.nmoves, 0);
	ck_assert_uint_eq(g.nsetup_black + g.nsetup_white, 0);
	sgf_game_free(&g);
}
END_TEST

START_TEST(test_parse_variations)
{
	struct sgf_game g;
	/* main line: first child at each branch; later variations and trees are ignored */
	parse_ok("(;SZ[9];B[aa](;W[bb](;B[cc];W[dd])(;B[ee]))(;W[ff];B[gg]))(;B[hh])", &g);
	ck_assert_int_eq(g.size, 9);
	ck_assert_uint_eq(g.nmoves, 4);
	check_move(&g, 0, SGF_BLACK, 0, 8);
	check_move(&g, 1, SGF_WHITE, 1, 7);
	check_move(&g, 2, SGF_BLACK, 2, 6);
	check_move(&g, 3, SGF_WHITE, 3, 5);
	sgf_game_free(&g);

	/* a branch right at the root */
	parse_ok("(;SZ[9](;B[ee];W[ef])(;B[aa]))", &g);
	ck_assert_uint_eq(g.nmoves, 2);
	check_move(&g, 0, SGF_BLACK, 4, 4);
	check_move(&g, 1, SGF_WHITE, 4, 3);
	sgf_game_free(&g);

	/* side variations may hold anything syntactically valid, even off-board points */
	parse_ok("(;SZ[5];B[aa](;W[bb])(;W[zz]GM[7]SZ[99]))", &g);
	ck_assert_uint_eq(g.nmoves, 2);
	ck_assert_int_eq(g.size, 5);
	check_move(&g, 1, SGF_WHITE, 1, 3);
	sgf_game_free(&g);

	/* a second game tree of a collection is checked but not read */
	parse_ok("(;SZ[9];B[aa])\n(;SZ[13];B[zz];W[a])\n", &g);
	ck_assert_int_eq(g.size, 9);
	ck_assert_uint_eq(g.nmoves, 1);
	sgf_game_free(&g);
}
END_TEST

START_TEST(test_parse_setup)
{
	struct sgf_game g;
	/* compressed list: aa:bb is the 2x2 square at the top-left; AE removes; later AW on an
	 * AB point replaces it; setup in a node before the first move is applied */
	parse_ok("(;SZ[9]AB[aa:bb][ee]AW[ii];AE[ab]AW[ee];B[cc])", &g);
	ck_assert_uint_eq(g.nsetup_black, 3);
	ck_assert_int_eq(g.setup_black[0].x, 0); /* aa */
	ck_assert_int_eq(g.setup_black[0].y, 8);
	ck_assert_int_eq(g.setup_black[1].x, 1); /* ba */
	ck_assert_int_eq(g.setup_black[1].y, 8);
	ck_assert_int_eq(g.setup_black[2].x, 1); /* bb */
	ck_assert_int_eq(g.setup_black[2].y, 7);
	ck_assert_uint_eq(g.nsetup_white, 2);
	ck_assert_int_eq(g.setup_white[0].x, 8); /* ii */
	ck_assert_int_eq(g.setup_white[0].y, 0);
	ck_assert_int_eq(g.setup_white[1].x, 4); /* ee */
	ck_assert_int_eq(g.setup_white[1].y, 4);
	ck_assert_uint_eq(g.nmoves, 1);
	sgf_game_free(&g);

	/* SZ after AB in the same root node still governs the points */
	parse_ok("(;AB[ii]SZ[9])", &g);
	ck_assert_uint_eq(g.nsetup_black, 1);
	ck_assert_int_eq(g.setup_black[0].x, 8);
	ck_assert_int_eq(g.setup_black[0].y, 0);
	sgf_game_free(&g);

	/* FF[3] long identifiers: lowercase letters are ignored */
	parse_ok("(;SZ[9]AddWhite[aa]CoPyright[x])", &g);
	ck_assert_uint_eq(g.nsetup_white, 1);
	ck_assert_int_eq(g.setup_white[0].y, 8);
	sgf_game_free(&g);
}
END_TEST

START_TEST(test_parse_passes)
{
	struct sgf_game g;
	parse_ok("(;SZ[19];B[];W[tt];B[ ];W[tt])", &g);
	ck_assert_uint_eq(g.nmoves, 4);
	for (size_t i = 0; i < 4; i++)
		check_move(&g, i, i % 2 ? SGF_WHITE : SGF_BLACK, -1, -1);
	sgf_game_free(&g);
	/* on a board over 19x19, tt is a point: column 19, row 19 -> y = 21 - 19 = 1 */
	parse_ok("(;SZ[21];B[tt];W[])", &g);
	check_move(&g, 0, SGF_BLACK, 19, 1);
	check_move(&g, 1, SGF_WHITE, -1, -1);
	sgf_game_free(&g);
	/* and on a small board, tt is still a pass */
	parse_ok("(;SZ[9];B[tt])", &g);
	check_move(&g, 0, SGF_BLACK, -1, -1);
	sgf_game_free(&g);
}
END_TEST

START_TEST(test_parse_comments_and_escapes)
{
	struct sgf_game g;
	/* soft line breaks in every line-ending form; hard \r\n becomes \n in text */
	parse_ok("(;C[a\\\r\nb\\\nc\\\rd\r\ne]PB[x\\\ny\nz];B[aa]C[\\:\\x];W[bb];C[one];C[two])", &g);
	ck_assert_str_eq(g.comment, "abcd\ne");
	ck_assert_str_eq(g.black, "xy z");
	ck_assert_str_eq(g.moves[0].comment, ":x");
	ck_assert_str_eq(g.moves[1].comment, "one\ntwo");
	sgf_game_free(&g);
	/* comment in a node before any move goes to the root comment */
	parse_ok("(;C[root];C[more];B[aa])", &g);
	ck_assert_str_eq(g.comment, "root\nmore");
	ck_assert_ptr_null(g.moves[0].comment);
	sgf_game_free(&g);
	/* game info outside the root is read; a later value wins */
	parse_ok("(;PB[a];B[aa];PB[b]RE[B+R])", &g);
	ck_assert_str_eq(g.black, "b");
	ck_assert_str_eq(g.result, "B+R");
	sgf_game_free(&g);
}
END_TEST

START_TEST(test_parse_numbers)
{
	struct sgf_game g;
	parse_ok("(;KM[-3];B[aa]BL[0.0005]OB[0])", &g);
	ck_assert_double_eq(g.komi, -3);
	ck_assert_int_eq(g.moves[0].time_left_ms, 1);
	ck_assert_int_eq(g.moves[0].periods_left, 0);
	sgf_game_free(&g);
	parse_ok("(;KM[ 7.50 ]TM[.5]HA[9])", &g);
	ck_assert_double_eq(g.komi, 7.5);
	ck_assert_double_eq(g.time_limit_s, 0.5);
	ck_assert_int_eq(g.handicap, 9);
	sgf_game_free(&g);
	/* HA[1] places no stones and is not written (FF4: HA is 2 or more): it reads as none, so
	 * a record reads back the same (a libFuzzer find) */
	parse_ok("(;SZ[9]HA[1])", &g);
	ck_assert_int_eq(g.handicap, 0);
	sgf_game_free(&g);
	parse_ok("(;KM[0.1])", &g);
	ck_assert_double_eq(g.komi, 0.1);
	sgf_game_free(&g);
	/* Komi is kept to the thousandth, as written, so a record reads back the same (a
	 * libFuzzer find: KM[.048888888888] was written as 0.049). */
	parse_ok("(;GM[1]SZ[8]KM[.048888888888])", &g);
	ck_assert_double_eq_tol(g.komi, 0.049, 1e-12);
	char *text = sgf_write(&g);
	ck_assert_ptr_nonnull(strstr(text, "KM[0.049]"));
	struct sgf_game back;
	parse_ok(text, &back);
	ck_assert(back.komi == g.komi);
	sgf_game_free(&back);
	free(text);
	sgf_game_free(&g);
}
END_TEST

START_TEST(test_parse_unicode)
{
	struct sgf_game g;
	parse_ok("(;CA[UTF-8]PB[李昌镐]PW[Jérôme 🙂]C[黑棋\n白棋])", &g);
	ck_assert_str_eq(g.black, "李昌镐");
	ck_assert_str_eq(g.white, "Jérôme 🙂");
	ck_assert_str_eq(g.comment, "黑棋\n白棋");
	sgf_game_free(&g);
}
END_TEST

/* ---- errors ----------------------------------------------------------------------------- */

struct bad_case {
	const char *input;
	size_t len; /* 0: strlen */
	int rc;
	size_t offset;
	const char *message; /* substring expected in the message */
};

#define LIT(s) s, sizeof(s) - 1

static const struct bad_case bad[] = {
	{"(;C[abc", 0, SGF_ESYNTAX, 3, "unterminated property value"},
	{"(;WN[1])", 0, SGF_EVALUE, 4, "WN is not two numbers"},
	{"(;WN[1:x])", 0, SGF_EVALUE, 4, "is not an integer"},
	{"(;SZ[9]TB[zz])", 0, SGF_EVALUE, 9, "off the 9x9 board"},
	{"(;C[a\\])", 0, SGF_ESYNTAX, 3, "unterminated property value"},
	{"(;B[aa];W[bb];C[x\\", 0, SGF_ESYNTAX, 15, "unterminated property value"},
	{"x(;)", 0, SGF_ESYNTAX, 0, "expected '('"},
	{"  ;B[aa])", 0, SGF_ESYNTAX, 2, "expected '('"},
	{"(;B[a])", 0, SGF_EVALUE, 3, "bad point 'a'"},
	{"(;B[a1])", 0, SGF_EVALUE, 3, "bad point 'a1'"},
	{"(;B[abc])", 0, SGF_EVALUE, 3, "bad point 'abc'"},
	{"(;B[zz])", 0, SGF_EVALUE, 3, "point 'zz' off the 19x19 board"},
	{"(;FF[4]SZ[9]\n;B[jj])", 0, SGF_EVALUE, 15, "point 'jj' off the 9x9 board"},
	{"(;SZ[21];W[vv])", 0, SGF_EVALUE, 10, "off the 21x21 board"},
	{"(;AB[aa:zz])", 0, SGF_EVALUE, 4, "point 'zz' off the 19x19 board"},
	{"(;AB[])", 0, SGF_EVALUE, 4, "bad point"},
	{"(;SZ[1])", 0, SGF_EVALUE, 4, "board size 1 out of range (2..25)"},
	{"(;SZ[26])", 0, SGF_EVALUE, 4, "board size 26 out of range"},
	{"(;SZ[nine])", 0, SGF_EVALUE, 4, "SZ[nine] is not an integer"},
	{"(;SZ[19:13])", 0, SGF_EUNSUPPORTED, 4, "not square"},
	{"(;GM[2])", 0, SGF_EUNSUPPORTED, 4, "GM[2] is not Go"},
	{"(;FF[4]\n;GM[1])", 0, SGF_EUNSUPPORTED, 11, "GM is only allowed in the root"},
	{"(;B[aa];SZ[9])", 0, SGF_EUNSUPPORTED, 10, "SZ is only allowed in the root"},
	{"(;B[aa];W[bb]", 0, SGF_ESYNTAX, 13, "unexpected end of input (1 game tree not"},
	{"(;B[aa](;W[bb]", 0, SGF_ESYNTAX, 14, "2 game trees not closed"},
	{"(", 0, SGF_ESYNTAX, 1, "unexpected end of input"},
	{"(;W[aa])(", 0, SGF_ESYNTAX, 9, "unexpected end of input"},
	{"", 0, SGF_ESYNTAX, 0, "empty input"},
	{"  \n ", 0, SGF_ESYNTAX, 4, "expected '('"},
	{"()", 0, SGF_ESYNTAX, 1, "expected ';'"},
	{"(;B[aa]))", 0, SGF_ESYNTAX, 8, "unexpected character ')' after the game tree"},
	{"(;B[aa])x", 0, SGF_ESYNTAX, 8, "unexpected character 'x'"},
	{"(;B[aa]W[bb])", 0, SGF_EVALUE, 8, "node has both B and W"},
	{"(;B[aa];B[bb]B[cc])", 0, SGF_EVALUE, 13, "property B repeated"},
	{"(;KM[7.5][6])", 0, SGF_EVALUE, 9, "KM takes one value"},
	{"(;KM[abc])", 0, SGF_EVALUE, 4, "KM[abc] is not a number"},
	{"(;KM[1e3])", 0, SGF_EVALUE, 4, "not a number"},
	{"(;KM[2000])", 0, SGF_EVALUE, 4, "out of range"},
	{"(;HA[1.5])", 0, SGF_EVALUE, 4, "HA[1.5] is not an integer"},
	{"(;HA[-1])", 0, SGF_EVALUE, 4, "out of range"},
	{"(;TM[-1])", 0, SGF_EVALUE, 4, "out of range"},
	{"(;B[aa]BL[-3])", 0, SGF_EVALUE, 9, "BL[-3] is out of range"},
	{"(;B[aa]OB[2.5])", 0, SGF_EVALUE, 9, "not an integer"},
	{"(;B[aa]OB[40000])", 0, SGF_EVALUE, 9, "out of range"},
	{"(;PL[X])", 0, SGF_EVALUE, 4, "PL[X] is not B or W"},
	{"(;B[aa];AB[cc])", 0, SGF_EUNSUPPORTED, 10, "setup property AB after the first move"},
	{"(;B[aa](;W[bb]);B[cc])", 0, SGF_ESYNTAX, 15, "node after a variation"},
	{"(;B[aa](;W[bb])C[x])", 0, SGF_ESYNTAX, 15, "property outside a node"},
	{"(;B[aa]C)", 0, SGF_ESYNTAX, 8, "property C has no value"},
	{"(;B[aa]C", 0, SGF_ESYNTAX, 8, "property C has no value"},
	{"(;1)", 0, SGF_ESYNTAX, 2, "unexpected character '1'"},
	{"(;B[aa]\t\x01)", 0, SGF_ESYNTAX, 8, "unexpected byte 0x01"},
	{LIT("(;B[aa]\0)"), SGF_ESYNTAX, 7, "unexpected byte 0x00"},
	{LIT("(;C[a\0b])"), SGF_ESYNTAX, 5, "NUL byte in property value"},
	{LIT("(;C[a\\\0b])"), SGF_ESYNTAX, 6, "NUL byte in property value"},
	{"(;B[aa](;W[bb](;B[zz])))", 0, SGF_EVALUE, 17, "point 'zz' off"},
};

START_TEST(test_parse_errors)
{
	const struct bad_case *c = &bad[_i];
	size_t len = c->len ? c->len : strlen(c->input);
	struct sgf_game g;
	memset(&g, 0, sizeof g);
	g.size = 77; /* a failed parse must not write *out */
	struct sgf_error err;
	int rc = sgf_parse(c->input, len, &g, &err);
	ck_assert_msg(rc == c->rc, "case %d: rc %d, want %d (%s)", _i, rc, c->rc, err.message);
	ck_assert_msg(err.offset == c->offset, "case %d: offset %zu, want %zu (%s)", _i, err.offset,
	              c->offset, err.message);
	ck_assert_msg(strstr(err.message, c->message) != NULL, "case %d: message '%s' lacks '%s'", _i,
	              err.message, c->message);
	char suffix[40];
	snprintf(suffix, sizeof suffix, " at byte %zu", c->offset);
	size_t ml = strlen(err.message), sl = strlen(suffix);
	ck_assert_msg(ml > sl && !strcmp(err.message + ml - sl, suffix), "case %d: '%s'", _i,
	              err.message);
	ck_assert_int_eq(g.size, 77);
	ck_assert_ptr_null(g.moves);
	/* a NULL err is allowed too */
	ck_assert_int_eq(sgf_parse(c->input, len, &g, NULL), c->rc);
}
END_TEST

START_TEST(test_parse_oversize)
{
	const char *rec = "(;SZ[9];B[aa])";
	size_t n = SGF_MAX_INPUT;
	char *buf = malloc(n + 1);
	ck_assert_ptr_nonnull(buf);
	memset(buf, ' ', n + 1);
	memcpy(buf, rec, strlen(rec));
	struct sgf_game g;
	struct sgf_error err;
	/* exactly at the limit (trailing whitespace) is accepted */
	ck_assert_int_eq(sgf_parse(buf, n, &g, &err), SGF_OK);
	ck_assert_uint_eq(g.nmoves, 1);
	sgf_game_free(&g);
	/* one byte over is refused before reading */
	ck_assert_int_eq(sgf_parse(buf, n + 1, &g, &err), SGF_ELIMIT);
	ck_assert_uint_eq(err.offset, SGF_MAX_INPUT);
	ck_assert_ptr_nonnull(strstr(err.message, "input is over 4194304 bytes"));
	free(buf);
}
END_TEST

/* Append printf output to a growing buffer (test helper). */
static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*buf = realloc(*buf, *cap);
		ck_assert_ptr_nonnull(*buf);
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

START_TEST(test_parse_limits)
{
	struct sgf_game g;
	struct sgf_error err;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	/* moves: exactly SGF_MAX_MOVES is fine, one more is refused */
	append(&buf, &len, &cap, "(;SZ[9]");
	for (int i = 0; i < SGF_MAX_MOVES; i++)
		append(&buf, &len, &cap, i % 2 ? ";W[]" : ";B[]");
	size_t before_last = len;
	append(&buf, &len, &cap, ")");
	ck_assert_int_eq(sgf_parse(buf, len, &g, &err), SGF_OK);
	ck_assert_uint_eq(g.nmoves, SGF_MAX_MOVES);
	sgf_game_free(&g);
	len = before_last;
	append(&buf, &len, &cap, ";B[aa])");
	ck_assert_int_eq(sgf_parse(buf, len, &g, &err), SGF_ELIMIT);
	ck_assert_uint_eq(err.offset, before_last + 2);
	ck_assert_ptr_nonnull(strstr(err.message, "more than 100000 moves"));

	/* values in one node */
	len = 0;
	append(&buf, &len, &cap, "(;AB");
	for (int i = 0; i < SGF_MAX_NODE_VALUES; i++)
		append(&buf, &len, &cap, "[aa]");
	size_t at = len;
	append(&buf, &len, &cap, "[bb])");
	ck_assert_int_eq(sgf_parse(buf, len, &g, &err), SGF_ELIMIT);
	ck_assert_uint_eq(err.offset, at);
	buf[at] = ')';
	ck_assert_int_eq(sgf_parse(buf, at + 1, &g, &err), SGF_OK);
	ck_assert_uint_eq(g.nsetup_black, 1); /* the same point 4096 times */
	sgf_game_free(&g);

	/* setup points, counted after expanding rectangles */
	len = 0;
	append(&buf, &len, &cap, "(;SZ[25]");
	int per_node = 0;
	for (int i = 0; i < SGF_MAX_SETUP_POINTS / 625 + 1; i++) {
		append(&buf, &len, &cap, per_node ? ";AE[aa:yy]" : ";AB[aa:yy]");
		per_node ^= 1;
	}
	append(&buf, &len, &cap, ")");
	ck_assert_int_eq(sgf_parse(buf, len, &g, &err), SGF_ELIMIT);
	ck_assert_ptr_nonnull(strstr(err.message, "more than 100000 setup points"));

	/* deep nesting is iterative: no stack overflow */
	len = 0;
	for (int i = 0; i < 200000; i++)
		append(&buf, &len, &cap, "(;B[]");
	for (int i = 0; i < 200000; i++)
		append(&buf, &len, &cap, ")");
	ck_assert_int_eq(sgf_parse(buf, len, &g, &err), SGF_ELIMIT); /* 200000 moves > limit */
	len = 0;
	for (int i = 0; i < 200000; i++)
		append(&buf, &len, &cap, "(;");
	for (int i = 0; i < 200000; i++)
		append(&buf, &len, &cap, ")");
	ck_assert_int_eq(sgf_parse(buf, len, &g, &err), SGF_OK);
	ck_assert_uint_eq(g.nmoves, 0);
	sgf_game_free(&g);
	free(buf);
}
END_TEST

/* ---- writer ----------------------------------------------------------------------------- */

START_TEST(test_write_exact)
{
	struct sgf_game g;
	sgf_game_init(&g);
	g.size = 9;
	g.komi = 7.5;
	g.time_limit_s = 300;
	ck_assert_int_eq(sgf_game_set_text(&g.rules, "Chinese"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.black, "al]ice"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.white, "b\\ob"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.result, "W+R"), SGF_OK);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, 4, 4, 295500, 3, NULL), SGF_OK);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_WHITE, 0, 8, 30000, -1, "warning: x]"), SGF_OK);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, -1, -1, 1, 0, NULL), SGF_OK);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_WHITE, 8, 0, -1, -1, NULL), SGF_OK);
	char *s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "(;GM[1]FF[4]CA[UTF-8]AP[tengen:0.1]SZ[9]KM[7.5]RU[Chinese]"
	                    "PB[al\\]ice]PW[b\\\\ob]TM[300]RE[W+R]\n"
	                    ";B[ee]BL[295.5]OB[3]\n"
	                    ";W[aa]WL[30]C[warning: x\\]]\n"
	                    ";B[]BL[0.001]OB[0]\n"
	                    ";W[ii])\n");
	free(s);

	/* every root property, in order */
	sgf_game_free(&g);
	g.size = 19;
	g.komi = 0.5;
	g.handicap = 2;
	g.first_color = SGF_WHITE;
	g.time_limit_s = 0;
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_BLACK, 3, 3), SGF_OK);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_BLACK, 15, 15), SGF_OK);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_WHITE, 3, 15), SGF_OK);
	const char *v[] = {"r", "b", "w", "br", "wr", "d", "e", "ro", "ot", "re", "c"};
	char **f[] = {&g.rules, &g.black, &g.white, &g.black_rank, &g.white_rank, &g.date,
	              &g.event, &g.round, &g.overtime, &g.result, &g.comment};
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
		ck_assert_int_eq(sgf_game_set_text(f[i], v[i]), SGF_OK);
	s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "(;GM[1]FF[4]CA[UTF-8]AP[tengen:0.1]SZ[19]KM[0.5]HA[2]AB[dp][pd]AW[dd]"
	                    "PL[W]RU[r]PB[b]PW[w]BR[br]WR[wr]DT[d]EV[e]RO[ro]TM[0]OT[ot]RE[re]C[c])\n");
	free(s);
	sgf_game_free(&g);

	/* A handicap of 1 (McMahon: no stones, Black first) writes no HA: SGF FF4 has HA >= 2. */
	sgf_game_init(&g);
	g.size = 9;
	g.komi = 0.5;
	g.handicap = 1;
	s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "(;GM[1]FF[4]CA[UTF-8]AP[tengen:0.1]SZ[9]KM[0.5])\n");
	free(s);
	g.handicap = 2;
	s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "(;GM[1]FF[4]CA[UTF-8]AP[tengen:0.1]SZ[9]KM[0.5]HA[2])\n");
	free(s);
	sgf_game_free(&g);
}
END_TEST

static void check_komi(double komi, const char *want)
{
	struct sgf_game g;
	sgf_game_init(&g);
	g.komi = komi;
	char *s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	ck_assert_msg(strstr(s, want) != NULL, "komi %g: %s lacks %s", komi, s, want);
	free(s);
}

START_TEST(test_write_numbers)
{
	check_komi(7.5, "KM[7.5]");
	check_komi(6, "KM[6]");
	check_komi(0.5, "KM[0.5]");
	check_komi(0, "KM[0]");
	check_komi(-0.0, "KM[0]");
	check_komi(-3, "KM[-3]");
	check_komi(-0.5, "KM[-0.5]");
	check_komi(6.25, "KM[6.25]");
	check_komi(100, "KM[100]");

	struct sgf_game g;
	sgf_game_init(&g);
	g.time_limit_s = 1234.5678; /* to the ms */
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, 0, 0, 0, -1, NULL), SGF_OK);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_WHITE, 1, 0, 3600010, 25, NULL), SGF_OK);
	char *s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(strstr(s, "TM[1234.568]"));
	ck_assert_ptr_nonnull(strstr(s, ";B[as]BL[0]\n"));
	ck_assert_ptr_nonnull(strstr(s, ";W[bs]WL[3600.01]OW[25])"));
	free(s);
	sgf_game_free(&g);
}
END_TEST

START_TEST(test_write_invalid)
{
	struct sgf_game g;
	sgf_game_init(&g);
	ck_assert_ptr_null(sgf_write(NULL));
	g.size = 1;
	ck_assert_ptr_null(sgf_write(&g));
	g.size = 26;
	ck_assert_ptr_null(sgf_write(&g));
	g.size = 19;
	g.komi = NAN;
	ck_assert_ptr_null(sgf_write(&g));
	g.komi = 1e6;
	ck_assert_ptr_null(sgf_write(&g));
	g.komi = 7.5;
	g.handicap = -1;
	ck_assert_ptr_null(sgf_write(&g));
	g.handicap = 0;
	char *s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	free(s);

	/* helpers refuse bad moves and change nothing */
	ck_assert_int_eq(sgf_game_add_move(&g, 3, 0, 0, -1, -1, NULL), SGF_EINVAL);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, 19, 0, -1, -1, NULL), SGF_EINVAL);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, -1, 0, -1, -1, NULL), SGF_EINVAL);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, 0, 0, -2, -1, NULL), SGF_EINVAL);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, 0, 0, -1, 40000, NULL), SGF_EINVAL);
	ck_assert_uint_eq(g.nmoves, 0);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_BLACK, 3, 3), SGF_OK);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_WHITE, 3, 3), SGF_EINVAL);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_WHITE, 0, 19), SGF_EINVAL);
	ck_assert_int_eq(sgf_game_add_setup(&g, 0, 0, 0), SGF_EINVAL);
	ck_assert_uint_eq(g.nsetup_black, 1);
	ck_assert_uint_eq(g.nsetup_white, 0);

	/* a hand-made record with bad contents is refused by the writer */
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, 0, 0, -1, -1, NULL), SGF_OK);
	g.moves[0].color = 0;
	ck_assert_ptr_null(sgf_write(&g));
	g.moves[0].color = SGF_BLACK;
	g.moves[0].x = 19;
	ck_assert_ptr_null(sgf_write(&g));
	g.moves[0].x = 0;
	g.setup_black[0].y = -1;
	ck_assert_ptr_null(sgf_write(&g));
	g.setup_black[0].y = 3;
	s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	free(s);
	sgf_game_free(&g);
	ck_assert_int_eq(g.size, 19);
	ck_assert_ptr_null(g.setup_black);
}
END_TEST

/* ---- round trips ------------------------------------------------------------------------ */

START_TEST(test_roundtrip_built)
{
	struct sgf_game g, h;
	sgf_game_init(&g);
	g.size = 13;
	g.komi = 6.5;
	g.handicap = 3;
	g.first_color = SGF_WHITE;
	g.time_limit_s = 2700.25;
	ck_assert_int_eq(sgf_game_set_text(&g.black, "李昌镐 [9p] \\ ]]"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.white, "Jérôme 🙂"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.black_rank, "9p"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.white_rank, "1k"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.date, "2025-01-02"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.event, "Open: round-robin"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.round, "3"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.rules, "Chinese"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.result, "B+F"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.overtime, "5x30 byo-yomi"), SGF_OK);
	ck_assert_int_eq(sgf_game_set_text(&g.comment, "line 1\nline 2 \\ back]slash\n"), SGF_OK);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_BLACK, 3, 3), SGF_OK);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_BLACK, 9, 9), SGF_OK);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_BLACK, 9, 3), SGF_OK);
	ck_assert_int_eq(sgf_game_add_setup(&g, SGF_WHITE, 0, 12), SGF_OK);
	for (int i = 0; i < 60; i++) {
		int color = i % 2 ? SGF_BLACK : SGF_WHITE;
		int x = (i * 7) % 13, y = (i * 5 + 1) % 13;
		if (i % 17 == 5)
			x = y = -1;
		const char *c = i == 10 ? "forfeited turn: illegal move (superko)" :
		                i == 11 ? "warning 1 ]\\" : NULL;
		ck_assert_int_eq(sgf_game_add_move(&g, color, x, y, i % 3 ? 1000 * i + 7 : -1,
		                                   i % 4 ? -1 : i % 6, c), SGF_OK);
	}
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_WHITE, 12, 12, 0, 0, "🙂"), SGF_OK);
	char *s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	parse_ok(s, &h);
	games_equal(&g, &h);
	char *t = sgf_write(&h);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(s, t);
	free(s);
	free(t);
	sgf_game_free(&g);
	sgf_game_free(&h);
}
END_TEST

START_TEST(test_roundtrip_parsed)
{
	struct sgf_game g, h;
	parse_ok(full_record, &g);
	char *s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	parse_ok(s, &h);
	games_equal(&g, &h);
	char *t = sgf_write(&h);
	ck_assert_str_eq(s, t);
	free(s);
	free(t);
	sgf_game_free(&g);
	sgf_game_free(&h);
}
END_TEST

/* ---- robustness ------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

/* Whatever parses must write, and write(parse(write(g))) must equal write(g). */
static void check_accepts_roundtrip(const struct sgf_game *g)
{
	struct sgf_game h;
	char *s = sgf_write(g);
	ck_assert_ptr_nonnull(s);
	parse_ok(s, &h);
	char *t = sgf_write(&h);
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(s, t);
	free(s);
	free(t);
	sgf_game_free(&h);
}

START_TEST(test_truncations)
{
	size_t n = strlen(full_record);
	struct sgf_game g;
	struct sgf_error err;
	for (size_t len = 0; len < n; len++) {
		/* copy into an exact-size buffer so ASan sees any read past len */
		char *b = malloc(len ? len : 1);
		ck_assert_ptr_nonnull(b);
		memcpy(b, full_record, len);
		int rc = sgf_parse(b, len, &g, &err);
		/* every prefix that stops before the final ')' is incomplete */
		if (len < n - 1)
			ck_assert_msg(rc != SGF_OK, "prefix %zu accepted", len);
		if (rc == SGF_OK)
			sgf_game_free(&g);
		else
			ck_assert_uint_le(err.offset, len);
		free(b);
	}
}
END_TEST

START_TEST(test_mutations)
{
	static const char alphabet[] = "()[];\\:abcdstzAB WCLKM\n\r09.-+";
	size_t n = strlen(full_record);
	int accepted = 0;
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = n + (rng() % 8);
		char *b = malloc(len);
		ck_assert_ptr_nonnull(b);
		memcpy(b, full_record, n);
		for (size_t i = n; i < len; i++)
			b[i] = alphabet[rng() % (sizeof alphabet - 1)];
		int edits = 1 + (int)(rng() % 4);
		for (int e = 0; e < edits; e++) {
			size_t at = rng() % len;
			switch (rng() % 3) {
			case 0: b[at] = alphabet[rng() % (sizeof alphabet - 1)]; break;
			case 1: b[at] = (char)(rng() & 0xff); break;
			default: len = at + (rng() % (len - at)) + 1; break; /* truncate */
			}
		}
		struct sgf_game g;
		struct sgf_error err;
		int rc = sgf_parse(b, len, &g, &err);
		if (rc == SGF_OK) {
			accepted++;
			check_accepts_roundtrip(&g);
			sgf_game_free(&g);
		} else {
			ck_assert_uint_le(err.offset, len);
			ck_assert_ptr_nonnull(strstr(err.message, " at byte "));
		}
		free(b);
	}
	/* the run must exercise both paths */
	ck_assert_int_gt(accepted, 100);
	ck_assert_int_lt(accepted, 19900);
}
END_TEST

/* ---- the shipped example ---------------------------------------------------------------- */

static char *read_example(size_t *len)
{
	char path[4096];
	const char *data = getenv("TENGEN_TESTDATA");
	if (data) {
		/* TENGEN_TESTDATA is <srcdir>/tests/data */
		snprintf(path, sizeof path, "%s/../../examples/game.sgf", data);
	} else {
		/* this file is <srcdir>/tests/unit/test_sgf.c */
		const char *f = __FILE__;
		const char *slash = strrchr(f, '/');
		int dir = slash ? (int)(slash - f) : 0;
		snprintf(path, sizeof path, "%.*s%s../../examples/game.sgf", dir, f, slash ? "/" : "");
	}
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	char *buf = malloc(SGF_MAX_INPUT + 1);
	ck_assert_ptr_nonnull(buf);
	*len = fread(buf, 1, SGF_MAX_INPUT + 1, fp);
	fclose(fp);
	return buf;
}

START_TEST(test_example_game)
{
	size_t len;
	char *buf = read_example(&len);
	struct sgf_game g;
	parse_ok_len(buf, len, &g);
	ck_assert_int_eq(g.size, 19);
	ck_assert_double_eq(g.komi, 7.5);
	ck_assert_str_eq(g.result, "B+13.5");
	ck_assert_str_eq(g.rules, "Chinese");
	ck_assert_ptr_nonnull(g.black);
	ck_assert_ptr_nonnull(g.white);
	ck_assert_ptr_nonnull(g.date);
	ck_assert_uint_eq(g.nmoves, 218);
	/* black first, colours alternate, ends in two passes */
	for (size_t i = 0; i < g.nmoves; i++)
		ck_assert_int_eq(g.moves[i].color, i % 2 ? SGF_WHITE : SGF_BLACK);
	check_move(&g, 0, SGF_BLACK, 16, 15); /* R16 */
	check_move(&g, 216, SGF_BLACK, -1, -1);
	check_move(&g, 217, SGF_WHITE, -1, -1);
	/* writing it back gives the same bytes: the file is in our own format */
	char *s = sgf_write(&g);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(strlen(s), len);
	ck_assert_mem_eq(s, buf, len);
	free(s);
	sgf_game_free(&g);
	free(buf);
}
END_TEST

/* Issue 20 item 5: the count of the final position (TB/TW, SGF FF4) and the warnings (WN, a
 * private property) are written and read back; TB/TW end the last node; a later node's
 * territory replaces an earlier one's. */
START_TEST(test_count_properties)
{
	struct sgf_game g;
	sgf_game_init(&g);
	g.size = 5;
	g.warnings_black = 1;
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_BLACK, 2, 2, -1, -1, NULL), SGF_OK);
	ck_assert_int_eq(sgf_game_add_move(&g, SGF_WHITE, 0, 0, -1, -1, NULL), SGF_OK);
	ck_assert_int_eq(sgf_game_add_territory(&g, SGF_BLACK, 0, 0), SGF_OK);
	ck_assert_int_eq(sgf_game_add_territory(&g, SGF_BLACK, 4, 4), SGF_OK);
	ck_assert_int_eq(sgf_game_add_territory(&g, SGF_WHITE, 1, 1), SGF_OK);
	ck_assert_int_eq(sgf_game_add_territory(&g, SGF_WHITE, 5, 0), SGF_EINVAL);
	ck_assert_int_eq(sgf_game_add_territory(&g, 3, 0, 0), SGF_EINVAL);
	/* DS: a dead stone (here W's A1), also where it stands in nobody's territory */
	ck_assert_int_eq(sgf_game_add_dead(&g, 0, 0), SGF_OK);
	ck_assert_int_eq(sgf_game_add_dead(&g, 0, 5), SGF_EINVAL);
	char *text = sgf_write(&g);
	ck_assert(text != NULL);
	ck_assert_msg(strstr(text, "WN[1:0]") != NULL, "%s", text);
	ck_assert_msg(strstr(text, ";W[ae]TB[ae][ea]TW[bd]DS[ae])") != NULL, "%s", text);
	struct sgf_game r;
	parse_ok(text, &r);
	ck_assert_int_eq((int)r.ndead, 1);
	ck_assert(r.dead[0].x == 0 && r.dead[0].y == 0);
	ck_assert_int_eq(r.warnings_black, 1);
	ck_assert_int_eq(r.warnings_white, 0);
	ck_assert_int_eq((int)r.nterritory_black, 2);
	ck_assert_int_eq((int)r.nterritory_white, 1);
	ck_assert_int_eq(r.territory_white[0].x, 1);
	ck_assert_int_eq(r.territory_white[0].y, 1);
	sgf_game_free(&r);
	free(text);
	sgf_game_free(&g);
	/* Compressed lists; the last node with TB/TW/DS is the one kept. */
	parse_ok("(;SZ[3]WN[0:2]TB[aa:cc]DS[aa];B[bb]TW[aa]TB[cc:cb])", &r);
	ck_assert_int_eq(r.warnings_white, 2);
	ck_assert_int_eq((int)r.nterritory_black, 2);
	ck_assert_int_eq((int)r.nterritory_white, 1);
	ck_assert_int_eq((int)r.ndead, 0);
	sgf_game_free(&r);
	/* Out of range refused by the writer. */
	sgf_game_init(&g);
	g.warnings_white = SGF_MAX_WARNINGS + 1;
	ck_assert(sgf_write(&g) == NULL);
	sgf_game_free(&g);
}
END_TEST

static Suite *sgf_suite(void)
{
	Suite *s = suite_create("sgf");
	TCase *tc = tcase_create("reader");
	tcase_add_test(tc, test_parse_full);
	tcase_add_test(tc, test_parse_defaults);
	tcase_add_test(tc, test_parse_variations);
	tcase_add_test(tc, test_parse_setup);
	tcase_add_test(tc, test_parse_passes);
	tcase_add_test(tc, test_parse_comments_and_escapes);
	tcase_add_test(tc, test_parse_numbers);
	tcase_add_test(tc, test_parse_unicode);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_loop_test(tc, test_parse_errors, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, test_parse_oversize);
	tcase_add_test(tc, test_parse_limits);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	tc = tcase_create("writer");
	tcase_add_test(tc, test_write_exact);
	tcase_add_test(tc, test_write_numbers);
	tcase_add_test(tc, test_write_invalid);
	suite_add_tcase(s, tc);

	tc = tcase_create("roundtrip");
	tcase_add_test(tc, test_roundtrip_built);
	tcase_add_test(tc, test_roundtrip_parsed);
	tcase_add_test(tc, test_count_properties);
	suite_add_tcase(s, tc);

	tc = tcase_create("robustness");
	tcase_add_test(tc, test_truncations);
	tcase_add_test(tc, test_mutations);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);

	tc = tcase_create("example");
	tcase_add_test(tc, test_example_game);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sgf_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
