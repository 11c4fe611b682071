/* svc_error: see svc_error.h. */
#include <stdarg.h>
#include <stdio.h>
#include "svc_error.h"

int svc_fail(struct proto_error *e, enum proto_errcode code, const char *fmt, ...)
{
	if (!e)
		return -1;
	va_list ap;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	return -1;
}
