/* panic: stop for a failed durable write. See panic.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "log.h"
#include "panic.h"
#include "store.h"

void core_panic(const char *file, int line, struct store *store, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	const char *base = file;
	for (const char *p = file; *p; p++)
		if (*p == '/')
			base = p + 1;
	log_msg(LOGL_ERROR, "panic", "at=%s:%d %s error=\"%s; stopping, nothing of this iteration "
		"is acknowledged\"", base, line, what, store ? store_errmsg(store) : "-");
	exit(1);
}
