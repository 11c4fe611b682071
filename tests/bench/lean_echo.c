/* lean_echo: a bare line-echo server, the ceiling tengend is measured against (issue 22).
 *
 * One thread, level-triggered epoll, non-blocking sockets, no libuv and no jansson: every
 * complete line a connection sends ("\n"-terminated) is written back to it unchanged, in
 * order. A partial line waits in the connection's input buffer until its end arrives; output
 * the socket does not take at once waits in its output buffer (EPOLLOUT until it is written).
 * While a connection's unsent output is above ECHO_OUT_HIGH it is not read (back-pressure); a
 * line longer than ECHO_LINE_MAX closes it.
 *
 *   lean_echo [--listen HOST:PORT] [--port-file PATH] [--sync-file PATH [--sync-thread]]
 *
 * --listen: IPv4 address and port (default 127.0.0.1:0; port 0 picks a free one).
 * --port-file: write the bound port there (written whole, then renamed into place) once the
 * socket listens. Runs until SIGTERM or SIGINT; exit status 0, or 1 if it cannot listen.
 *
 * --sync-file: the durable echo, the floor of any server that answers a move only once it is
 * on the disk (docs/benchmarks.md, issue 22). A line is echoed only after it was written to
 * PATH and fdatasync() returned: the lines of one epoll batch are written at once (pwrite
 * into a file of ECHO_SYNC_FILE_SIZE bytes laid out and synced at start, from offset 0 again
 * when the end is reached, so that no sync waits for the file's size or its extents), then
 * synced, then sent: a group commit per batch, as tengend's default `--sync power-safe`.
 * --sync-thread: the fdatasync() runs on a second thread, as tengend's `power-safe-thread`:
 * the loop goes on reading and writing while a sync is under way; the lines written before a
 * sync began are sent when it returns, the others wait for the next one (one at a time).
 */
#define _GNU_SOURCE
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define ECHO_READ_BUF 65536         /* bytes read at once */
#define ECHO_EVENTS 1024            /* epoll events per wait */
#define ECHO_LINE_MAX (1 << 20)     /* a longer line closes the connection */
#define ECHO_OUT_HIGH (4 << 20)     /* unsent bytes above which a connection is not read */
#define ECHO_BACKLOG 65535          /* listen queue (the kernel caps it at somaxconn) */
#define ECHO_LISTEN_TAG UINT64_MAX  /* epoll data of the listening socket */
#define ECHO_SYNC_TAG (UINT64_MAX - 1) /* epoll data of the syncer's eventfd */
#define ECHO_SYNC_FILE_SIZE (64 << 20) /* --sync-file: bytes laid out at start, written round */

struct buf {
	char *p;
	size_t len, cap;
};

struct econn {
	int fd;
	bool want_out; /* registered for EPOLLOUT */
	bool paused;   /* not registered for EPOLLIN (output above ECHO_OUT_HIGH) */
	bool listed;   /* --sync-file: on S.held (it has lines held) */
	bool dead;     /* closed while listed; freed when taken off the list */
	struct buf in, out;
	struct buf held; /* --sync-file: lines written to the file, waiting for a sync */
	size_t covered;  /* the first `covered` bytes of held: the sync under way covers them */
};

/* --sync-file: the file, where the next batch goes, the batch's lines, and the connections
 * with lines held. */
