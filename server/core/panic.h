/* panic: the one way the server handles a failed durable write (a store write, a begin or a
 * commit of the iteration's transaction): log where it happened and what failed, and stop at
 * once. Nothing of the iteration was reported yet (replies and events wait for the commit,
 * server.h), and nothing of it commits: the restart rebuilds every game from what did. A
 * reply of `internal` after a change that may or may not commit is never the answer. */
#ifndef TENGEN_PANIC_H
#define TENGEN_PANIC_H

/* Stop for a failed durable write: CORE_PANIC(srv->store, "what=%s", ...) logs an error
 * "panic" with the source file:line, the message (printf format) and the store's last error
 * (store may be NULL), then exits with status 1. Does not return. */
#define CORE_PANIC(store, ...) core_panic(__FILE__, __LINE__, (store), __VA_ARGS__)

struct store;

/* See CORE_PANIC: file and line are where the write failed. */
_Noreturn void core_panic(const char *file, int line, struct store *store, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
