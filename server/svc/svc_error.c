/* svc_error: see svc_error.h. */
#include <stdarg.h>
#include <stdio.h>
#include "log.h"
#include "svc_error.h"

int svc_fail(struct proto_error *e, enum proto_errcode code, const char *fmt, ...)
{
	if (!e)
		return -1;
	va_list ap;
	e->code = code;
	va_start(ap, fmt);
	int n = vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	/* a sentence cut short reads as a typo (the reply is made valid UTF-8 as it is sent,
	 * proto_reply_error): PROTO_ERROR_MESSAGE_MAX is too small for it, said in the log */
	if (n >= (int)sizeof e->message)
		log_msg(LOGL_WARN, "error_message_cut", "bytes=%d max=%zu start=\"%.60s\"", n,
			sizeof e->message - 1, e->message);
	return -1;
}
