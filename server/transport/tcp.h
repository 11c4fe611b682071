/* tcp: the TCP transport on libuv: the listener, accepted connections (a struct conn each,
 * conn.h, behind conn_ops), reading into line framing, queued output written once per loop
 * iteration (on the loop or by the writer thread, writer.h), the graceful close of every
 * connection at a stop. main.c wires it: tcp_flush as the server's flush hook, tcp_stop as a
 * stop hook. */
#ifndef TENGEN_TCP_H
#define TENGEN_TCP_H

#include "server.h"

/* The transport's state (zeroed to start; main.c owns it). */
struct tcp_server {
	struct server *srv;       /* set by tcp_listen */
	uv_tcp_t listener;
	uv_timer_t grace;         /* shutdown: force-close connections that do not drain */
	struct writer *writer;    /* output thread; NULL: written on the loop */
};

/* Bind and listen on srv->set.host:port (0: any free port); writes the bound port to
 * set.port_file if given; starts the writer thread (set.writer_min). Returns 0 or -1 (logged;
 * the caller stops the server, tcp_stop closes what was opened). */
int tcp_listen(struct tcp_server *t, struct server *srv);
/* The flush hook (ctx: the struct tcp_server): write every dirty connection's queued bytes
 * (after the commit). */
void tcp_flush(void *ctx);
/* The stop hook (ctx: the struct tcp_server): close every connection after flushing it, and
 * the listener; connections that have not drained after SERVER_SHUTDOWN_GRACE_MS are cut off.
 * Does nothing if tcp_listen was never called. */
void tcp_stop(void *ctx);
/* After the loop ended: close the grace timer if it never fired. Returns true if the loop must
 * run once more for the close to complete. */
bool tcp_after_loop(struct tcp_server *t);

#endif
