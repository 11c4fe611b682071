/* tengend: the tengen Go server daemon. */
#include "config.h"
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>
#include "accounts.h"
#include "dispatch.h"
#include "games.h"
#include "log.h"
#include "proxy.h"
#include "ratings.h"
#include "server.h"
#include "tcp.h"
#include "ws.h"

#define MAIN_MALLOC_TRIM_BYTES (64 << 20) /* free heap kept before trimming */
#define MAIN_MALLOC_MMAP_BYTES (4 << 20)  /* allocations above this get their own mapping */
#define MAIN_FD_RESERVE 64 /* descriptors beside the clients': the database, its WAL, shared
			    * memory and lock, the listening sockets, the loop's and the threads' */
#ifndef TENGEN_WEB_DIR
#define TENGEN_WEB_DIR "/usr/local/share/tengen/web"
#endif

/* The HTTP listener's settings (--http...; ws.h), off unless --http is given. */
static struct ws_settings http_set = {.web_root = TENGEN_WEB_DIR};

/* The options that take a whole number within bounds: the unit a refusal names and the
 * bounds, for parse_range and for --help, which prints this table (so the two agree). */
struct opt_range {
	const char *name, *unit;
	long lo, hi;
};
static const struct opt_range opt_ranges[] = {
	{"--min-free-mb", "MiB", 0, SERVER_MIN_FREE_MB_MAX},
	{"--restart-grace-s", "seconds", 0, SERVER_RESTART_GRACE_MAX_S},
	{"--counting-timeout-s", "seconds", 0, SERVER_COUNTING_TIMEOUT_MAX_S},
	{"--idle-timeout", "seconds", 0, SERVER_IDLE_TIMEOUT_MAX_S},
	{"--anon-idle-timeout", "seconds", 0, SERVER_ANON_IDLE_MAX_S},
	{"--keepalive-s", "seconds", 0, SERVER_KEEPALIVE_MAX_S},
	{"--max-observers", "a count", 0, SERVER_MAX_OBSERVERS_MAX},
	{"--writer-min", "a count", 0, SERVER_MAX_CONNECTIONS},
	{"--fold-rows", "a count", 1, SERVER_FOLD_ROWS_MAX},
	{"--fold-ms", "milliseconds", 1, SERVER_FOLD_MS_MAX},
	{"--backlog", "a count", 1, SERVER_BACKLOG_MAX},
	{"--loop-stats", "seconds", 0, LOOPSTAT_EVERY_MAX_S},
	{"--sync-test-delay-ms", "milliseconds", 0, SERVER_SYNC_TEST_DELAY_MAX_MS},
	{"--address-units", "a count", 1, SERVER_UNITS_MAX},
	{"--turn-units", "a count", 1, SERVER_UNITS_MAX},
	{"--register-per-address", "a count", 1, SERVER_UNITS_MAX},
	{"--login-fails-per-address", "a count", 1, SERVER_UNITS_MAX},
	{"--login-hashing-per-address", "a count", 1, SERVER_UNITS_MAX},
	{"--proxy-timeout-ms", "milliseconds", 1, SERVER_PROXY_TIMEOUT_MAX_MS},
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: tengend [--listen HOST:PORT] [--db PATH] [--log-level LEVEL] [options]\n"
		"       tengend grant NAME ROLE --db PATH     (ROLE: player, td or admin)\n"
		"       tengend init --db PATH                create a new database and exit\n"
		"\n"
		"  --listen HOST:PORT     address to serve (default %s:%d; port 0 picks a free one)\n"
		"  --db PATH              SQLite database (default %s); one tengend per database (PATH.lock)\n"
		"  --create               create the database if PATH does not exist or is empty (another\n"
		"                         program's database is refused); without it a missing or\n"
		"                         empty database is refused (first start only: not in a service unit)\n"
		"  --sync MODE            when a reply is sent: power-safe (default): after the change is on the\n"
		"                         disk (an fsync per committed loop iteration); power-safe-thread: the\n"
		"                         same, the fsync by a thread of its own while the loop goes on\n"
		"                         (docs/benchmarks.md: slower on the machine measured);\n"
		"                         lose-on-power-cut: after it is in the kernel's cache: kill -9 loses\n"
		"                         nothing, a power cut or a kernel crash may lose the last acknowledged\n"
		"                         moves (never corrupts)\n"
		"  --min-free-mb N        refuse to start with less than N MiB free beside the database\n"
		"                         (default %d; 0: no check)\n"
		"  --log-level LEVEL      error, warn, info (default) or debug; logs go to stderr\n"
		"  --port-file PATH       write the port actually bound to PATH\n"
		"  --max-connections N    connections at once (default %d)\n"
		"  --max-per-address N    connections from one address (default %d)\n"
		"  --max-queued BYTES     unsent bytes a client may leave before it is cut off (default %u)\n"
		"  --pwhash-cost fast     libsodium's minimum hashing cost (tests and benchmarks only)\n"
		"  --sync-test-delay-ms N power-safe-thread: wait N ms before each sync of the WAL (tests only)\n"
		"  --lag-allowance-ms N   most network lag credited to a move, measured by the server (default %d)\n"
		"  --restart-grace-s S    after a restart, the clock of the player to move waits up to S\n"
		"                         seconds for them to log in again (default %d; 0: it runs at once)\n"
		"  --counting-timeout-s S the counting phase's time for the dead-stone claims: then a\n"
		"                         player who has not claimed accepts the other's claim, or, neither\n"
		"                         having claimed, every stone counts alive (default %d; 0: no limit)\n"
		"  --idle-timeout S       close a connection holding a partial line and no complete line for S\n"
		"                         seconds (default %d; 0: never)\n"
		"  --anon-idle-timeout S  close a connection that is not logged in and observes no game\n"
		"                         after S seconds without a complete line (default %d; 0: never)\n"
		"  --keepalive-s S        TCP keepalive (TCP and WebSocket): probe a connection silent for S\n"
		"                         seconds, every %d s; %d unanswered probes close it, as do bytes\n"
		"                         unacknowledged as long (TCP_USER_TIMEOUT) (default %d; 0: off)\n"
		"  --max-observers N      connections observing one game, its players' not counted; more\n"
		"                         get rate_limited (default %d; 0: no limit)\n"
		"  --writer-min N         from N connections with output in one loop iteration, an output\n"
		"                         thread writes them (default %d; 0: always on the loop)\n"
		"  --fold-rows N          moves written to the journal that start a fold into the moves\n"
		"                         table (default %d; or when the oldest is --fold-ms N old)\n"
		"  --fold-ms N            ... (default %d ms)\n"
		"  --backlog N            the listen queue's length (default: the system's maximum,\n"
		"                         /proc/sys/net/core/somaxconn, else SOMAXCONN)\n"
		"  --loop-stats S         log the loop's stall figures (a `loop` line) every S seconds\n"
		"                         (default 0: never; docs/benchmarks.md)\n"
		"  --version, --help\n",
		SERVER_DEFAULT_HOST, SERVER_DEFAULT_PORT, SERVER_DEFAULT_DB, SERVER_MIN_FREE_MB,
		SERVER_MAX_CONNECTIONS,
		SERVER_MAX_PER_ADDRESS, SERVER_MAX_QUEUED_BYTES, SERVER_LAG_ALLOWANCE_MS,
		SERVER_RESTART_GRACE_S, SERVER_COUNTING_TIMEOUT_S,
		SERVER_IDLE_TIMEOUT_S, SERVER_ANON_IDLE_S, SERVER_KEEPALIVE_INTERVAL_S,
		SERVER_KEEPALIVE_PROBES, SERVER_KEEPALIVE_S, SERVER_MAX_OBSERVERS, SERVER_WRITER_MIN,
		SERVER_FOLD_ROWS, SERVER_FOLD_MS);
	fprintf(f,
		"fairness under hostile load (docs/deploy.md):\n"
		"  --max-queued-per-address BYTES  unsent bytes of all connections from one address before\n"
		"                         the one adding more is cut off (default %u)\n"
		"  --address-units N      work per address per loop turn (default %d; a unit is %d us of the\n"
		"                         loop or %d bytes of reply; %d per connection)\n"
		"  --turn-units N         work per loop turn, all addresses (default %d)\n"
		"  --register-per-address N  registrations from one address per %d s (default %d)\n"
		"  --login-fails-per-address N  failed logins from one address per %d s (default %d;\n"
		"                         %d per name from one address)\n"
		"  --login-hashing-per-address N  logins from one address whose password is checked at\n"
		"                         once; more wait their turn (default %d)\n",
		SERVER_MAX_QUEUED_PER_ADDRESS, SERVER_ADDR_UNITS, SERVER_UNIT_US, SERVER_UNIT_BYTES,
		SERVER_CONN_UNITS, SERVER_TURN_UNITS, SERVER_REGISTER_WINDOW_S,
		SERVER_REGISTER_PER_ADDRESS, SERVER_LOGIN_WINDOW_S, SERVER_LOGIN_ADDR_FAILS,
		SERVER_LOGIN_FAILS, SERVER_LOGIN_HASHING_PER_ADDRESS);
	fprintf(f,
		"behind a TLS-terminating proxy (docs/deploy.md):\n"
		"  --proxy-protocol       connections from --proxy-from begin with a PROXY protocol header\n"
		"                         (v1 or v2, HAProxy's spec): the limits per address count the client\n"
		"                         it names; without a valid one within the timeout they are closed\n"
		"  --proxy-from ADDR[,ADDR...]  the proxies' addresses (default %s; at most %d); others\n"
		"                         connect directly\n"
		"  --proxy-timeout-ms N   a proxy's header arrives within N ms (default %d)\n",
		PROXY_FROM_DEFAULT, PROXY_FROM_MAX, SERVER_PROXY_TIMEOUT_MS);
	fprintf(f,
		"web pages and WebSocket (docs/protocol.md, Web; docs/deploy.md):\n"
		"  --http HOST:PORT       serve HTTP (pages, GET /ws) there too (default: off)\n"
		"  --web-root DIR         the pages' folder (default %s)\n"
		"  --http-origin LIST     origins allowed to open /ws, comma-separated (default: the\n"
		"                         page's own origin only)\n"
		"  --http-port-file PATH  write the HTTP port actually bound to PATH\n"
		"  --http-proxy-from ADDR[,ADDR...]  proxies whose X-Forwarded-For names the client\n"
		"  --max-http-per-address N  HTTP connections from one address before their WebSocket\n"
		"                         upgrade, or without one (default %d; not for --http-proxy-from);\n"
		"                         all of them count in --max-connections\n"
		"  --max-http-connections N  all those HTTP connections (default: 1/%d of\n"
		"                         --max-connections)\n",
		TENGEN_WEB_DIR, SERVER_MAX_HTTP_PER_ADDRESS, SERVER_HTTP_SHARE);
	fprintf(f, "whole numbers within bounds (one outside them is refused):\n");
	for (size_t i = 0; i < sizeof opt_ranges / sizeof *opt_ranges; i++) {
		const struct opt_range *o = &opt_ranges[i];
		bool count = strcmp(o->unit, "a count") == 0;
		fprintf(f, "  %-30s %ld to %ld%s%s\n", o->name, o->lo, o->hi, count ? "" : " ",
			count ? "" : o->unit);
	}
}

