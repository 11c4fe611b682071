/* clitest: running the built `tengen` client against a harness daemon, for the client's
 * integration tests (test_cli, test_cli_play): one daemon per test (D, started by setup,
 * stopped by teardown with a check of its log), the client run as a subprocess with its
 * standard output, standard error and exit status kept. Players registered through the
 * client use the harness's passwords (NAME HARNESS_PASSWORD_SUFFIX), so harness connections
 * can log in as them too. The client is $TENGEN, else ./client/tengen.
 */
#ifndef TENGEN_TESTS_CLITEST_H
#define TENGEN_TESTS_CLITEST_H

#include <stdbool.h>
#include <sys/types.h>
#include <jansson.h>
#include "harness.h"

#define T HARNESS_TIMEOUT_MS
#define TEST_TIMEOUT_S 60      /* per test (Check's own timeout) */
#define RUN_TIMEOUT_MS 20000   /* one run of the client */
#define RUN_MAX_ARGS 40        /* arguments of one run */
#define RUN_OUTPUT_MAX (1 << 20) /* bytes kept of a run's stdout or stderr */

extern struct hd D; /* the test's daemon */

/* A finished run of the client. */
struct run {
	int status;   /* exit status; -1 killed by a signal or timed out */
	char *out;    /* standard output (NUL-terminated) */
	char *err;    /* standard error */
};

/* A running client: its pid and the read ends of its stdout and stderr. */
struct proc {
	pid_t pid;
	int out_fd, err_fd;
	char *out, *err;
	size_t nout, nerr;
};

const char *cli_binary(void);
long long now_ms(void);
/* Start `tengen args...` with TENGEN_PASSWORD=password (unset if NULL) and stdin from
 * `input` (NULL: /dev/null). */
void proc_start(struct proc *p, const char *password, const char *input,
		const char *const *args);
/* Read what is available within timeout_ms. Returns false once both pipes are closed. */
bool proc_read(struct proc *p, int timeout_ms);
/* Wait until the client's stdout holds `needle`; false on exit or timeout. */
bool proc_wait_for(struct proc *p, const char *needle, int timeout_ms);
/* Collect everything and the exit status (killing the client after RUN_TIMEOUT_MS). */
void proc_finish(struct proc *p, struct run *r);
void run_free(struct run *r);
/* Run `tengen --server 127.0.0.1:PORT ARGS...` (NULL-terminated) to the end. */
void run(struct run *r, const char *password, const char *input, ...);
/* NAME's harness password (one of 4 static buffers). */
char *pw_of(const char *name);
/* Parse each non-empty line of s as a JSON object; returns them in an array (new ref). */
json_t *json_lines(const char *s);
/* Register NAME through the client (password NAME HARNESS_PASSWORD_SUFFIX). */
void cli_register(const char *name);
/* `tengend grant NAME ROLE --db DB`. */
void grant(const char *name, const char *role);
/* The fixture: start D; stop it, checking a clean exit and a log free of sanitizer reports. */
void setup(void);
void teardown(void);
/* A port nothing listens on: bind one, close it. */
int closed_port(void);

#define EXPECT_STATUS(r, st)                                                                  \
	ck_assert_msg((r).status == (st), "exit status %d, expected %d\nstdout: %s\nstderr: %s", \
		      (r).status, (st), (r).out, (r).err)
#define EXPECT_OUT(r, s) \
	ck_assert_msg(strstr((r).out, (s)) != NULL, "stdout lacks '%s':\n%s\nstderr: %s", (s), (r).out, (r).err)
#define EXPECT_ERR(r, s) \
	ck_assert_msg(strstr((r).err, (s)) != NULL, "stderr lacks '%s':\n%s", (s), (r).err)

/* Run `tengen ARGS...` as NAME (--user NAME, its password), with --server. */
#define AS(r, name, ...) run((r), pw_of(name), NULL, "--user", (name), __VA_ARGS__, NULL)

#endif
