/* load_bench's processes (load_bench.h): the bare echo server, tengend, and the attacker of
 * --attack. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>
#include "framing.h"
#include "load_bench.h"

/* ---- servers ---- */

/* The bare echo server: a child process on libuv, the same framing code, one uv_write per read. */
struct echo_conn {
	uv_tcp_t tcp;
	struct framing fr;
};

static void echo_closed(uv_handle_t *h)
{
	struct echo_conn *e = h->data;
	framing_free(&e->fr);
	free(e);
}

static void echo_write_done(uv_write_t *w, int status)
{
	free(w->data);
	free(w);
}

static void echo_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct echo_conn *e = s->data;
	if (nread < 0) {
		uv_close((uv_handle_t *)s, echo_closed);
		return;
	}
	if (framing_feed(&e->fr, buf->base, (size_t)nread) < 0)
		exit(1);
	char *out = NULL;
	size_t outlen = 0, outcap = 0;
	const char *line;
	size_t len;
	enum framing_result r;
	while ((r = framing_next(&e->fr, &line, &len)) != FRAMING_NONE) {
		if (r != FRAMING_LINE)
			continue;
		if (outlen + len + 1 > outcap) {
			outcap = (outlen + len + 1) * 2;
			out = realloc(out, outcap);
			if (!out)
				exit(1);
		}
		memcpy(out + outlen, line, len);
		out[outlen + len] = '\n';
		outlen += len + 1;
	}
	if (!outlen)
		return;
	uv_write_t *w = malloc(sizeof *w);
	if (!w)
		exit(1);
	w->data = out;
	uv_buf_t b = uv_buf_init(out, (unsigned)outlen);
	if (uv_write(w, s, &b, 1, echo_write_done) < 0) {
		free(out);
		free(w);
	}
}

static void echo_accept(uv_stream_t *l, int status)
{
	if (status < 0)
		return;
	struct echo_conn *e = calloc(1, sizeof *e);
	if (!e)
		exit(1);
	framing_init(&e->fr);
	uv_tcp_init(l->loop, &e->tcp);
	e->tcp.data = e;
	if (uv_accept(l, (uv_stream_t *)&e->tcp) < 0) {
		uv_close((uv_handle_t *)&e->tcp, echo_closed);
		return;
	}
	uv_tcp_nodelay(&e->tcp, 1);
	uv_read_start((uv_stream_t *)&e->tcp, on_alloc, echo_read);
}

/* Fork the echo server; returns its port. */
int spawn_echo(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		die("pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fds[0]);
		uv_loop_t el;
		uv_loop_init(&el);
		uv_tcp_t l;
		uv_tcp_init(&el, &l);
		struct sockaddr_in a;
		uv_ip4_addr("127.0.0.1", 0, &a);
		if (uv_tcp_bind(&l, (struct sockaddr *)&a, 0) < 0 ||
		    uv_listen((uv_stream_t *)&l, 511, echo_accept) < 0)
			_exit(1);
		struct sockaddr_in b;
		int bl = sizeof b;
		uv_tcp_getsockname(&l, (struct sockaddr *)&b, &bl);
		int port = ntohs(b.sin_port);
		if (write(fds[1], &port, sizeof port) != sizeof port)
			_exit(1);
		close(fds[1]);
		uv_run(&el, UV_RUN_DEFAULT);
		_exit(0);
	}
	close(fds[1]);
	int port = 0;
	if (read(fds[0], &port, sizeof port) != sizeof port)
		die("the echo server did not start");
	close(fds[0]);
	server_pid = pid;
	return port;
}

/* ---- the attacker (--attack) ---- */

static pid_t attack_pid;

static bool attack_hashes(void)
{
	return O.attack && (strcmp(O.attack, "register") == 0 || strcmp(O.attack, "login") == 0);
}

