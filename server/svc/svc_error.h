/* svc_error: how a service says why it refused. The services take plain values and return 0
 * or -1; on -1 they fill a struct proto_error {code, message} (proto/proto.h) that the command
 * handler (server/cmd/) replies with as it is, so the wording of every refusal stays with the
 * rule that makes it. */
#ifndef TENGEN_SVC_ERROR_H
#define TENGEN_SVC_ERROR_H

#include "proto.h"

/* Fill *e (if not NULL) with `code` and the printf-style message (truncated to
 * PROTO_ERROR_MESSAGE_MAX - 1 bytes, as server_reply_error does, and the log says so:
 * `error_message_cut`). Returns -1. */
int svc_fail(struct proto_error *e, enum proto_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
