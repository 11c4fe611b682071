/* bridges: see bridges.h. */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bridges.h"

#ifndef GNUGO_PATH
#define GNUGO_PATH ""
#endif

char bridges_logs[BRIDGES_MAX][HARNESS_PATH_MAX];
static pid_t pids[BRIDGES_MAX];

long long bridges_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void bridges_sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

void bridges_kill(void)
{
	for (int i = 0; i < BRIDGES_MAX; i++)
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
			pids[i] = 0;
		}
}

void bridges_start(int i, const struct hd *d, const char *user, const char *engine_opt,
		   const char *gtplog)
{
	snprintf(bridges_logs[i], sizeof bridges_logs[i], "%s/bridge-%s.log", d->dir, user);
	char server[64], password[128];
	snprintf(server, sizeof server, "127.0.0.1:%d", d->port);
	snprintf(password, sizeof password, "%s%s", user, HARNESS_PASSWORD_SUFFIX);
	const char *tengen = getenv("TENGEN") ? getenv("TENGEN") : "./client/tengen";
	const char *argv[16];
	int n = 0;
	argv[n++] = tengen;
	argv[n++] = "gtp";
	argv[n++] = "--server";
	argv[n++] = server;
	argv[n++] = "--user";
	argv[n++] = user;
	if (gtplog) {
		argv[n++] = "--gtp-log";
		argv[n++] = gtplog;
	}
	argv[n++] = "--";
	argv[n++] = GNUGO_PATH;
	argv[n++] = "--mode";
	argv[n++] = "gtp";
	argv[n++] = "--level";
	argv[n++] = "1";
	argv[n++] = "--capture-all-dead";
	if (engine_opt)
		argv[n++] = engine_opt;
	argv[n] = NULL;
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int log = open(bridges_logs[i], O_WRONLY | O_CREAT | O_APPEND, 0644);
		int null = open("/dev/null", O_RDONLY);
		if (log < 0 || null < 0)
			_exit(127);
		dup2(null, 0);
		dup2(log, 1);
		dup2(log, 2);
		setenv("TENGEN_PASSWORD", password, 1);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	pids[i] = pid;
}

bool bridges_file_has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[1024];
	bool found = false;
	while (!found && fgets(line, sizeof line, f))
		found = strstr(line, needle) != NULL;
	fclose(f);
	return found;
}

void bridges_print_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[1024];
	fprintf(stderr, "---- %s\n", path);
	while (fgets(line, sizeof line, f))
		fputs(line, stderr);
	fclose(f);
}

json_t *bridges_get_game(int port, long long id)
{
	struct hc *c = hc_open(port);
	if (!c)
		return NULL;
	json_t *r = hc_req(c, "{s:s, s:I}", "cmd", "game", "game", (json_int_t)id);
	hc_close(c);
	json_t *g = r && hj_ok(r) ? json_incref(hj_get(r, "game")) : NULL;
	json_decref(r);
	return g;
}