static int parse_listen(const char *s, struct server_settings *set, char *host, size_t n);

/* An HTTP option (o: --http 'H', --web-root 'r', --http-origin 'o', --http-port-file 'y',
 * --http-proxy-from 'x') into http_set. Returns -1 to go on, or 2 for a bad value (said). */
static int parse_http_option(int o, const char *arg)
{
	static char host[256];
	struct server_settings hs = {0};
	struct proxy_from from;
	switch (o) {
	case 'H':
		if (parse_listen(arg, &hs, host, sizeof host) < 0) {
			fprintf(stderr, "tengend: --http takes HOST:PORT, not '%s'\n", arg);
			return 2;
		}
		http_set.host = hs.host;
		http_set.port = hs.port;
		break;
	case 'r': http_set.web_root = arg; break;
	case 'o':
		if (ws_origins_check(arg) < 0) {
			fprintf(stderr, "tengend: --http-origin takes up to %d origins separated by "
				"commas (scheme://host[:port]), not '%s'\n", WS_ORIGINS_MAX, arg);
			return 2;
		}
		http_set.origins = arg;
		break;
	case 'y': http_set.port_file = arg; break;
	default:
		if (proxy_from_parse(arg, &from) < 0) {
			fprintf(stderr, "tengend: --http-proxy-from takes up to %d IP addresses "
				"separated by commas, not '%s'\n", PROXY_FROM_MAX, arg);
			return 2;
		}
		http_set.proxy_from = arg;
		break;
	}
	return -1;
}

