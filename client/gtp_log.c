/* client/gtp_log: `tengen gtp --gtp-log PATH`, the engines' GTP traffic in a file, as
 * gtp2ogs and kgsGtp keep it: every command and response of each game's engine, one line
 * each, tagged with the game's id. See gtp.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtp.h"

#define GTP_LOG_GAME "{game}" /* in PATH: one file per game, named by its id */

/* PATH with {game} replaced by the id, into out[n]. */
static void log_path(const char *pattern, json_int_t id, char *out, size_t n)
{
	const char *at = strstr(pattern, GTP_LOG_GAME);
	snprintf(out, n, "%.*s%lld%s", (int)(at - pattern), pattern, (long long)id,
		 at + strlen(GTP_LOG_GAME));
}

char **gtp_argv_for_game(char *const *argv, json_int_t id)
{
	size_t n = 0;
	while (argv[n])
		n++;
	char **out = calloc(n + 1, sizeof *out);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char num[24];
		snprintf(num, sizeof num, "%lld", (long long)id);
		size_t len = strlen(argv[i]) + 1, k = 0;
		for (const char *p = argv[i]; (p = strstr(p, GTP_LOG_GAME)); p += strlen(GTP_LOG_GAME))
			len += strlen(num);
		if (!(out[i] = malloc(len))) {
			gtp_argv_free(out);
			return NULL;
		}
		for (const char *p = argv[i]; *p;) {
			if (strncmp(p, GTP_LOG_GAME, strlen(GTP_LOG_GAME)) == 0) {
				memcpy(out[i] + k, num, strlen(num));
				k += strlen(num);
				p += strlen(GTP_LOG_GAME);
			} else {
				out[i][k++] = *p++;
			}
		}
		out[i][k] = '\0';
	}
	return out;
}

void gtp_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

void gtp_log_attach(struct game *g)
{
	struct bridge *br = g->br;
	if (!br->gtp_log || !g->eng)
		return;
	FILE *f;
	if (strstr(br->gtp_log, GTP_LOG_GAME)) {
		if (!g->log) {
			char path[4096];
			log_path(br->gtp_log, g->id, path, sizeof path);
			if (!(g->log = fopen(path, "a")))
				gtp_say(br, "game %lld: cannot open the GTP log %s: %s",
					(long long)g->id, path, strerror(errno));
		}
		f = g->log;
	} else {
		if (!br->log_file && !br->log_failed &&
		    !(br->log_file = fopen(br->gtp_log, "a"))) {
			br->log_failed = true;
			gtp_say(br, "cannot open the GTP log %s: %s", br->gtp_log, strerror(errno));
		}
		f = br->log_file;
	}
	engine_set_log(g->eng, f, (long long)g->id);
}

void gtp_log_close_game(struct game *g)
{
	if (g->log)
		fclose(g->log);
	g->log = NULL;
}

void gtp_log_close(struct bridge *br)
{
	if (br->log_file)
		fclose(br->log_file);
	br->log_file = NULL;
}
