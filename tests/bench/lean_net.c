/* lean_load's sockets (lean_load.h): one level-triggered epoll set for every client, paced
 * non-blocking connects, output written at once and buffered only when the socket is full,
 * input split into lines in place (a partial line is kept per client), and a binary heap of
 * timers (think time, retries) whose earliest entry bounds the epoll_wait. */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>
#include "lean_load.h"

struct heap_ent {
	uint64_t at;   /* ns, lean_now */
	uint32_t idx;  /* the client */
	uint32_t gen;  /* its timer_gen when set */
};

static int ep = -1;
static struct heap_ent *heap;
static size_t nheap, capheap;
static int *queue;                 /* clients waiting to connect: a ring of lean_nclients */
static int qhead, qlen, qcap;
static int inflight, pace_batch = LEAN_CONNECT_BATCH;
static bool pace_gate, gate_open;

int net_init(int nclients)
{
	if (ep < 0)
		ep = epoll_create1(EPOLL_CLOEXEC);
	free(queue);
	queue = malloc((size_t)(nclients > 0 ? nclients : 1) * sizeof *queue);
	qhead = qlen = inflight = 0;
	qcap = nclients;
	nheap = 0;
	return ep < 0 || !queue ? -1 : 0;
}

void net_free(void)
{
	free(queue);
	free(heap);
	queue = NULL;
	heap = NULL;
	nheap = capheap = 0;
	if (ep >= 0)
		close(ep);
	ep = -1;
}

/* ---- timers ---- */

static bool heap_less(size_t a, size_t b) { return heap[a].at < heap[b].at; }

static void heap_swap(size_t a, size_t b)
{
	struct heap_ent t = heap[a];
	heap[a] = heap[b];
	heap[b] = t;
}

