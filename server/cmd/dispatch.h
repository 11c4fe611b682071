/* dispatch: a request line to its command's handler (cmd/), with the table of commands, the
 * login and role check (proto_command_allowed) and a cache of serialized replies (`games`,
 * tournament standings and pairings).
 * main.c sets dispatch_line as the server's line sink (server_set_line). */
#ifndef TENGEN_DISPATCH_H
#define TENGEN_DISPATCH_H

#include "server.h"

#define DISPATCH_CACHE_ENTRIES 16 /* serialized replies kept until a change (dispatch.c) */

/* A serialized reply kept for equal requests: `games` listings, tournament standings and
 * pairings. */
struct reply_cache {
	char *key;                /* the request without its id: compact JSON, sorted keys */
	char *suffix;             /* the reply line after {"id":ID */
	size_t len;
	enum proto_cmd cmd;       /* its command: which generation it is valid for */
	uint64_t gen;             /* srv->data_gen (`games`) or store_changes (tournament views) */
	uint64_t used;            /* for replacing the least recently used */
};

/* The dispatcher's state (zeroed to start). */
struct dispatch {
	struct reply_cache cache[DISPATCH_CACHE_ENTRIES];
	uint64_t cache_clock;
};

/* Handle one request line from c (ctx: a struct dispatch): parse it, check it, call the
 * handler, which queues the reply (or reply from the cache). Errors are replies. */
void dispatch_line(void *ctx, struct conn *c, const char *line, size_t len);
/* Free the cached replies (d can be used again). */
void dispatch_free(struct dispatch *d);

#endif
