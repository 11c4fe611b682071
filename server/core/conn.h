/* conn: a connection's life in the server, whatever transport carries it: the per-address
 * counters, the queue of output bytes (server_send_raw and the other server_send and
 * server_reply functions, declared in server.h), sessions (server_session_add), the backlog of connections with
 * lines to handle within the turn's budgets (server.h, SERVER_CONN_UNITS...), references held
 * by async jobs, closing, and the idle-timeout sweep. The transport (transport/tcp.c) makes
 * connections with conn_add, feeds their framing and calls conn_lines; the lines go to the
 * line sink main.c set (server_set_line). */
#ifndef TENGEN_CONN_H
#define TENGEN_CONN_H

#include "server.h"

/* Initialise a new connection c (zeroed, in the transport's own structure) of srv with `ops`
 * and peer address `addr` (no port): one reference (the transport's), framing, a serial, the
 * time of its start. Does not count it anywhere yet (conn_add). */
void conn_init(struct conn *c, struct server *srv, const struct conn_ops *ops, const char *addr);
/* Count c as open: on srv's list and its address's counters. Returns NULL, or why it must be
 * refused ("too many connections..."; it is counted all the same, so conn_close undoes it),
 * or "out of memory" (not counted: the caller frees it through its ops). */
const char *conn_add(struct conn *c);
/* Count c, a connection from a proxy that must first send a PROXY header (transport/proxy.h),
 * as open: on srv's list and its (the proxy's) address's `pending` count, not its connections
 * (--max-per-address); c->pending is set. Returns NULL, or why it must be refused ("too many
 * connections", or max_pending of that proxy's connections wait already; counted all the
 * same), or "out of memory" (not counted), as conn_add. */
const char *conn_add_pending(struct conn *c, unsigned max_pending);
/* An HTTP connection from `addr` (transport/ws.c) that is not a WebSocket one yet, or will
 * never be: count it in its address's `http` and srv->nhttp, which with srv->nconns stays
 * within --max-connections (they share the descriptors), alone within --max-http-connections
 * (so HTTP connections from many addresses cannot shut the protocol's out), and, when
 * per_address (not a listed proxy's connection), within --max-http-per-address. Returns NULL
 * with *hp set (hand it to conn_http_done when the connection closes or becomes a WebSocket
 * one, counted then by conn_add), or why it is refused ("too many connections", "too many
 * HTTP connections", "too many HTTP connections from this address", "out of memory"), with
 * *hp NULL and nothing counted. */
const char *conn_http_add(struct server *srv, const char *addr, bool per_address,
			  struct host **hp);
/* Why conn_http_add would refuse that connection now (counting nothing), or NULL. */
const char *conn_http_refusal(struct server *srv, const char *addr, bool per_address);
/* Uncount an HTTP connection counted by conn_http_add (h: its *hp). */
void conn_http_done(struct server *srv, struct host *h);
/* The header of pending c named its client `addr` (or the proxy itself, c->addr): c now
 * counts on that address's counters (its connections, unsent bytes; the login and
 * registration limits go by c->addr) and no longer as pending. Returns NULL, or why it must
 * be refused ("too many connections from this address"; moved all the same, so conn_close
 * undoes it), or "out of memory" (c unchanged: still pending). */
const char *conn_set_addr(struct conn *c, const char *addr);

/* One more reference to c (an async job); conn_unref drops it. */
void conn_ref(struct conn *c);
/* Drop one reference; frees the connection (ops->free) when the last one goes. */
void conn_unref(struct conn *c);
/* Close a connection (idempotent): leave its session, its lists, then ops->close. `why` goes
 * to the log. */
void conn_close(struct conn *c, const char *why);
/* The client closed its sending side (a read saw end of file, as `nc -N` or `shutdown(SHUT_WR)`
 * do): the complete lines it sent are still answered, a trailing partial line is dropped,
 * and the connection closes once its replies are written (conn_eof_check). */
void conn_peer_eof(struct conn *c);
/* Close c if its client half-closed and nothing is left to do: no line waiting or being
 * handled, every reply written. Called after writes complete (and by the sweep). */
void conn_eof_check(struct conn *c);
/* A sync ended (server.c): the bytes each connection queued while it was under way join its
 * queue (`out`) and it is marked for the next flush. */
void conn_release_later(struct server *srv);
/* After c's outlen or inflight changed: its address's count of unsent bytes follows. */
void conn_acct(struct conn *c);

/* Handle c's buffered lines while the turn's budgets last, then put it on the backlog if
 * lines remain (bytes were just fed to c->fr). */
void conn_lines(struct conn *c);
/* Put a connection with buffered lines (or one whose async job ended) on the backlog. */
void conn_backlog_add(struct conn *c);
/* An async job that held c's turn (c->busy) is done: its next lines may run. */
void conn_resume(struct conn *c);
/* Handle backlogged lines while the turn's budgets last (server.h, SERVER_CONN_UNITS...);
 * connections left waiting keep their place at the front. */
void conn_run_backlog(struct server *srv);

/* Start the idle-timeout sweep (server.h, SERVER_IDLE_SWEEP_MS) if set.idle_timeout_s or
 * set.anon_idle_s: a partial line held too long, or a connection neither logged in nor
 * observing a game that has sent no complete line for anon_idle_s, is closed. */
void conn_sweep_start(struct server *srv);
/* After every connection is freed: the per-address table. */
void conn_free_hosts(struct server *srv);

#endif
