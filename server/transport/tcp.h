/* tcp: the TCP transport on libuv: the listener, accepted connections (a struct conn each,
 * conn.h, behind conn_ops), reading into line framing, queued output written once per loop
 * iteration (on the loop or by the writer thread, writer.h), the graceful close of every
 * connection at a stop. main.c wires it: tcp_flush as the server's flush hook, tcp_stop as a
 * stop hook.
 *
 * With set.proxy_protocol a connection from an address in set.proxy_from must begin with a
 * PROXY protocol header (proxy.h): until it is read the connection counts as pending on the
 * proxy's address (conn_add_pending), then as its client's (conn_set_addr); the header's bytes
 * never reach the framing, the bytes after it do. A bad header, or none within
 * set.proxy_timeout_ms, closes the connection (logged). Other addresses connect directly. */
#ifndef TENGEN_TCP_H
#define TENGEN_TCP_H

#include "proxy.h"
#include "server.h"

/* The transport's state (zeroed to start; main.c owns it). */
struct tcp_server {
	struct server *srv;       /* set by tcp_listen */
	uv_tcp_t listener;
	uv_timer_t grace;         /* shutdown: force-close connections that do not drain */
	struct writer *writer;    /* output thread; NULL: written on the loop */
	struct proxy_from from;   /* set.proxy_from, parsed (set.proxy_protocol) */
	uv_timer_t proxy_timer;   /* closes connections whose PROXY header is late */
	struct tcp_conn *waiting; /* connections from a proxy before their header */
	/* Accepts per loop turn (SERVER_ACCEPTS_PER_TURN): libuv accepts until the queue is
	 * empty, and a flood of connections refills it as fast, so one turn never ended. */
	uint64_t accept_turn;     /* the turn `accepted` counts */
	unsigned accepted;
	uv_idle_t accept_idle;    /* takes the held connection at the next iteration */
};

/* Bind and listen on srv->set.host:port (0: any free port); writes the bound port to
 * set.port_file if given; starts the writer thread (set.writer_min); with set.proxy_protocol,
 * reads set.proxy_from (default PROXY_FROM_DEFAULT). Returns 0 or -1 (logged;
 * the caller stops the server, tcp_stop closes what was opened). */
int tcp_listen(struct tcp_server *t, struct server *srv);
/* The listen backlog used when set.backlog is 0 (--backlog): the system's maximum, read from
 * TCP_SOMAXCONN_PATH (the kernel caps any backlog there), else SOMAXCONN; at most
 * SERVER_BACKLOG_MAX. A short queue drops SYNs when many clients reconnect at once after a
 * restart, each then retrying only after a second (issue 22). */
#define TCP_SOMAXCONN_PATH "/proc/sys/net/core/somaxconn"
int tcp_backlog_default(void);
/* TCP keepalive on connected socket fd (the protocol's and the WebSocket's): after idle_s
 * seconds without traffic the kernel probes the peer every SERVER_KEEPALIVE_INTERVAL_S, and
 * SERVER_KEEPALIVE_PROBES unanswered probes drop the connection, which then closes as any
 * broken one (a player's clock runs on, Art. 22.7). TCP_USER_TIMEOUT is set to the same total,
 * so bytes the peer leaves unacknowledged that long drop it too. Without this, a peer gone
 * without a word (a laptop asleep, a NAT that forgot the flow) kept its connection, its place
 * within --max-connections and --max-per-address, and its session, for ever. idle_s 0: off.
 * Returns 0, or -1 with errno (the connection works on without it). */
int tcp_keepalive(int fd, unsigned idle_s);
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
