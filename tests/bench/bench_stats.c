/* bench_stats: see bench_stats.h. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench_stats.h"

const char *const bench_loop_keys[BENCH_LOOP_FIGS] = {
	"busy_max_ms", "begin_max_ms", "commit_max_ms", "flush_max_ms", "fold_slice_max_ms",
	"ckpt_max_ms", "restart_max_ms", "loop_ckpt_max_ms",
};

/* A stat file's (proc(5)) fields: the name between the first "(" and the last ")", utime
 * and stime in clock ticks. false if it cannot be read (a thread that ended) or parsed. */
static bool read_stat(const char *path, char comm[BENCH_COMM_MAX], unsigned long *ut,
		      unsigned long *st)
{
	char buf[1024];
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t k = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[k] = '\0';
	const char *a = strchr(buf, '('), *b = strrchr(buf, ')');
	if (!a || !b || b < a)
		return false;
	size_t n = (size_t)(b - a - 1);
	if (n >= BENCH_COMM_MAX)
		n = BENCH_COMM_MAX - 1;
	memcpy(comm, a + 1, n);
	comm[n] = '\0';
	/* after ")": state (field 3) ... utime is field 14, stime 15 */
	return sscanf(b + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", ut, st) == 2;
}

double bench_proc_cpu(int pid)
{
	char path[64], comm[BENCH_COMM_MAX];
	unsigned long ut, st;
	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	if (!read_stat(path, comm, &ut, &st))
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

long long bench_proc_write_bytes(int pid)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/io", pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long long out = -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "write_bytes: %lld", &out) == 1)
			break;
	fclose(f);
	return out;
}

int bench_proc_threads(int pid, struct bench_thread_cpu t[BENCH_THREADS_MAX])
{
	char path[300];
	snprintf(path, sizeof path, "/proc/%d/task", pid);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int n = 0;
	double tick = (double)sysconf(_SC_CLK_TCK);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char comm[BENCH_COMM_MAX];
		unsigned long ut, st;
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%s/stat", pid, e->d_name);
		if (!read_stat(path, comm, &ut, &st))
			continue;
		int i = 0;
		while (i < n && strcmp(t[i].comm, comm) != 0)
			i++;
		if (i == n) {
			if (n == BENCH_THREADS_MAX)
				continue;
			memset(&t[n], 0, sizeof t[n]);
			memcpy(t[n].comm, comm, sizeof comm);
			n++;
		}
		t[i].user_s += (double)ut / tick;
		t[i].sys_s += (double)st / tick;
	}
	closedir(d);
	return n;
}

bool bench_lat_add(struct bench_lat *l, uint64_t ns)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : BENCH_LAT_START;
		uint32_t *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return false;
		l->v = v;
		l->cap = cap;
	}
	uint64_t us = ns / 1000;
	l->v[l->n++] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
	return true;
}

int bench_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

double bench_pct_u32(const uint32_t *v, size_t n, double p)
{
	return n ? v[(size_t)(p * (double)(n - 1) + 0.5)] / 1000.0 : 0;
}

void bench_loop_scan(const char *logfile, long *offset, double m[BENCH_LOOP_FIGS])
{
	for (int i = 0; i < BENCH_LOOP_FIGS; i++)
		m[i] = 0;
	FILE *f = fopen(logfile, "r");
	if (!f)
		return;
	if (fseek(f, *offset, SEEK_SET) != 0) {
		fclose(f);
		return;
	}
	char line[BENCH_LOG_LINE_MAX];
	while (fgets(line, sizeof line, f)) {
		size_t n = strlen(line);
		if (n && line[n - 1] != '\n')
			break; /* a line still being written: read it next time */
		*offset += (long)n;
		if (!strstr(line, " info loop "))
			continue;
		for (int i = 0; i < BENCH_LOOP_FIGS; i++) {
			char key[64];
			snprintf(key, sizeof key, " %s=", bench_loop_keys[i]);
			const char *p = strstr(line, key);
			double v = p ? atof(p + strlen(key)) : 0;
			if (v > m[i])
				m[i] = v;
		}
	}
	fclose(f);
}
