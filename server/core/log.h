/* log: one line per event on stderr, greppable: "<iso time> <level> <event> key=value ...".
 * Passwords and hashes are never logged. */
#ifndef TENGEN_LOG_H
#define TENGEN_LOG_H

#define LOG_LINE_BUF 1024 /* a line up to this is formatted on the stack; a longer one is
                             allocated (cut to this if that fails) */

enum log_level { LOGL_ERROR = 0, LOGL_WARN, LOGL_INFO, LOGL_DEBUG };

/* Set the threshold; messages above it are dropped. */
void log_set_level(enum log_level l);
/* Parse "error", "warn", "info", "debug". Returns 0 or -1. */
int log_parse_level(const char *s, enum log_level *out);
/* Log `event` with printf-formatted key=value pairs: the line is written with one write(2), so
 * lines of several threads never interleave. */
void log_msg(enum log_level l, const char *event, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
