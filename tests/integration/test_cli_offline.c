/* Tests of the `tengen` client's score and replay subcommands: run the built binary ($TENGEN,
 * else ./client/tengen) on small SGF records written to a temporary directory, and check its
 * stdout (parsed as JSON with jansson), stderr and exit status. */
#define _XOPEN_SOURCE 700
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#define MAX_ARGS 16      /* arguments of one tengen run */
#define MAX_OUTPUT 65536 /* bytes of stdout or stderr kept per run */
#define DIR_LEN 1024                /* the temporary directory's path */
#define PATH_LEN (DIR_LEN + 64)     /* a file in it */

static char tmpdir[DIR_LEN];
static const char *tengen;

/* A capture (Black takes White's A5 with A4), then two passes. Area count, all alive:
 * Black B5 A4 + A5 + half of 21 shared = 13.5; White C3 + 10.5 = 11.5; komi 0.5: B+1.5. */
static const char capture_sgf[] = "(;GM[1]FF[4]SZ[5]KM[0.5];B[ba];W[aa];B[ab];W[cc];B[];W[])";
/* White plays on Black's C3 (move 2, occupied: turn forfeited); Black moves twice (move 4,
 * out of turn: void, one warning). Black C3 D4 + 23 empty - 1 warning = 24; White 1. */
static const char illegal_sgf[] = "(;GM[1]SZ[5];B[cc];W[cc];B[dd];B[ee];W[];B[])";
/* White's A5 would have no liberty (move 4, suicide). */
static const char suicide_sgf[] = "(;GM[1]SZ[5];B[ab];W[ee];B[ba];W[aa];B[];W[])";
/* Black moves out of turn twice: the second warning loses (Art. 24.2) at move 5. */
static const char warnings_sgf[] = "(;GM[1]SZ[5];B[aa];B[bb];W[cc];B[dd];B[ee];W[ab])";
/* Two handicap stones as setup (AB), White first: komi 0.5 + 2 points compensation. */
static const char handicap_sgf[] = "(;GM[1]SZ[9]HA[2]KM[0.5]AB[gc][cg];W[ee];B[];W[])";
/* Three stones, both passes, all three agreed dead (a new user's game): on the emptied board
 * nobody has territory, so TB/TW say nothing; tengen's DS lists the dead stones. */
static const char ds_sgf[] = "(;GM[1]FF[4]SZ[9]KM[7.5]RE[W+7.5];B[df];W[fd];B[cc];W[];B[]"
			     "DS[cc][df][fd])";
/* Truncated inside B[...]: the value opens at byte 14. */
static const char malformed_sgf[] = "(;GM[1]SZ[5];B[cc";

static const char capture_board[] =
	"   A B C D E\n"
	" 5 . X . . . 5\n"
	" 4 X . . . . 4\n"
	" 3 . . O . . 3\n"
	" 2 . . . . . 2\n"
	" 1 . . . . . 1\n"
	"   A B C D E\n"
	"Captures: Black 1, White 0. Black to move.\n";

struct run {
	int status; /* exit status, or -1 if it did not exit normally */
	char out[MAX_OUTPUT];
	char err[MAX_OUTPUT];
};

/* Write `text` to tmpdir/name and its path to path[PATH_LEN]. */
static void write_record(const char *name, const char *text, char *path)
{
	snprintf(path, PATH_LEN, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s: %s", path, strerror(errno));
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
}

static void slurp(const char *path, char *buf)
{
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot read %s", path);
	size_t n = fread(buf, 1, MAX_OUTPUT - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Run tengen with args[] (NULL-terminated, without argv[0]); fill *r. */
static void run_tengen(const char *const *args, struct run *r)
{
	char outp[PATH_LEN], errp[PATH_LEN];
	snprintf(outp, sizeof outp, "%s/stdout.%ld", tmpdir, (long)getpid());
	snprintf(errp, sizeof errp, "%s/stderr.%ld", tmpdir, (long)getpid());
	char *argv[MAX_ARGS + 2];
	int n = 0;
	argv[n++] = (char *)tengen;
	for (int i = 0; args[i]; i++) {
		ck_assert_int_lt(i, MAX_ARGS);
		argv[n++] = (char *)args[i];
	}
	argv[n] = NULL;
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fi = open("/dev/null", O_RDONLY);
		if (fo < 0 || fe < 0 || fi < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0 ||
		    dup2(fi, 0) < 0)
			_exit(127);
		execv(tengen, argv);
		_exit(126);
	}
	int st;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	ck_assert_msg(r->status != 126, "cannot run %s", tengen);
	slurp(outp, r->out);
	slurp(errp, r->err);
	unlink(outp);
	unlink(errp);
}

/* Run `tengen score` and parse its report; asserts exit 0 and one JSON object. */
static json_t *score(const char *const *args)
{
	static struct run r;
	run_tengen(args, &r);
	ck_assert_msg(r.status == 0, "exit %d, stderr: %s", r.status, r.err);
	json_error_t e;
	json_t *j = json_loads(r.out, 0, &e);
	ck_assert_msg(j != NULL, "not JSON (%s): %s", e.text, r.out);
	ck_assert(json_is_object(j));
	return j;
}

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_string(v), "'%s' is not a string", key);
	return json_string_value(v);
}