static struct {
	int fd, efd;
	bool thread, busy; /* busy: a sync under way (thread) */
	off_t off;
	struct buf batch;
	struct econn **held;
	size_t nheld, capheld;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t asked, done; /* syncs asked of the thread, and returned */
} S = {.fd = -1, .efd = -1, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static int ep;
static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static int buf_add(struct buf *b, const char *p, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		char *q = realloc(b->p, cap);
		if (!q)
			return -1;
		b->p = q;
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

static void conn_free(struct econn *c)
{
	free(c->in.p);
	free(c->out.p);
	free(c->held.p);
	free(c);
}

static void conn_close(struct econn *c)
{
	close(c->fd); /* also leaves the epoll set */
	c->fd = -1;
	if (c->listed)
		c->dead = true; /* freed when the sync lets it go (sync_release) */
	else
		conn_free(c);
}

/* Register c for the events its state asks for. */
static void conn_watch(struct econn *c)
{
	struct epoll_event e = {.events = (c->paused ? 0 : EPOLLIN) | (c->want_out ? EPOLLOUT : 0),
				.data.ptr = c};
	epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &e);
}

/* Write what c's output buffer holds; -1 if the connection failed. */
static int conn_flush(struct econn *c)
{
	size_t off = 0;
	while (off < c->out.len) {
		ssize_t w = send(c->fd, c->out.p + off, c->out.len - off, MSG_NOSIGNAL);
		if (w > 0) {
			off += (size_t)w;
		} else if (w < 0 && errno == EINTR) {
			continue;
		} else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			break;
		} else {
			return -1;
		}
	}
	if (off) {
		memmove(c->out.p, c->out.p + off, c->out.len - off);
		c->out.len -= off;
	}
	bool want = c->out.len > 0, paused = c->out.len > ECHO_OUT_HIGH;
	if (want != c->want_out || paused != c->paused) {
		c->want_out = want;
		c->paused = paused;
		conn_watch(c);
	}
	return 0;
}

/* Queue n bytes of complete lines for c: written at once when nothing waits before them. */
static int conn_send(struct econn *c, const char *p, size_t n)
{
	if (!c->out.len) {
		while (n) {
			ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
			if (w > 0) {
				p += w;
				n -= (size_t)w;
			} else if (w < 0 && errno == EINTR) {
				continue;
			} else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
				break;
			} else {
				return -1;
			}
		}
		if (!n)
			return 0;
	}
	if (buf_add(&c->out, p, n) < 0)
		return -1;
	return conn_flush(c);
}

/* Complete lines for c: sent now, or with --sync-file held until a sync covers them. */
static int conn_out(struct econn *c, const char *p, size_t n)
{
	if (S.fd < 0)
		return conn_send(c, p, n);
	if (buf_add(&c->held, p, n) < 0 || buf_add(&S.batch, p, n) < 0)
		return -1;
	if (c->listed)
		return 0;
	if (S.nheld == S.capheld) {
		size_t cap = S.capheld ? 2 * S.capheld : 1024;
		struct econn **v = realloc(S.held, cap * sizeof *v);
		if (!v)
			return -1;
		S.held = v;
		S.capheld = cap;
	}
	S.held[S.nheld++] = c;
	c->listed = true;
	return 0;
}

/* n bytes read from c: echo its complete lines, keep a partial one. -1: close c. */
static int conn_input(struct econn *c, const char *p, size_t n)
{
	if (c->in.len) { /* the rest of a line begun in an earlier read */
		const char *nl = memchr(p, '\n', n);
		size_t k = nl ? (size_t)(nl - p) + 1 : n;
		if (c->in.len + k > ECHO_LINE_MAX || buf_add(&c->in, p, k) < 0)
			return -1;
		p += k;
		n -= k;
		if (!nl)
			return 0;
		int r = conn_out(c, c->in.p, c->in.len);
		c->in.len = 0;
		if (r < 0)
			return -1;
	}
	const char *last = n ? memrchr(p, '\n', n) : NULL;
	size_t whole = last ? (size_t)(last - p) + 1 : 0;
	if (whole && conn_out(c, p, whole) < 0)
		return -1;
	if (n - whole > ECHO_LINE_MAX)
		return -1;
	return n > whole ? buf_add(&c->in, p + whole, n - whole) : 0;
}

static void on_readable(struct econn *c)
{
	static char rb[ECHO_READ_BUF];
	ssize_t r = read(c->fd, rb, sizeof rb);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (r <= 0 || conn_input(c, rb, (size_t)r) < 0)
		conn_close(c);
}

