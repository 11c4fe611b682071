/* net: the listener and client connections on libuv: reading into line framing with a bounded
 * number of lines per turn, queued output written once per loop iteration, a cut-off for
 * clients that do not read, limits on connections. */
#ifndef TENGEN_NET_H
#define TENGEN_NET_H

#include "server.h"

/* Bind and listen on srv->set.host:port (0: any free port); writes the bound port to
 * set.port_file if given. Returns 0 or -1 (logged). */
int net_listen(struct server *srv);
/* Handle backlogged lines while the turn's budgets last (server.h, SERVER_CONN_UNITS...);
 * connections left waiting keep their place at the front. */
void net_run_backlog(struct server *srv);
/* Put a connection with buffered lines (or one whose async job ended) on the backlog. */
void net_backlog_add(struct conn *c);
/* Write every connection's queued bytes (after the commit). */
void net_flush(struct server *srv);
/* Close a connection (idempotent); `why` goes to the log. */
void net_close(struct conn *c, const char *why);
/* Drop one reference (async job done); frees the connection when the last one goes. */
void net_unref(struct conn *c);
/* Close every connection after flushing it, and the listener; connections that have not
 * drained after SERVER_SHUTDOWN_GRACE_MS are cut off. */
void net_shutdown(struct server *srv);
/* After every connection is freed: the per-address table. */
void net_free(struct server *srv);
/* Give c (its srv and addr set) the counters of its address and count it as open there, as
 * an accepted connection is (for drivers that build connections without a socket, e.g. the
 * fuzzer). Returns 0, or -1 when out of memory. */
int net_host_attach(struct conn *c);
/* After the loop ended: close the grace timer if it never fired. Returns true if the loop must
 * run once more for the close to complete. */
bool net_after_loop(struct server *srv);

#endif