static double jnum(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	ck_assert_msg(json_is_number(v), "'%s' is not a number", key);
	return json_number_value(v);
}

static void check_score(json_t *j, double black, double white, double komi)
{
	json_t *s = json_object_get(j, "score");
	ck_assert(json_is_object(s));
	ck_assert_double_eq(jnum(s, "black"), black);
	ck_assert_double_eq(jnum(s, "white"), white);
	ck_assert_double_eq(jnum(s, "komi"), komi);
}

START_TEST(test_score_capture)
{
	char p[PATH_LEN];
	write_record("capture.sgf", capture_sgf, p);
	json_t *j = score((const char *[]){"score", p, NULL});
	ck_assert_str_eq(jstr(j, "result"), "B+1.5");
	ck_assert_str_eq(jstr(j, "stones"), "B+¾");
	ck_assert_str_eq(jstr(j, "reason"), "score");
	check_score(j, 13.5, 11.5, 0.5);
	ck_assert_double_eq(jnum(j, "moves"), 6);
	json_t *ill = json_object_get(j, "illegal");
	ck_assert(json_is_array(ill));
	ck_assert_uint_eq(json_array_size(ill), 0);
	json_decref(j);
}
END_TEST

START_TEST(test_score_dead)
{
	char p[PATH_LEN];
	write_record("capture.sgf", capture_sgf, p);
	/* A4 dead joins the big shared region: 1 + 11.5 each side, W+0.5. */
	json_t *j = score((const char *[]){"score", p, "--dead", "A4", NULL});
	ck_assert_str_eq(jstr(j, "result"), "W+0.5");
	check_score(j, 12.5, 12.5, 0.5);
	json_decref(j);
	/* A4 and C3 dead (a list, lower case): Black's B5 owns the whole board. */
	j = score((const char *[]){"score", p, "--dead=a4,C3", NULL});
	ck_assert_str_eq(jstr(j, "result"), "B+24.5");
	check_score(j, 25, 0, 0.5);
	json_decref(j);
	/* dead stones in nobody's territory: the record's DS gives them (without it the three
	 * counted alive, W+6.5 beside RE[W+7.5]) */
	write_record("ds.sgf", ds_sgf, p);
	j = score((const char *[]){"score", p, NULL});
	ck_assert_str_eq(jstr(j, "result"), "W+7.5");
	check_score(j, 0, 0, 7.5); /* an empty board is nobody's */
	json_decref(j);
	write_record("capture.sgf", capture_sgf, p);
	/* all-alive ignores --dead. */
	j = score((const char *[]){"score", p, "--dead", "A4", "--counting", "all-alive", NULL});
	ck_assert_str_eq(jstr(j, "result"), "B+1.5");
	json_decref(j);
}
END_TEST

static void check_illegal(json_t *e, int number, const char *vertex, const char *reason)
{
	ck_assert(json_is_object(e));
	ck_assert_double_eq(jnum(e, "number"), number);
	ck_assert_str_eq(jstr(e, "vertex"), vertex);
	ck_assert_str_eq(jstr(e, "reason"), reason);
}

START_TEST(test_score_illegal)
{
	char p[PATH_LEN];
	write_record("illegal.sgf", illegal_sgf, p);
	json_t *j = score((const char *[]){"score", p, NULL});
	json_t *ill = json_object_get(j, "illegal");
	ck_assert(json_is_array(ill));
	ck_assert_uint_eq(json_array_size(ill), 2);
	check_illegal(json_array_get(ill, 0), 2, "C3", "occupied");
	ck_assert_str_eq(jstr(json_array_get(ill, 0), "color"), "W");
	check_illegal(json_array_get(ill, 1), 4, "E1", "not_your_turn");
	ck_assert_double_eq(jnum(j, "moves"), 6);
	/* The warning moves one point from Black to White (Art. 24.1). */
	check_score(j, 24, 1, 0);
	ck_assert_str_eq(jstr(j, "result"), "B+23");
	json_decref(j);

	write_record("suicide.sgf", suicide_sgf, p);
	j = score((const char *[]){"score", p, NULL});
	ill = json_object_get(j, "illegal");
	ck_assert_uint_eq(json_array_size(ill), 1);
	check_illegal(json_array_get(ill, 0), 4, "A5", "suicide");
	json_decref(j);
}
END_TEST