static void on_accept(int lfd)
{
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return; /* EAGAIN: all taken; EMFILE and the like: try at the next event */
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		struct econn *c = calloc(1, sizeof *c);
		struct epoll_event e = {.events = EPOLLIN, .data.ptr = c};
		if (!c || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e) < 0) {
			free(c);
			close(fd);
			continue;
		}
		c->fd = fd;
	}
}

/* ---- --sync-file ---- */

static void sync_die(const char *what)
{
	fprintf(stderr, "lean_echo: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void *syncer_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&S.mu);
	for (;;) {
		while (S.asked == S.done)
			pthread_cond_wait(&S.cv, &S.mu);
		pthread_mutex_unlock(&S.mu);
		if (fdatasync(S.fd) < 0)
			sync_die("fdatasync");
		pthread_mutex_lock(&S.mu);
		S.done++;
		uint64_t one = 1;
		if (write(S.efd, &one, sizeof one) != sizeof one)
			sync_die("eventfd");
	}
	return NULL;
}

/* Lay the file out (zeros, synced) and start the thread if asked; -1 on failure. */
static int sync_open(const char *path)
{
	S.fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (S.fd < 0)
		return -1;
	static char zeros[1 << 16];
	for (off_t o = 0; o < ECHO_SYNC_FILE_SIZE; o += (off_t)sizeof zeros)
		if (pwrite(S.fd, zeros, sizeof zeros, o) != (ssize_t)sizeof zeros)
			return -1;
	if (fsync(S.fd) < 0)
		return -1;
	if (!S.thread)
		return 0;
	S.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	struct epoll_event e = {.events = EPOLLIN, .data.u64 = ECHO_SYNC_TAG};
	pthread_t t;
	if (S.efd < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, S.efd, &e) < 0 ||
	    pthread_create(&t, NULL, syncer_main, NULL) != 0)
		return -1;
	return 0;
}

/* Write the batch's lines to the file (round from offset 0 at its end). */
static void sync_write_batch(void)
{
	const char *p = S.batch.p;
	size_t n = S.batch.len;
	while (n) {
		size_t k = (size_t)(ECHO_SYNC_FILE_SIZE - S.off);
		if (k > n)
			k = n;
		ssize_t w = pwrite(S.fd, p, k, S.off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			sync_die("pwrite");
		p += w;
		n -= (size_t)w;
		S.off = (S.off + w) % ECHO_SYNC_FILE_SIZE;
	}
	S.batch.len = 0;
}

/* A sync begins: it covers every line held so far (all written to the file). */
static void sync_cover(void)
{
	for (size_t i = 0; i < S.nheld; i++)
		S.held[i]->covered = S.held[i]->held.len;
}

/* The sync returned: send what it covered; connections with later lines stay listed. */
static void sync_release(void)
{
	size_t keep = 0;
	for (size_t i = 0; i < S.nheld; i++) {
		struct econn *c = S.held[i];
		if (c->dead) {
			conn_free(c);
			continue;
		}
		int r = conn_send(c, c->held.p, c->covered);
		memmove(c->held.p, c->held.p + c->covered, c->held.len - c->covered);
		c->held.len -= c->covered;
		c->covered = 0;
		if (r < 0) {
			c->listed = false;
			conn_close(c);
		} else if (c->held.len) {
			S.held[keep++] = c;
		} else {
			c->listed = false;
		}
	}
	S.nheld = keep;
}

/* After each epoll batch: write its lines; then sync and send them (in the loop), or begin
 * a sync if none is under way (--sync-thread). */
static void sync_after_batch(void)
{
	if (S.batch.len)
		sync_write_batch();
	if (!S.nheld || S.busy)
		return;
	sync_cover();
	if (!S.thread) {
		if (fdatasync(S.fd) < 0)
			sync_die("fdatasync");
		sync_release();
		return;
	}
	S.busy = true;
	pthread_mutex_lock(&S.mu);
	S.asked++;
	pthread_cond_signal(&S.cv);
	pthread_mutex_unlock(&S.mu);
}

/* --sync-thread: the thread's sync returned; send what it covered. The next begins after the
 * batch (sync_after_batch), once the batch's lines are written. */
static void sync_done(void)
{
	uint64_t k;
	if (read(S.efd, &k, sizeof k) != sizeof k)
		return;
	S.busy = false;
	sync_release();
}

/* HOST:PORT (IPv4) into *a; -1 if malformed. */
static int parse_addr(const char *s, struct sockaddr_in *a)
{
	const char *colon = strrchr(s, ':');
	char host[64];
	if (!colon || (size_t)(colon - s) >= sizeof host)
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535)
		return -1;
	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

/* Write the port to path (a temporary name, then renamed: readers never see half of it). */
static int write_port_file(const char *path, int port)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	fprintf(f, "%d\n", port);
	if (fclose(f) != 0)
		return -1;
	return rename(tmp, path);
}

