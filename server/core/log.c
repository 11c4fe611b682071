/* log: see log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include "log.h"

static enum log_level threshold = LOGL_INFO;
static const char *const names[] = {"error", "warn", "info", "debug"};

void log_set_level(enum log_level l) { threshold = l; }

int log_parse_level(const char *s, enum log_level *out)
{
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum log_level)i;
			return 0;
		}
	return -1;
}

void log_msg(enum log_level l, const char *event, const char *fmt, ...)
{
	if (l > threshold)
		return;
	struct timeval tv;
	struct tm tm;
	char ts[32];
	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
	fprintf(stderr, "%s.%03ldZ %s %s ", ts, (long)(tv.tv_usec / 1000), names[l], event);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