static int parse_listen(const char *s, struct server_settings *set, char *host, size_t n)
{
	const char *colon = strrchr(s, ':');
	if (!colon || colon == s || (size_t)(colon - s) >= n)
		return -1;
	char *end;
	long port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535 || end == colon + 1)
		return -1;
	memcpy(host, s, (size_t)(colon - s));
	host[colon - s] = '\0';
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = '\0';
	}
	set->host = host;
	set->port = (int)port;
	return 0;
}

static long parse_count(const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || v <= 0) {
		fprintf(stderr, "tengend: %s must be a positive number, not '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* A whole number within option `what`'s bounds (opt_ranges), or exit 2 naming them. */
static long parse_range(const char *s, const char *what)
{
	const struct opt_range *o = NULL;
	for (size_t i = 0; i < sizeof opt_ranges / sizeof *opt_ranges && !o; i++)
		if (strcmp(opt_ranges[i].name, what) == 0)
			o = &opt_ranges[i];
	if (!o)
		abort(); /* an option parsed as a range without its row: a build error in effect */
	char *end;
	long v = strtol(s, &end, 10);
	if (*end || end == s || v < o->lo || v > o->hi) {
		fprintf(stderr, "tengend: %s takes %s from %ld to %ld\n", what, o->unit, o->lo, o->hi);
		exit(2);
	}
	return v;
}

/* `tengend grant NAME ROLE --db PATH`: change a role offline. */
static int grant(int argc, char **argv)
{
	const char *db = SERVER_DEFAULT_DB, *name = NULL, *role = NULL;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--db") == 0 && i + 1 < argc)
			db = argv[++i];
		else if (!name)
			name = argv[i];
		else if (!role)
			role = argv[i];
		else {
			usage(stderr);
			return 2;
		}
	}
	enum proto_role r;
	if (!name || !role || proto_role_parse(role, &r) < 0) {
		fprintf(stderr, "tengend: grant NAME ROLE --db PATH, with ROLE player, td or admin\n");
		return 2;
	}
	struct store *st;
	char err[STORE_ERR_MAX];
	/* Beside a running daemon (no lock taken: SQLite's locks share the file); never creates. */
	struct store_options so = {.create = false};
	enum store_rc orc = store_open_ex(db, &so, &st, err, sizeof err);
	if (orc == STORE_NOT_FOUND) {
		fprintf(stderr, "tengend: %s (give the server's --db PATH)\n", err);
		return 1;
	}
	if (orc != STORE_OK) {
		fprintf(stderr, "tengend: %s: %s\n", db, err);
		return 1;
	}
	enum store_rc rc = store_player_set_role(st, name, role);
	if (rc == STORE_NOT_FOUND)
		fprintf(stderr, "tengend: no player named '%s'\n", name);
	else if (rc != STORE_OK)
		fprintf(stderr, "tengend: %s\n", store_errmsg(st));
	else { /* the name as stored (names are case-insensitive: CAROL is carol) */
		struct store_player p;
		printf("%s is now %s\n", store_player_by_name(st, name, &p) == STORE_OK ? p.name : name,
		       role);
	}
	store_close(st);
	return rc == STORE_OK ? 0 : 1;
}

/* `tengend init --db PATH`: create the database (the schema applied) for a first start, or
 * say that one is there already (left as it is, but brought to this tengend's schema). */
static int init(int argc, char **argv)
{
	const char *db = SERVER_DEFAULT_DB;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--db") == 0 && i + 1 < argc) {
			db = argv[++i];
		} else {
			fprintf(stderr, "tengend: init --db PATH\n");
			return 2;
		}
	}
	struct stat sb; /* an empty file is made into a database, as a missing one */
	bool existed = stat(db, &sb) == 0 && sb.st_size > 0;
	struct store_options so = {.create = true, .write_check = true,
		.min_free_bytes = (uint64_t)SERVER_MIN_FREE_MB << 20};
	struct store *st;
	char err[STORE_ERR_MAX];
	if (store_open_ex(db, &so, &st, err, sizeof err) != STORE_OK) {
		fprintf(stderr, "tengend: %s\n", err);
		return 1;
	}
	store_close(st);
	printf("%s: %s (schema version %d)\n", db, existed ? "a tengen database is there already"
	       : "new tengen database", store_schema_version());
	return 0;
}