int main(int argc, char **argv)
{
	const char *listen_at = "127.0.0.1:0", *port_file = NULL, *sync_file = NULL;
	static const struct option lo[] = {{"listen", required_argument, NULL, 'l'},
		{"port-file", required_argument, NULL, 'p'}, {"help", no_argument, NULL, 'h'},
		{"sync-file", required_argument, NULL, 'f'}, {"sync-thread", no_argument, NULL, 't'},
		{NULL, 0, NULL, 0}};
	static const char use[] = "usage: lean_echo [--listen HOST:PORT] [--port-file PATH] "
		"[--sync-file PATH [--sync-thread]]\n";
	int o;
	while ((o = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (o) {
		case 'l': listen_at = optarg; break;
		case 'p': port_file = optarg; break;
		case 'f': sync_file = optarg; break;
		case 't': S.thread = true; break;
		case 'h': fputs(use, stdout); return 0;
		default: fputs(use, stderr); return 2;
		}
	}
	struct sockaddr_in a;
	if (S.thread && !sync_file) {
		fprintf(stderr, "lean_echo: --sync-thread needs --sync-file\n");
		return 2;
	}
	if (optind < argc || parse_addr(listen_at, &a) < 0) {
		fprintf(stderr, "lean_echo: --listen takes IPv4-HOST:PORT\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int one = 1;
	socklen_t al = sizeof a;
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(lfd, (struct sockaddr *)&a, sizeof a) < 0 || listen(lfd, ECHO_BACKLOG) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&a, &al) < 0) {
		fprintf(stderr, "lean_echo: cannot listen on %s: %s\n", listen_at, strerror(errno));
		return 1;
	}
	ep = epoll_create1(EPOLL_CLOEXEC);
	struct epoll_event le = {.events = EPOLLIN, .data.u64 = ECHO_LISTEN_TAG};
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &le) < 0) {
		fprintf(stderr, "lean_echo: epoll: %s\n", strerror(errno));
		return 1;
	}
	if (sync_file && sync_open(sync_file) < 0) {
		fprintf(stderr, "lean_echo: --sync-file %s: %s\n", sync_file, strerror(errno));
		return 1;
	}
	if (port_file && write_port_file(port_file, ntohs(a.sin_port)) < 0) {
		fprintf(stderr, "lean_echo: cannot write %s: %s\n", port_file, strerror(errno));
		return 1;
	}
	static struct epoll_event evs[ECHO_EVENTS];
	while (!stopping) {
		int n = epoll_wait(ep, evs, ECHO_EVENTS, -1);
		for (int i = 0; i < n; i++) {
			if (evs[i].data.u64 == ECHO_LISTEN_TAG) {
				on_accept(lfd);
				continue;
			}
			if (evs[i].data.u64 == ECHO_SYNC_TAG) {
				sync_done();
				continue;
			}
			struct econn *c = evs[i].data.ptr;
			if ((evs[i].events & EPOLLOUT) && conn_flush(c) < 0) {
				conn_close(c); /* no other event of this batch names c: one entry per fd */
				continue;
			}
			if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
				on_readable(c);
		}
		if (S.fd >= 0)
			sync_after_batch();
	}
	return 0;
}