/* A blocking connection from BENCH_ATTACK_ADDR to the target; -1 on failure. */
static int attack_dial(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	inet_pton(AF_INET, BENCH_ATTACK_ADDR, &a.sin_addr);
	if (fd < 0)
		return -1;
	if (strcmp(O.attack, "silent") == 0) {
		int small = 2048;
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
	}
	if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    connect(fd, (struct sockaddr *)&target, sizeof target) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void attack_send(int fd, const char *line)
{
	size_t len = strlen(line), done = 0;
	while (done < len) {
		ssize_t w = write(fd, line + done, len - done);
		if (w > 0)
			done += (size_t)w;
		else if (w < 0 && errno != EAGAIN && errno != EINTR)
			return;
	}
}

/* The attacker's next request on connection i. */
static void attack_line(int i, unsigned seq, char *buf, size_t n)
{
	if (strcmp(O.attack, "register") == 0)
		snprintf(buf, n, "{\"cmd\":\"register\",\"name\":\"atk%d-%u\",\"password\":\"attack-password\"}\n",
			 i, seq);
	else if (strcmp(O.attack, "login") == 0)
		snprintf(buf, n, "{\"cmd\":\"login\",\"name\":\"bench-%06d\",\"password\":\"wrong-password\"}\n",
			 (int)((unsigned)i * 7919u + seq) % nclients);
	else if (strcmp(O.attack, "challenge") == 0)
		snprintf(buf, n, "{\"cmd\":\"challenge\",\"opponent\":\"bench-%06d\",\"size\":19}\n",
			 (int)((unsigned)i * 7919u + seq) % nclients);
	else
		snprintf(buf, n, "{\"cmd\":\"games\",\"limit\":1000}\n");
}

/* The attacker process: BENCH_ATTACK_CONNS connections, BENCH_ATTACK_DEPTH requests in flight
 * each (replies read and dropped; `silent` sends once and never reads), for `secs` seconds. */
static void attack_run(double secs)
{
	int n = BENCH_ATTACK_CONNS, fds[BENCH_ATTACK_CONNS], out[BENCH_ATTACK_CONNS];
	unsigned seq[BENCH_ATTACK_CONNS];
	bool silent = strcmp(O.attack, "silent") == 0, chal = strcmp(O.attack, "challenge") == 0;
	char line[256];
	static char buf[1 << 16];
	uint64_t end = uv_hrtime() + (uint64_t)(secs * 1e9);
	if (chal) { /* the accounts, one after another on one connection */
		int fd = attack_dial();
		for (int a = 0; fd >= 0 && a < BENCH_ATTACK_ACCOUNTS; a++) {
			snprintf(line, sizeof line, "{\"cmd\":\"register\",\"name\":\"spam-%d\","
				 "\"password\":\"attack-password\"}\n", a);
			attack_send(fd, line);
			if (read(fd, buf, sizeof buf) <= 0)
				break;
		}
		if (fd >= 0)
			close(fd);
	}
	for (int i = 0; i < n; i++) {
		fds[i] = attack_dial();
		out[i] = 0;
		seq[i] = 0;
		if (fds[i] < 0)
			continue;
		if (chal) {
			snprintf(line, sizeof line, "{\"cmd\":\"login\",\"name\":\"spam-%d\","
				 "\"password\":\"attack-password\"}\n", i % BENCH_ATTACK_ACCOUNTS);
			attack_send(fds[i], line);
			out[i]++;
		}
		fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
		if (silent)
			for (int k = 0; k < 4 * BENCH_ATTACK_DEPTH; k++) {
				attack_line(i, seq[i]++, line, sizeof line);
				attack_send(fds[i], line);
			}
	}
	while (uv_hrtime() < end) {
		if (silent) {
			usleep(100 * 1000);
			continue;
		}
		struct pollfd p[BENCH_ATTACK_CONNS];
		for (int i = 0; i < n; i++)
			p[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
		poll(p, (nfds_t)n, 50);
		for (int i = 0; i < n; i++) {
			if (fds[i] < 0)
				continue;
			if (p[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				ssize_t r = read(fds[i], buf, sizeof buf);
				if (r == 0 || (r < 0 && errno != EAGAIN)) {
					close(fds[i]);
					fds[i] = -1; /* cut off: the attacker does not come back */
					continue;
				}
				for (ssize_t k = 0; k < r; k++)
					out[i] -= buf[k] == '\n';
				if (out[i] < 0)
					out[i] = 0;
			}
			for (; out[i] < BENCH_ATTACK_DEPTH; out[i]++) {
				attack_line(i, seq[i]++, line, sizeof line);
				attack_send(fds[i], line);
			}
		}
	}
	_exit(0);
}

/* Start the attacker for the warm-up and the measured time (plus a second). */
void attack_start(void)
{
	if (strcmp(O.attack, "listing") == 0 || strcmp(O.attack, "silent") == 0) {
		if (!dbpath[0] || !O.spawn)
			die("--attack %s needs --spawn (it adds games to the database)", O.attack);
		char cmd[1024];
		snprintf(cmd, sizeof cmd,
			 "sqlite3 '%s' '.timeout 10000' \"WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL "
			 "SELECT i + 1 FROM k WHERE i < %d) INSERT INTO games (black_id, white_id, size, komi, "
			 "phase, result, reason, created_at, ended_at, rated) SELECT 1, 2, 19, 7.5, 'ended', "
			 "'B+R', 'resignation', 1e9, 1e9, 0 FROM k\"", dbpath, BENCH_ATTACK_GAMES);
		if (system(cmd) != 0)
			die("could not add games with sqlite3");
	}
	fflush(stdout);
	attack_pid = fork();
	if (attack_pid < 0)
		die("fork: %s", strerror(errno));
	if (attack_pid == 0)
		attack_run(O.warmup + O.duration + 1);
	fprintf(stderr, "load_bench: attack %s started (pid %d)\n", O.attack, (int)attack_pid);
}

void attack_stop(void)
{
	if (attack_pid <= 0)
		return;
	kill(attack_pid, SIGKILL);
	waitpid(attack_pid, NULL, 0);
	attack_pid = 0;
}

/* Start tengend on port 0 with the bench's settings; returns its port. */
int spawn_tengend(void)
{
	unlink(portfile);
	pid_t pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(logfile, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dup2(fd, 2);
			dup2(fd, 1);
			close(fd);
		}
		const char *argv[32 + BENCH_SERVER_ARGS] = {O.spawn, "--listen", "127.0.0.1:0", "--db", dbpath, "--port-file",
			portfile, "--pwhash-cost", attack_hashes() ? "interactive" : "fast",
			"--max-per-address", "1000000", "--max-connections", "1000000",
			"--log-level", O.log_level};
		int k = 15;
		if (!O.attack) {
			/* the bench's clients stand for many players at many addresses, but all come
			 * from 127.0.0.1: no per-address limits (an attack run keeps the defaults) */
			const char *many[] = {"--register-per-address", "1000000",
				"--login-fails-per-address", "1000000", "--address-units", BENCH_UNITS_MANY,
				"--login-hashing-per-address", "1000000"};
			for (size_t i = 0; i < sizeof many / sizeof many[0]; i++)
				argv[k++] = many[i];
		}
		static char http_pf[700];
		if (O.ws) { /* its port file is written before the TCP one */
			snprintf(http_pf, sizeof http_pf, "%s.http", portfile);
			argv[k++] = "--http";
			argv[k++] = "127.0.0.1:0";
			argv[k++] = "--http-port-file";
			argv[k++] = http_pf;
		}
		if (O.sync) {
			argv[k++] = "--sync";
			argv[k++] = O.sync;
		}
		if (O.loop_stats) {
			argv[k++] = "--loop-stats";
			argv[k++] = "1";
		}
		for (int i = 0; i < O.nserver_args; i++)
			argv[k++] = O.server_args[i];
		/* --create on a first start only: a restart must find the database it left. */
		if (access(dbpath, F_OK) != 0)
			argv[k++] = "--create";
		argv[k] = NULL;
		execv(O.spawn, (char *const *)argv);
		_exit(127);
	}
	server_pid = pid;
	for (int i = 0; i < BENCH_SPAWN_WAIT_MS; i++) {
		FILE *f = fopen(portfile, "r");
		if (f) {
			int port = 0;
			int n = fscanf(f, "%d", &port);
			fclose(f);
			if (n == 1 && port > 0 && O.ws) { /* the clients go to the HTTP port */
				char hp[700];
				snprintf(hp, sizeof hp, "%s.http", portfile);
				if (!(f = fopen(hp, "r")) || fscanf(f, "%d", &port) != 1)
					die("tengend wrote no HTTP port file");
				fclose(f);
				unlink(hp);
			}
			if (n == 1 && port > 0)
				return port;
		}
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid)
			die("tengend exited at start (see %s)", logfile);
		usleep(1000);
	}
	die("tengend did not write its port file");
	return -1;
}
