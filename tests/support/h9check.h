/* h9check: has OpenGotha's own h9 importer read an h9 text, through the Java harness
 * tests/tools/H9Check.java (its output format is described there: "player", "game" and
 * "absent" lines). Used by tests/unit/test_h9_opengotha.c (the export itself) and
 * tests/support/tourtest.c (the server's export of a real event).
 *
 * Needs java and javac on the PATH, TENGEN_OPENGOTHA_DIR (the directory of opengotha.jar and
 * jhall.jar: ./configure --with-opengotha=DIR) and TENGEN_TESTDATA (tests/data, to find the
 * harness). The harness is compiled once per process into a temporary directory, removed at
 * exit. Header-only: each test program gets its own copy.
 */
#ifndef TENGEN_TESTS_H9CHECK_H
#define TENGEN_TESTS_H9CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define H9CHECK_CLASSPATH_MAX 2048
#define H9CHECK_CMD_MAX 4096
#define H9CHECK_DIR_MAX 512 /* longest TENGEN_OPENGOTHA_DIR accepted */

static char h9check_classes[H9CHECK_CLASSPATH_MAX];
static char h9check_dir[64];
static int h9check_state; /* 0 not tried, 1 ready, -1 unavailable */
static pid_t h9check_owner; /* the process that made the directory: only it removes it (Check
			     * runs each test in a child that exits through atexit too) */

static inline void h9check_cleanup(void)
{
	char cmd[128];

	if (h9check_state != 1 || getpid() != h9check_owner)
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", h9check_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "h9check: could not remove %s\n", h9check_dir);
	h9check_state = 0;
}

/* Compiles the harness (once); false when java, javac, the jars or the source are missing
 * or it does not compile (javac's messages on stderr). */
static inline bool h9check_ready(void)
{
	const char *dir = getenv("TENGEN_OPENGOTHA_DIR"), *data = getenv("TENGEN_TESTDATA");
	char cmd[H9CHECK_CMD_MAX], jar[H9CHECK_DIR_MAX + 32];

	if (h9check_state)
		return h9check_state > 0;
	h9check_state = -1;
	if (!dir || !*dir || strlen(dir) > H9CHECK_DIR_MAX || !data ||
			strlen(data) > H9CHECK_DIR_MAX ||
			system("command -v java >/dev/null 2>&1") != 0 ||
			system("command -v javac >/dev/null 2>&1") != 0)
		return false;
	snprintf(jar, sizeof jar, "%s/opengotha.jar", dir);
	if (access(jar, R_OK) != 0)
		return false;
	snprintf(h9check_dir, sizeof h9check_dir, "/tmp/tengen-h9-XXXXXX");
	if (!mkdtemp(h9check_dir))
		return false;
	snprintf(h9check_classes, sizeof h9check_classes, "%s/opengotha.jar:%s/jhall.jar:%s", dir,
		dir, h9check_dir);
	snprintf(cmd, sizeof cmd, "javac -cp '%s' -d '%s' '%s/../tools/H9Check.java' >&2",
		h9check_classes, h9check_dir, data);
	h9check_state = 1;
	h9check_owner = getpid();
	if (system(cmd) != 0) {
		h9check_cleanup();
		h9check_state = -1;
		return false;
	}
	atexit(h9check_cleanup);
	return true;
}

/* OpenGotha's reading of `h9` (rounds 1..rounds for the "absent" lines) into out (n bytes,
 * NUL-terminated, stderr included). Returns the harness's exit status, or -1 if it could not
 * be run (h9check_ready false, a file not written). */
static inline int h9check_read(const char *h9, int rounds, char *out, size_t n)
{
	char path[128], cmd[H9CHECK_CMD_MAX];
	size_t len = 0, k;
	FILE *f;
	int st;

	out[0] = '\0';
	if (!h9check_ready())
		return -1;
	snprintf(path, sizeof path, "%s/event.h9", h9check_dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	if (fputs(h9, f) < 0) {
		fclose(f);
		return -1;
	}
	if (fclose(f) != 0)
		return -1;
	snprintf(cmd, sizeof cmd, "java -Djava.awt.headless=true -cp '%s' H9Check '%s' %d 2>&1",
		h9check_classes, path, rounds);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	while (len + 1 < n && (k = fread(out + len, 1, n - 1 - len, f)) > 0)
		len += k;
	out[len] = '\0';
	st = pclose(f);
	return st;
}

#endif
