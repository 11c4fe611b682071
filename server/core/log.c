/* log: see log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
	char ts[32], small[LOG_LINE_BUF], *line = small;
	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
	int head = snprintf(small, sizeof small, "%s.%03ldZ %s %s ", ts, (long)(tv.tv_usec / 1000),
			    names[l], event);
	if (head < 0 || (size_t)head >= sizeof small)
		return;
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int body = vsnprintf(small + head, sizeof small - (size_t)head, fmt, ap);
	size_t len = (size_t)head + (size_t)(body > 0 ? body : 0);
	if (body >= 0 && len + 1 >= sizeof small) { /* a long line: on the heap, else cut */
		char *big = malloc(len + 2);
		if (big) {
			memcpy(big, small, (size_t)head);
			vsnprintf(big + head, (size_t)body + 1, fmt, again);
			line = big;
		} else {
			len = sizeof small - 2;
		}
	}
	va_end(again);
	va_end(ap);
	line[len++] = '\n';
	fwrite(line, 1, len, stderr); /* one write (stderr is unbuffered): whole lines, whatever
	                                 thread logs beside */
	if (line != small)
		free(line);
}