void net_timer(struct lean_client *c, enum lean_timer k, uint64_t at)
{
	if (nheap == capheap) {
		capheap = capheap ? capheap * 2 : 1024;
		heap = realloc(heap, capheap * sizeof *heap);
		if (!heap)
			lean_die("out of memory");
	}
	c->timer = (uint8_t)k;
	c->timer_gen++;
	size_t i = nheap++;
	heap[i] = (struct heap_ent){.at = at, .idx = (uint32_t)(c - lean_clients), .gen = c->timer_gen};
	while (i && heap_less(i, (i - 1) / 2)) {
		heap_swap(i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_pop(void)
{
	heap[0] = heap[--nheap];
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < nheap && heap_less(l, m))
			m = l;
		if (r < nheap && heap_less(r, m))
			m = r;
		if (m == i)
			break;
		heap_swap(i, m);
		i = m;
	}
}

static void run_timers(uint64_t now)
{
	while (nheap && heap[0].at <= now) {
		struct heap_ent e = heap[0];
		heap_pop();
		struct lean_client *c = &lean_clients[e.idx];
		if (e.gen != c->timer_gen || c->timer == T_NONE)
			continue; /* replaced or cancelled */
		enum lean_timer k = c->timer;
		c->timer = T_NONE;
		play_timer(c, k);
	}
}

/* ---- connecting ---- */

void net_set_pace(int batch, bool gate)
{
	pace_batch = batch;
	pace_gate = gate;
	gate_open = false;
}

void net_queue(struct lean_client *c)
{
	if (qlen == qcap)
		lean_die("connect queue full");
	queue[(qhead + qlen++) % qcap] = (int)(c - lean_clients);
	c->conn = C_QUEUED;
}

void net_landed(struct lean_client *c)
{
	if (c->in_flight) {
		c->in_flight = false;
		inflight--;
	}
}

static void watch(struct lean_client *c, int op)
{
	struct epoll_event e = {.data.u64 = (uint64_t)(c - lean_clients)};
	if (c->conn == C_CONNECTING)
		e.events = EPOLLOUT;
	else
		e.events = EPOLLIN | (c->want_out ? EPOLLOUT : 0);
	if (epoll_ctl(ep, op, c->fd, &e) < 0)
		lean_die("epoll_ctl: %s", strerror(errno));
}

static void refused(struct lean_client *c)
{
	net_close(c);
	play_refused(c);
}

static void opened(struct lean_client *c)
{
	c->conn = C_OPEN;
	if (pace_gate)
		gate_open = true;
	watch(c, EPOLL_CTL_MOD);
	play_connected(c);
}

static void start_connect(struct lean_client *c)
{
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		lean_die("socket: %s (raise ulimit -n?)", strerror(errno));
	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	c->in_flight = true;
	inflight++;
	c->conn = C_CONNECTING;
	int r = connect(c->fd, (struct sockaddr *)&lean_target, sizeof lean_target);
	if (r < 0 && errno != EINPROGRESS) {
		refused(c);
		return;
	}
	watch(c, EPOLL_CTL_ADD);
	if (r == 0)
		opened(c);
}

/* Start queued connections while fewer than the batch are in flight. */
static void pace(void)
{
	while (qlen) {
		int cap = pace_gate && !gate_open ? 1 : pace_batch;
		if (inflight >= cap)
			return;
		struct lean_client *c = &lean_clients[queue[qhead]];
		qhead = (qhead + 1) % qcap;
		qlen--;
		if (c->conn == C_QUEUED)
			start_connect(c);
	}
}

static void connect_done(struct lean_client *c)
{
	int err = 0;
	socklen_t el = sizeof err;
	if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
		err = errno;
	if (err)
		refused(c);
	else
		opened(c);
}

/* ---- output ---- */

void net_close(struct lean_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->conn = C_CLOSED;
	c->inlen = c->outlen = 0;
	c->pn = 0;
	c->phead = 0;
	c->want_out = false;
	c->logged_in = false;
	c->timer = T_NONE;
	c->timer_gen++;
	net_landed(c);
}

static int buf_add(char **b, size_t *len, size_t *cap, const char *p, size_t n)
{
	if (*len + n > *cap) {
		size_t nc = *cap ? *cap : 256;
		while (nc < *len + n)
			nc *= 2;
		char *q = realloc(*b, nc);
		if (!q)
			return -1;
		*b = q;
		*cap = nc;
	}
	memcpy(*b + *len, p, n);
	*len += n;
	return 0;
}

/* Write what c holds; a failed socket is left to the read side (EOF or error). */
static void flush(struct lean_client *c)
{
	size_t off = 0;
	while (off < c->outlen) {
		ssize_t w = send(c->fd, c->out + off, c->outlen - off, MSG_NOSIGNAL);
		if (w > 0)
			off += (size_t)w;
		else if (w < 0 && errno == EINTR)
			continue;
		else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		else {
			off = c->outlen; /* dropped: the connection is gone */
			break;
		}
	}
	if (off) {
		memmove(c->out, c->out + off, c->outlen - off);
		c->outlen -= off;
	}
	bool want = c->outlen > 0;
	if (want != c->want_out) {
		c->want_out = want;
		watch(c, EPOLL_CTL_MOD);
	}
}

void net_send(struct lean_client *c, const char *p, size_t n)
{
	if (c->conn == C_OPEN && !c->outlen) {
		ssize_t w;
		do
			w = send(c->fd, p, n, MSG_NOSIGNAL);
		while (w < 0 && errno == EINTR);
		if (w == (ssize_t)n)
			return;
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
			return; /* the read side sees the connection go */
		if (w > 0) {
			p += w;
			n -= (size_t)w;
		}
	}
	if (buf_add(&c->out, &c->outlen, &c->outcap, p, n) < 0)
		lean_die("out of memory");
	if (c->conn == C_OPEN)
		flush(c);
}

/* ---- input ---- */

static void lost(struct lean_client *c)
{
	play_lost(c);
	if (c->conn != C_CLOSED)
		net_close(c);
}

/* n bytes read from c at `now`: each complete line to play_line, a partial one kept. */
static void input(struct lean_client *c, const char *p, size_t n, uint64_t now)
{
	if (c->inlen) {
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) : n;
		if (c->inlen + k > LEAN_LINE_MAX) {
			lean_error(c, "line too long", c->in, c->inlen < 80 ? c->inlen : 80);
			lost(c);
			return;
		}
		if (buf_add(&c->in, &c->inlen, &c->incap, p, k) < 0)
			lean_die("out of memory");
		if (!nl)
			return;
		size_t len = c->inlen;
		c->inlen = 0;
		play_line(c, c->in, len, now);
		p = nl + 1;
		n -= k + 1;
	}
	while (n && c->conn == C_OPEN) {
		const char *nl = memchr(p, '\n', n);
		if (!nl)
			break;
		size_t len = (size_t)(nl - p);
		if (len)
			play_line(c, p, len, now);
		p = nl + 1;
		n -= len + 1;
	}
	if (n && c->conn == C_OPEN && buf_add(&c->in, &c->inlen, &c->incap, p, n) < 0)
		lean_die("out of memory");
}

static void readable(struct lean_client *c)
{
	static char rb[LEAN_READ_BUF];
	ssize_t r = read(c->fd, rb, sizeof rb);
	if (r > 0) {
		input(c, rb, (size_t)r, lean_now());
		return;
	}
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	lost(c);
}

void net_run(int max_ms)
{
	static struct epoll_event evs[LEAN_EVENTS];
	pace();
	uint64_t now = lean_now();
	int wait = max_ms;
	if (nheap) {
		uint64_t due = heap[0].at > now ? (heap[0].at - now + 999999) / 1000000 : 0;
		if (due < (uint64_t)wait)
			wait = (int)due;
	}
	int n = epoll_wait(ep, evs, LEAN_EVENTS, wait);
	for (int i = 0; i < n; i++) {
		struct lean_client *c = &lean_clients[evs[i].data.u64];
		if (c->conn == C_CONNECTING) {
			connect_done(c);
			continue;
		}
		if (c->conn != C_OPEN)
			continue;
		if ((evs[i].events & EPOLLOUT) && c->want_out)
			flush(c);
		if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
			readable(c);
	}
	run_timers(lean_now());
}