/* The PROXY protocol's options (o: --proxy-from 'f', --proxy-timeout-ms 'O') into *set.
 * Returns -1 to go on, or 2 for a bad value (said on stderr). */
static int parse_proxy_option(int o, const char *arg, struct server_settings *set)
{
	struct proxy_from from;
	if (o == 'f') {
		if (proxy_from_parse(arg, &from) < 0) {
			fprintf(stderr, "tengend: --proxy-from takes up to %d IP addresses separated by "
				"commas, not '%s'\n", PROXY_FROM_MAX, arg);
			return 2;
		}
		set->proxy_from = arg;
	} else {
		set->proxy_timeout_ms = (unsigned)parse_range(arg, "--proxy-timeout-ms");
	}
	return -1;
}

/* --max-connections was on the command line (fd_limit warns only then) */
static bool max_connections_given;

/* The daemon's options into *set (`host` of n bytes holds --listen's host). Returns -1 to go
 * on, or the status to exit with (0 after --version or --help, 2 for a bad option). */
static int parse_options(int argc, char **argv, struct server_settings *set, char *host, size_t n)
{
	static const struct option opts[] = {
		{"listen", required_argument, NULL, 'l'}, {"db", required_argument, NULL, 'd'},
		{"log-level", required_argument, NULL, 'L'}, {"port-file", required_argument, NULL, 'p'},
		{"max-connections", required_argument, NULL, 'c'},
		{"max-per-address", required_argument, NULL, 'a'},
		{"max-queued", required_argument, NULL, 'q'},
		{"pwhash-cost", required_argument, NULL, 'w'},
		{"lag-allowance-ms", required_argument, NULL, 'g'},
		{"restart-grace-s", required_argument, NULL, 'G'},
		{"counting-timeout-s", required_argument, NULL, 'k'},
		{"idle-timeout", required_argument, NULL, 'i'},
		{"anon-idle-timeout", required_argument, NULL, 'n'},
		{"keepalive-s", required_argument, NULL, 'e'},
		{"max-observers", required_argument, NULL, 'b'},
		{"writer-min", required_argument, NULL, 'W'},
		{"fold-rows", required_argument, NULL, 'F'},
		{"backlog", required_argument, NULL, 'B'},
		{"fold-ms", required_argument, NULL, 'm'},
		{"loop-stats", required_argument, NULL, 'K'},
		{"sync-test-delay-ms", required_argument, NULL, 'Y'},
		{"create", no_argument, NULL, 'C'}, {"sync", required_argument, NULL, 'S'},
		{"min-free-mb", required_argument, NULL, 'M'},
		{"max-queued-per-address", required_argument, NULL, 'Q'},
		{"address-units", required_argument, NULL, 'U'}, {"turn-units", required_argument, NULL, 'T'},
		{"register-per-address", required_argument, NULL, 'R'},
		{"login-fails-per-address", required_argument, NULL, 'X'},
		{"login-hashing-per-address", required_argument, NULL, 'Z'},
		{"proxy-protocol", no_argument, NULL, 'P'}, {"proxy-from", required_argument, NULL, 'f'},
		{"proxy-timeout-ms", required_argument, NULL, 'O'},
		{"http", required_argument, NULL, 'H'}, {"web-root", required_argument, NULL, 'r'},
		{"http-origin", required_argument, NULL, 'o'},
		{"http-port-file", required_argument, NULL, 'y'},
		{"http-proxy-from", required_argument, NULL, 'x'},
		{"max-http-per-address", required_argument, NULL, 'A'},
		{"max-http-connections", required_argument, NULL, 'N'},
		{"version", no_argument, NULL, 'V'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	int o;
	enum log_level level;
	bool proxy_opts = false;
	while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (o) {
		case 'l':
			if (parse_listen(optarg, set, host, n) < 0) {
				fprintf(stderr, "tengend: --listen takes HOST:PORT, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'd': set->db_path = optarg; break;
		case 'L':
			if (log_parse_level(optarg, &level) < 0) {
				fprintf(stderr, "tengend: --log-level takes error, warn, info or debug\n");
				return 2;
			}
			log_set_level(level);
			break;
		case 'p': set->port_file = optarg; break;
		case 'c':
			set->max_connections = (unsigned)parse_count(optarg, "--max-connections");
			max_connections_given = true;
			break;
		case 'a': set->max_per_address = (unsigned)parse_count(optarg, "--max-per-address"); break;
		case 'A':
			set->max_http_per_address = (unsigned)parse_count(optarg, "--max-http-per-address");
			break;
		case 'N': set->max_http = (unsigned)parse_count(optarg, "--max-http-connections"); break;
		case 'q': set->max_queued = (size_t)parse_count(optarg, "--max-queued"); break;
		case 'w':
			if (strcmp(optarg, "fast") != 0 && strcmp(optarg, "interactive") != 0) {
				fprintf(stderr, "tengend: --pwhash-cost takes fast or interactive\n");
				return 2;
			}
			set->pwhash_fast = strcmp(optarg, "fast") == 0;
			break;
		case 'g': set->lag_allowance_ms = parse_count(optarg, "--lag-allowance-ms"); break;
		case 'G':
			set->restart_grace_s = (unsigned)parse_range(optarg, "--restart-grace-s");
			break;
		case 'k':
			set->counting_timeout_s = (unsigned)parse_range(optarg, "--counting-timeout-s");
			break;
		case 'i':
			set->idle_timeout_s = (unsigned)parse_range(optarg, "--idle-timeout");
			break;
		case 'n':
			set->anon_idle_s = (unsigned)parse_range(optarg, "--anon-idle-timeout");
			break;
		case 'e':
			set->keepalive_s = (unsigned)parse_range(optarg, "--keepalive-s");
			break;
		case 'b':
			set->max_observers = (size_t)parse_range(optarg, "--max-observers");
			break;
		case 'W':
			set->writer_min = (unsigned)parse_range(optarg, "--writer-min");
			break;
		case 'F':
			set->fold_rows = (unsigned)parse_range(optarg, "--fold-rows");
			break;
		case 'm':
			set->fold_ms = (unsigned)parse_range(optarg, "--fold-ms");
			break;
		case 'B':
			set->backlog = (int)parse_range(optarg, "--backlog");
			break;
		case 'Y':
			set->sync_test_delay_ms = (unsigned)parse_range(optarg, "--sync-test-delay-ms");
			break;
		case 'K':
			set->loop_stats_s = (unsigned)parse_range(optarg, "--loop-stats");
			break;
		case 'C': set->store.create = true; break;
		case 'S':
			set->sync_thread = strcmp(optarg, "power-safe-thread") == 0;
			if (strcmp(optarg, "power-safe") == 0 || set->sync_thread)
				set->store.sync = STORE_SYNC_POWER_SAFE;
			else if (strcmp(optarg, "lose-on-power-cut") == 0)
				set->store.sync = STORE_SYNC_LOSE_ON_POWER_CUT;
			else {
				fprintf(stderr, "tengend: --sync takes power-safe, power-safe-thread or "
					"lose-on-power-cut\n");
				return 2;
			}
			break;
		case 'M':
			set->store.min_free_bytes = (uint64_t)parse_range(optarg, "--min-free-mb") << 20;
			break;
		case 'Q': set->max_queued_per_address = (size_t)parse_count(optarg, "--max-queued-per-address"); break;
		case 'U': set->address_units = (unsigned)parse_range(optarg, "--address-units"); break;
		case 'T': set->turn_units = (unsigned)parse_range(optarg, "--turn-units"); break;
		case 'R': set->register_per_address = (unsigned)parse_range(optarg, "--register-per-address"); break;
		case 'X': set->login_fails_per_address = (unsigned)parse_range(optarg, "--login-fails-per-address"); break;
		case 'Z': set->login_hashing_per_address = (unsigned)parse_range(optarg, "--login-hashing-per-address"); break;
		case 'P': set->proxy_protocol = true; break;
		case 'f': case 'O':
			if (parse_proxy_option(o, optarg, set) >= 0)
				return 2;
			proxy_opts = true;
			break;
		case 'H': case 'r': case 'o': case 'y': case 'x':
			if (parse_http_option(o, optarg) >= 0)
				return 2;
			break;
		case 'V': printf("tengend %s (protocol %d)\n", PACKAGE_VERSION, PROTO_VERSION); return 0;
		case 'h': usage(stdout); return 0;
		default: /* getopt_long said which option */
			fprintf(stderr, "tengend: tengend --help lists the options\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "tengend: unexpected argument '%s' (tengend --help lists the options)\n",
			argv[optind]);
		return 2;
	}
	if (proxy_opts && !set->proxy_protocol) {
		fprintf(stderr, "tengend: --proxy-from and --proxy-timeout-ms need --proxy-protocol\n");
		return 2;
	}
	return -1;
}

/* server_stop's hook for the live games (after the transport's). */
static void stop_games(void *ctx)
{
	games_stop(ctx);
}

static void keep_turns(void *ctx)
{
	games_keep_turns(ctx);
}

/* Open the store, load the live games, wire the layers (lines from the transport to the
 * dispatcher, the flush after each commit, the stop order: the transport, then the games)
 * and listen. Returns 0, or -1 (logged; the loop still runs what must close). */
static int run_start(struct server *srv, uv_loop_t *loop, const struct server_settings *set,
		     struct tcp_server *tcp, struct ws_server *ws, struct dispatch *disp)
{
	if (server_open(srv, loop, set) < 0)
		return -1;
	if (games_load(srv) < 0) {
		games_stop(srv); /* the games loaded so far: no timer may fire without a store */
		return -1;
	}
	server_set_line(srv, dispatch_line, disp);
	server_set_conn_gone(srv, games_conn_gone);
	server_add_flush(srv, tcp_flush, tcp);
	server_add_stop(srv, tcp_stop, tcp);
	if (http_set.host) {
		server_add_flush(srv, ws_flush, ws);
		server_add_stop(srv, ws_stop, ws);
	}
	server_add_stop(srv, stop_games, srv);
	server_set_last_writes(srv, keep_turns, srv);
	server_start(srv);
	/* HTTP first: the TCP port file, which tests wait for, says that both listen. */
	if ((http_set.host && ws_listen(ws, srv, &http_set) < 0) || tcp_listen(tcp, srv) < 0) {
		server_stop(srv);
		return -1;
	}
	return 0;
}

/* Descriptors for --max-connections clients: raise the soft RLIMIT_NOFILE up to the hard one
 * if it is lower than max_connections + MAIN_FD_RESERVE; if even the hard one is, lower
 * max_connections to fit and say so: a warning on stderr and in the log if --max-connections
 * was given, else (the default, SERVER_MAX_CONNECTIONS, lowered) a line in the log at info,
 * not a warning for a setting nobody made. Past the
 * descriptors, the kernel's accept fails and libuv drops the connection without a word; past
 * max_connections a client is told "too many connections". */
static void fd_limit(struct server_settings *set)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	rlim_t want = (rlim_t)set->max_connections + MAIN_FD_RESERVE;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
		struct rlimit up = rl;
		up.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ? want : rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl.rlim_cur = up.rlim_cur;
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return;
	unsigned fit = rl.rlim_cur > 2 * MAIN_FD_RESERVE ? (unsigned)(rl.rlim_cur - MAIN_FD_RESERVE)
						     : (unsigned)(rl.rlim_cur / 2);
	log_msg(max_connections_given ? LOGL_WARN : LOGL_INFO, "fd_limit",
		"nofile=%llu max_connections=%u lowered_to=%u%s", (unsigned long long)rl.rlim_cur,
		set->max_connections, fit, max_connections_given ? "" : " default=1");
	if (max_connections_given)
		fprintf(stderr, "tengend: warning: the open-file limit is %llu: --max-connections %u "
				"lowered to %u (raise it: ulimit -n, or LimitNOFILE= in a systemd unit)\n",
			(unsigned long long)rl.rlim_cur, set->max_connections, fit);
	set->max_connections = fit;
}

int main(int argc, char **argv)
{
	struct server_settings set = {
		.host = SERVER_DEFAULT_HOST, .port = SERVER_DEFAULT_PORT, .db_path = SERVER_DEFAULT_DB,
		.max_connections = SERVER_MAX_CONNECTIONS, .max_per_address = SERVER_MAX_PER_ADDRESS,
		.max_queued = SERVER_MAX_QUEUED_BYTES, .lag_allowance_ms = SERVER_LAG_ALLOWANCE_MS,
		.restart_grace_s = SERVER_RESTART_GRACE_S, .counting_timeout_s = SERVER_COUNTING_TIMEOUT_S,
		.idle_timeout_s = SERVER_IDLE_TIMEOUT_S, .anon_idle_s = SERVER_ANON_IDLE_S,
		.keepalive_s = SERVER_KEEPALIVE_S, .max_observers = SERVER_MAX_OBSERVERS,
		.writer_min = SERVER_WRITER_MIN,
		.fold_rows = SERVER_FOLD_ROWS, .proxy_timeout_ms = SERVER_PROXY_TIMEOUT_MS,
		.store = {.min_free_bytes = (uint64_t)SERVER_MIN_FREE_MB << 20}};
	static char host[256];
	if (sodium_init() < 0) {
		fprintf(stderr, "tengend: libsodium failed to initialise\n");
		return 1;
	}
	if (argc > 1 && strcmp(argv[1], "grant") == 0)
		return grant(argc, argv);
	if (argc > 1 && strcmp(argv[1], "init") == 0)
		return init(argc, argv);
	int pc = parse_options(argc, argv, &set, host, sizeof host);
	if (pc >= 0)
		return pc;
	signal(SIGPIPE, SIG_IGN);
	fd_limit(&set);
	/* Keep freed heap instead of giving it back each iteration: the per-move buffers otherwise
	 * make glibc grow and trim the heap (brk, munmap, page faults) all the time. */
	mallopt(M_TRIM_THRESHOLD, MAIN_MALLOC_TRIM_BYTES);
	mallopt(M_MMAP_THRESHOLD, MAIN_MALLOC_MMAP_BYTES);
	/* One daemon per database: a second one would acknowledge other moves into the same games. */
	char err[STORE_ERR_MAX];
	int lock_fd;
	long holder;
	if (store_lock(set.db_path, &lock_fd, &holder, err, sizeof err) != STORE_OK) {
		log_msg(LOGL_ERROR, "store_lock", "path=%s pid=%ld error=\"%s\"", set.db_path, holder,
			err);
		fprintf(stderr, "tengend: %s\n", err);
		return 1;
	}
	uv_loop_t loop;
	uv_loop_init(&loop);
	struct server srv;
	static struct tcp_server tcp;
	static struct ws_server ws;
	static struct dispatch disp;
	int rc = 0;
	games_set_hooks(&(struct games_hooks){ratings_game_ended, ratings_player_brief});
	if (run_start(&srv, &loop, &set, &tcp, &ws, &disp) < 0)
		rc = 1;
	else if (store_lock_inode(set.db_path, err, sizeof err) != STORE_OK) {
		/* a database this start created: its inode is new, so nobody else holds it */
		log_msg(LOGL_ERROR, "store_lock", "path=%s error=\"%s\"", set.db_path, err);
		fprintf(stderr, "tengend: %s\n", err);
		server_stop(&srv);
		rc = 1;
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	if (tcp_after_loop(&tcp))
		uv_run(&loop, UV_RUN_DEFAULT);
	ws_free(&ws);
	uv_run(&loop, UV_RUN_DEFAULT); /* what lws closed last */
	/* The layers above core first (games before the store closes; queued registrations hold
	 * connections, which hold their address's counters). */
	games_free(&srv);
	accounts_free(&srv);
	dispatch_free(&disp);
	server_free(&srv);
	store_unlock(lock_fd);
	int lc = uv_loop_close(&loop);
	if (lc != 0) {
		log_msg(LOGL_ERROR, "loop_close", "error=\"%s\"", uv_strerror(lc));
		rc = 1;
	}
	log_msg(LOGL_INFO, "stopped", "status=%d", rc);
	return rc;
}