START_TEST(test_score_warnings)
{
	char p[PATH_LEN];
	write_record("warnings.sgf", warnings_sgf, p);
	json_t *j = score((const char *[]){"score", p, NULL});
	ck_assert_str_eq(jstr(j, "result"), "W+F");
	ck_assert_str_eq(jstr(j, "reason"), "warnings");
	ck_assert(json_is_null(json_object_get(j, "stones")));
	json_t *ill = json_object_get(j, "illegal");
	ck_assert_uint_eq(json_array_size(ill), 2);
	check_illegal(json_array_get(ill, 1), 5, "E1", "not_your_turn");
	json_decref(j);
}
END_TEST

START_TEST(test_score_komi)
{
	char p[PATH_LEN];
	write_record("capture.sgf", capture_sgf, p);
	json_t *j = score((const char *[]){"score", p, "--komi", "6.5", NULL});
	ck_assert_str_eq(jstr(j, "result"), "W+4.5");
	check_score(j, 13.5, 11.5, 6.5);
	json_decref(j);
	j = score((const char *[]){"score", "--komi=-3", p, NULL});
	ck_assert_str_eq(jstr(j, "result"), "B+5");
	json_decref(j);
	/* Setup handicap: KM is the komi in force, compensation included (issue 15: tengend
	 * writes komi + one point per stone as KM, and GNU Go's loadsgf counts with KM, HA
	 * aside); so HA[2]KM[0.5] counts with 0.5 (it used to add 2: 2.5), and the record
	 * tengend writes for komi 0.5 and two stones, KM[2.5], counts with 2.5. */
	write_record("handicap.sgf", handicap_sgf, p);
	j = score((const char *[]){"score", p, NULL});
	check_score(j, 41, 40, 0.5);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "illegal")), 0);
	json_decref(j);
	write_record("handicap25.sgf", "(;GM[1]SZ[9]HA[2]KM[2.5]AB[gc][cg];W[ee];B[];W[])", p);
	j = score((const char *[]){"score", p, NULL});
	check_score(j, 41, 40, 2.5);
	ck_assert_uint_eq(json_array_size(json_object_get(j, "illegal")), 0);
	json_decref(j);
}
END_TEST

START_TEST(test_malformed)
{
	char p[PATH_LEN];
	struct run r;
	write_record("malformed.sgf", malformed_sgf, p);
	run_tengen((const char *[]){"score", p, NULL}, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_str_eq(r.out, "");
	ck_assert_msg(strncmp(r.err, "tengen: ", 8) == 0, "stderr: %s", r.err);
	ck_assert_msg(strstr(r.err, "at byte 14") != NULL, "stderr: %s", r.err);
	run_tengen((const char *[]){"replay", p, NULL}, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "at byte 14") != NULL, "stderr: %s", r.err);
}
END_TEST

START_TEST(test_errors)
{
	char p[PATH_LEN], missing[PATH_LEN];
	struct run r;
	write_record("capture.sgf", capture_sgf, p);
	snprintf(missing, sizeof missing, "%s/no-such.sgf", tmpdir);
	run_tengen((const char *[]){"score", missing, NULL}, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strncmp(r.err, "tengen: ", 8) == 0, "stderr: %s", r.err);
	/* Usage errors: bad vertex, bad option values, unknown option and subcommand. */
	const char *const *usage_errors[] = {
		(const char *[]){"score", p, "--dead", "Z9", NULL},
		(const char *[]){"score", p, "--dead", "A4,", NULL},
		(const char *[]){"score", p, "--ko", "bogus", NULL},
		(const char *[]){"score", p, "--komi", "x", NULL},
		(const char *[]){"score", p, "--counting", "territory", NULL},
		(const char *[]){"score", p, "--komi", NULL},
		(const char *[]){"score", p, "--frobnicate", NULL},
		(const char *[]){"score", NULL},
		(const char *[]){"frobnicate", NULL},
		(const char *[]){NULL},
	};
	for (size_t i = 0; i < sizeof usage_errors / sizeof *usage_errors; i++) {
		run_tengen(usage_errors[i], &r);
		ck_assert_msg(r.status == 2, "case %zu: exit %d", i, r.status);
		ck_assert_msg(strncmp(r.err, "tengen: ", 8) == 0 || strncmp(r.err, "usage:", 6) == 0,
			      "case %zu: stderr: %s", i, r.err);
		ck_assert_str_eq(r.out, "");
	}
	/* A dead-stone claim on an empty point is a failure of the data, not of usage. */
	run_tengen((const char *[]){"score", p, "--dead", "B2", NULL}, &r);
	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "B2") != NULL, "stderr: %s", r.err);
	run_tengen((const char *[]){"--version", NULL}, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strncmp(r.out, "tengen ", 7) == 0, "stdout: %s", r.out);
	run_tengen((const char *[]){"--help", NULL}, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "score") != NULL, "stdout: %s", r.out);
}
END_TEST

/* The password is read before anything is sent (README's exit statuses): a password file
 * that cannot be read is a failure here (1), no password at all a bad command line (2). Both
 * for a command that logs in, for `register` and for the GTP bridge. */
START_TEST(test_password_file)
{
	char missing[PATH_LEN], empty[PATH_LEN];
	struct run r;
	snprintf(missing, sizeof missing, "%s/no-such-password", tmpdir);
	write_record("empty-password", "", empty);
	unsetenv("TENGEN_PASSWORD");
	const char *const *unreadable[] = {
		(const char *[]){"--user", "alice", "--password-file", missing, "games", "--mine", NULL},
		(const char *[]){"--user", "alice", "--password-file", empty, "games", "--mine", NULL},
		(const char *[]){"--user", "alice", "--password-file", missing, "register", NULL},
		(const char *[]){"gtp", "--user", "bot", "--password-file", missing, "--", "/bin/true", NULL},
	};
	for (size_t i = 0; i < sizeof unreadable / sizeof *unreadable; i++) {
		run_tengen(unreadable[i], &r);
		ck_assert_msg(r.status == 1, "case %zu: exit %d, stderr: %s", i, r.status, r.err);
		ck_assert_msg(strstr(r.err, "password file") != NULL, "case %zu: stderr: %s", i, r.err);
		ck_assert_msg(strchr(r.err, '\n') == strrchr(r.err, '\n'), "case %zu: said once: %s", i, r.err);
	}
	const char *const *none[] = {
		(const char *[]){"--user", "alice", "games", "--mine", NULL},
		(const char *[]){"--user", "alice", "register", NULL},
		(const char *[]){"gtp", "--user", "bot", "--", "/bin/true", NULL},
	};
	for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
		run_tengen(none[i], &r);
		ck_assert_msg(r.status == 2, "case %zu: exit %d, stderr: %s", i, r.status, r.err);
		ck_assert_msg(strstr(r.err, "TENGEN_PASSWORD") != NULL, "case %zu: stderr: %s", i, r.err);
	}
}
END_TEST

START_TEST(test_replay)
{
	char p[PATH_LEN];
	struct run r;
	write_record("capture.sgf", capture_sgf, p);
	run_tengen((const char *[]){"replay", p, NULL}, &r);
	ck_assert_msg(r.status == 0, "exit %d, stderr: %s", r.status, r.err);
	ck_assert_str_eq(r.out, capture_board);
	write_record("warnings.sgf", warnings_sgf, p);
	run_tengen((const char *[]){"replay", p, NULL}, &r);
	ck_assert_int_eq(r.status, 0);
	ck_assert_msg(strstr(r.out, "Result: W+F (warnings)\n") != NULL, "stdout: %s", r.out);
}
END_TEST

START_TEST(test_example_game)
{
	const char *data = getenv("TENGEN_TESTDATA");
	char p[PATH_LEN];
	snprintf(p, sizeof p, "%s/../../examples/game.sgf", data ? data : "tests/data");
	json_t *j = score((const char *[]){"score", p, NULL});
	const char *res = jstr(j, "result");
	ck_assert_msg(res[0] == 'B' || res[0] == 'W' || res[0] == '0', "result %s", res);
	ck_assert_double_gt(jnum(j, "moves"), 0);
	ck_assert(json_is_array(json_object_get(j, "illegal")));
	ck_assert(json_is_object(json_object_get(j, "score")));
	json_decref(j);
}
END_TEST

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

int main(void)
{
	tengen = getenv("TENGEN");
	if (!tengen || !*tengen)
		tengen = "./client/tengen";
	const char *base = getenv("TMPDIR");
	int n = snprintf(tmpdir, sizeof tmpdir, "%s/tengen-client-XXXXXX",
			 base && *base ? base : "/tmp");
	if (n < 0 || (size_t)n >= sizeof tmpdir) {
		fprintf(stderr, "TMPDIR too long\n");
		return 1;
	}
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}

	Suite *s = suite_create("client");
	TCase *tc = tcase_create("score");
	tcase_add_test(tc, test_score_capture);
	tcase_add_test(tc, test_score_dead);
	tcase_add_test(tc, test_score_illegal);
	tcase_add_test(tc, test_score_warnings);
	tcase_add_test(tc, test_score_komi);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_password_file);
	tcase_add_test(tc, test_replay);
	tcase_add_test(tc, test_example_game);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	nftw(tmpdir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
	return failed ? 1 : 0;
}
