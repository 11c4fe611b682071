/* server: the daemon's state, the iteration's transaction, group commit, sending and sessions.
 *
 * Flow: a transport (transport/tcp.c) reads bytes into a connection's framing; conn.c hands
 * each complete line to the line sink main.c set (cmd/dispatch.c), which parses it (proto),
 * checks login and role against the command table and calls the command's handler. Handlers
 * write to the store inside the iteration's transaction (opened on first write by server_txn)
 * and queue their reply and events on connections (server_send). Once per loop iteration (a
 * uv_prepare handle, before the loop waits for I/O) the transaction commits and only then are
 * queued bytes written (the flush hook the transport set), so no reply or event reports a
 * change before it is durable.
 *
 * Calls only point down (tests/unit/layering.sh); what core needs from the layers above (the line
 * sink, the flush, what a stop must close, a connection leaving its session) goes through
 * hooks that main.c sets.
 */
#ifndef TENGEN_SERVER_H
#define TENGEN_SERVER_H

#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <uv.h>
#include <jansson.h>
#include "framing.h"
#include "idmap.h"
#include "proto.h"
#include "store.h"
#include "loopstat.h"
#include "upkeep.h"

#define SERVER_VERSION PACKAGE_VERSION
#define SERVER_DEFAULT_HOST "127.0.0.1"
#define SERVER_DEFAULT_PORT 6970
#define SERVER_DEFAULT_DB "./tengen.db"

/* Settings (defaults; each is a command-line option of tengend). */
#define SERVER_MAX_CONNECTIONS 20000      /* --max-connections */
#define SERVER_MAX_PER_ADDRESS 64         /* --max-per-address: connections from one address */
#define SERVER_MAX_HTTP_PER_ADDRESS 64    /* --max-http-per-address: HTTP connections on --http
                                             from one address before (or without) a WebSocket
                                             upgrade (a browser opens up to 6 for a page) */
#define SERVER_HTTP_SHARE 4               /* --max-http-connections: all those together, by
                                             default 1/SHARE of --max-connections (the rest
                                             stays the protocol's; libwebsockets' work per
                                             event grows with them: docs/deploy.md) */
#define SERVER_PROXY_TIMEOUT_MS 5000      /* --proxy-timeout-ms: a listed proxy's connection
                                             without its PROXY header after this is closed */
#define SERVER_PROXY_TIMEOUT_MAX_MS 600000 /* ... at most */
#define SERVER_PROXY_PENDING_MAX 1024     /* a proxy's connections waiting for their header, at
                                             most (they are not in its --max-per-address count:
                                             a burst of clients reconnecting through it) */
#define SERVER_PROXY_SWEEP_MS 250         /* how often those are checked for the timeout */
#define SERVER_MAX_QUEUED_BYTES (8u << 20) /* --max-queued: unsent bytes before a cut-off */
#define SERVER_MAX_QUEUED_PER_ADDRESS (32u << 20) /* --max-queued-per-address: unsent bytes of
                                             all connections from one address; past it the
                                             connection adding more is cut off */
#define SERVER_QUEUED_SOFT (256u << 20) /* unsent bytes of all connections past which ... */
#define SERVER_CONN_BACKPRESSURE_LOW (16u << 10) /* ... a connection's requests wait past this
                                             instead of SERVER_CONN_BACKPRESSURE (6,000
                                             connections that did not read held 2 GB) */
#define SERVER_CONN_BACKPRESSURE (256u << 10) /* unsent bytes of a connection past which its
                                             further requests wait (unread, not answered)
                                             until they are down to half of it: a client that
                                             does not read costs neither the loop's time nor
                                             memory beyond this and one reply */
/* The work of one loop turn (from one commit and flush to the next) is counted in units: a
 * request costs one unit per SERVER_UNIT_US of the loop's time it took (measured) plus one per
 * SERVER_UNIT_BYTES of reply it queued, at least one. A connection, an address and the turn
 * each have a budget; a request starts only while all three have some left (so a turn overruns
 * a budget by one request at most), the rest waits for the next turn, after the commit and
 * the replies. */
#define SERVER_UNIT_US 50                 /* one unit per this much handling time */
#define SERVER_UNIT_BYTES 4096            /* ... and per this much reply */
#define SERVER_CONN_UNITS 16              /* per connection per turn */
#define SERVER_ADDR_UNITS 256             /* --address-units: per address per turn */
#define SERVER_TURN_UNITS 512             /* --turn-units: per turn, all connections (2048
                                             made turns of 60-100 ms under a flood of big
                                             requests, and every other client waited that long;
                                             512 costs no throughput: docs/deploy.md) */
#define SERVER_LIGHT_UNITS 2              /* a request of at most this many units (a move, a
                                             ping, a clock query) is light: connections whose
                                             last request was light are served first from
                                             the backlog, so a heavy client's queued listings
                                             do not delay another's move by whole turns */
#define SERVER_UNITS_MAX 1000000          /* ... at most (a setting) */
#define SERVER_LOGIN_FAILS 5              /* failed logins per name and address per window */
#define SERVER_LOGIN_ADDR_FAILS 100       /* --login-fails-per-address: per address per window */
#define SERVER_LOGIN_WINDOW_S 60          /* ...before `rate_limited` for this long */
#define SERVER_LOGIN_HASHING_PER_ADDRESS 2 /* --login-hashing-per-address: logins of one address
                                             on the hashing pool at once; more wait their turn */
#define SERVER_REGISTER_PER_ADDRESS 40    /* --register-per-address: registrations per window */
#define SERVER_REGISTER_WINDOW_S 600      /* ... of this long, from one address */
#define SERVER_REGISTER_THREADS 1         /* hashing threads registrations use at once (the rest
                                             of the pool is the logins') */
#define SERVER_REGISTER_QUEUE_MAX 256     /* registrations waiting for that thread, at most */
#define SERVER_PWHASH_NICE 10             /* the hashing threads' nice (the loop's is 0) */
#define SERVER_HOST_BUCKETS 1024          /* hash buckets of the per-address table */
#define SERVER_GAMES_LIMIT 100            /* default and ... */
#define SERVER_GAMES_LIMIT_MAX 1000       /* ... largest `limit` of the games listing */
#define SERVER_READ_BUFFER 65536          /* bytes per read */
#define SERVER_OUT_START 512              /* first output buffer of a connection (doubles as needed) */
#define SERVER_OUT_KEEP 4096              /* a connection keeps an output buffer up to this size */
#define SERVER_WRITER_MIN 16              /* --writer-min: connections with output in one iteration
                                             that go to the writer thread (fewer: the loop) */
#define SERVER_LAG_ALLOWANCE_MS 300       /* --lag-allowance-ms */
#define SERVER_RESTART_GRACE_S 30         /* --restart-grace-s: after a restart, the clock of the
                                             player to move waits this long for them to log in */
#define SERVER_RESTART_GRACE_MAX_S 3600   /* ... at most an hour */
#define SERVER_COUNTING_TIMEOUT_S 300     /* --counting-timeout-s: the counting phase's time for
                                             the dead-stone claims; then a missing claim accepts
                                             the other's (referee_count_lapse; 0: no limit) */
#define SERVER_COUNTING_TIMEOUT_MAX_S 86400 /* ... at most a day */
#define SERVER_IDLE_TIMEOUT_S 300         /* --idle-timeout: a partial line with no complete line */
#define SERVER_IDLE_TIMEOUT_MAX_S 86400   /* ... at most a day */
#define SERVER_ANON_IDLE_S 600            /* --anon-idle-timeout: a connection neither logged in nor
                                             observing a game, without a complete line */
#define SERVER_ANON_IDLE_MAX_S 86400      /* ... at most a day */
#define SERVER_IDLE_SWEEP_MS 1000         /* how often connections are checked for them */
#define SERVER_KEEPALIVE_S 60             /* --keepalive-s: TCP keepalive probes after this long
                                             without traffic, to find peers gone without a word */
#define SERVER_KEEPALIVE_MAX_S 7200       /* ... at most two hours (the kernel's own default) */
#define SERVER_KEEPALIVE_INTERVAL_S 10    /* ... then one probe every 10 s */
#define SERVER_KEEPALIVE_PROBES 6         /* ... and 6 unanswered probes drop the connection */
#define SERVER_MAX_OBSERVERS 2000         /* --max-observers: connections observing one game (each
                                             move is written to every one of them) */
#define SERVER_MAX_OBSERVERS_MAX 1000000  /* ... at most */
#define SERVER_SHUTDOWN_GRACE_MS 2000     /* after SIGTERM, time for replies to drain */
#define SERVER_CKPT_FRAMES 256            /* WAL frames added that start a checkpoint off the loop */
#define SERVER_WAL_MAX_FRAMES 131072      /* WAL frames past which the loop checkpoints itself */
#define SERVER_LOOP_CKPT_FRAMES 16384     /* ... once per this many more */
#define SERVER_SYNC_TEST_DELAY_MAX_MS 10000 /* --sync-test-delay-ms: at most */
#define SERVER_WAL_PATH_MAX (PATH_MAX + 16) /* the WAL file's path (the database's + "-wal") */
#define SERVER_FOLD_ROWS 131072           /* --fold-rows: moves in the journal that start a fold */
#define SERVER_FOLD_ROWS_MAX 1000000      /* ... at most */
#define SERVER_FOLD_MS 30000              /* --fold-ms: ... or the age of the journal's oldest move */
#define SERVER_FOLD_MS_MAX 600000         /* ... at most */
#define SERVER_FOLD_RETRY_MS 2000         /* after a failed fold, the first wait before a retry */
#define SERVER_FOLD_RETRY_MAX_MS 600000   /* ... doubled after each failure, at most this */
/* The upkeep thread (upkeep.h, issue 22) folds in slices, each a transaction holding the write
 * lock (the loop's next BEGIN waits for it): a slice's rows double while slices take under
 * half of SERVER_FOLD_SLICE_US (and work is left) and are cut in proportion when one takes
 * more (upkeep_slice_rows), within these bounds, from SERVER_FOLD_SLICE_ROWS at each of the
 * fold's two steps; after a slice the thread waits SERVER_FOLD_REST times as long as it took:
 * the loop gets the lock, and the loop's fsyncs the disk, most of the time (a fold of 131,072
 * moves then takes some seconds of the 30 s between two). */
#define SERVER_FOLD_SLICE_US 1000
#define SERVER_FOLD_REST 3
#define SERVER_FOLD_SLICE_ROWS 128        /* the first slice's rows */
#define SERVER_FOLD_SLICE_MIN_ROWS 8
#define SERVER_FOLD_SLICE_MAX_ROWS 4096
/* The WAL starts over only after a checkpoint copied all of it (at the next write: SQLite's
 * walRestartLog), and beside the loop's steady commits a passive checkpoint never does: so
 * once the WAL holds SERVER_WAL_RESTART_FRAMES, the upkeep thread repeats passive checkpoints
 * (at most SERVER_CKPT_ROUNDS more, until one leaves at most SERVER_WAL_TAIL_FRAMES), then
 * runs a RESTART checkpoint, which holds the write lock while it copies what is left and syncs
 * the file: the one wait the loop has for the thread, so it comes rarely (docs/benchmarks.md);
 * a longer tail waits for the next checkpoint. */
#define SERVER_WAL_RESTART_FRAMES 16384
#define SERVER_WAL_TAIL_FRAMES 256
#define SERVER_CKPT_ROUNDS 4              /* passive rounds tried to bring the rest to a tail */
#define SERVER_ACCEPTS_PER_TURN 256       /* connections accepted in one loop turn; the rest wait
                                             in the listen queue for the next (a connect flood
                                             from one address stalled the loop 0.5-2.7 s) */
#define SERVER_BACKLOG_MAX 65535          /* --backlog N: at most (the kernel caps it at
                                             net.core.somaxconn anyway) */
#define SERVER_MIN_FREE_MB 128           /* --min-free-mb: free space below which start is refused
                                             (a WAL the upkeep does not keep up with may grow
                                             to SERVER_WAL_MAX_FRAMES pages, 512 MiB) */
#define SERVER_MIN_FREE_MB_MAX 1048576    /* ... at most (1 TiB) */
#define SERVER_DB_CHECK_MS 1000           /* how often the database's files are looked for (and
                                             before every commit): deleted or replaced, it stops */
#define SERVER_ALIVE_MS 2000              /* how often the daemon writes that it runs
                                             (store_alive_set): after a crash the time from the
                                             last such mark to the restart is the downtime, which
                                             lateness does not count (Art. 14, 22), up to this
                                             much of it in the players' favour */

struct server;
struct game;
struct conn;

/* What a transport does for its connections (transport/tcp.c; a test or fuzzer may give its
 * own). Core calls these; every one may be NULL where said. */
struct conn_ops {
	/* Close the transport's side of c (conn_close has already unlinked it): stop reading,
	 * and once nothing of it is in flight release the transport's reference (conn_unref).
	 * NULL: the transport's reference stays until its owner drops it. */
	void (*close)(struct conn *c);
	/* Resume (on) or pause (off) reading from c. NULL: nothing to do. */
	void (*reading)(struct conn *c, bool on);
	/* The smoothed round-trip time of c's connection in milliseconds, measured by the
	 * server (TCP_INFO on TCP), or -1 when unknown. NULL: unknown. */
	int64_t (*rtt_ms)(struct conn *c);
	/* Free the memory of c (after its last reference went; c->out etc. are freed already).
	 * NULL: free(c). */
	void (*free)(struct conn *c);
};

/* What the server counts per client address (conn.c): connections, unsent bytes, this turn's
 * units. Kept while a connection from it exists. */
struct host {
	char addr[64];
	struct host *hnext;       /* hash chain */
	unsigned nconns;          /* open connections (the --max-per-address limit) */
	unsigned pending;         /* a proxy's connections still waiting for their PROXY header
	                             (not in nconns; conn_add_pending) */
	unsigned http;            /* HTTP connections on --http not (yet) WebSocket ones (not in
	                             nconns; --max-http-per-address; conn_http_add) */
	unsigned refs;            /* connection structures alive (open or closing) */
	size_t queued;            /* unsent bytes of its connections */
	unsigned hashing;         /* its logins on the hashing pool (accounts.c) */
	uint64_t turn;            /* the turn `used` counts */
	unsigned used;            /* units used in that turn */
};
struct fairclock_stall;

/* One client connection, whatever carries it (the transport embeds it and sets ops). */
struct conn {
	const struct conn_ops *ops;
	struct server *srv;
	uint64_t serial;          /* for logs */
	char addr[64];            /* peer address, no port */
	struct host *host;        /* its address's counters */
	size_t acct;              /* outlen + inflight as last added to host->queued */
	uint64_t turn;            /* the turn `used` counts */
	unsigned used;            /* units used in that turn */
	bool heavy;               /* its last request cost more than SERVER_LIGHT_UNITS and was
	                             not urgent: its waiting lines come after the light ones'
	                             (conn.c) */
	bool urgent;              /* the request being handled is one a game waits on (a move,
	                             a ping: set by the line sink, cmd/dispatch.c) */
	struct framing fr;
	char *out;                /* queued bytes, written at the end of the iteration */
	size_t outlen, outcap;
	char *later;              /* bytes queued while a sync is under way (server.c): they wait
	                             for the next one, behind `out` */
	size_t laterlen, latercap;
	bool unheld;              /* its bytes need no sync (a refusal before any request) */
	bool in_later;            /* on the server's list of connections with `later` bytes */
	struct conn *lnext;
	size_t inflight;          /* bytes handed to the transport and not yet written */
	int refs;                 /* 1 for the transport, +1 per async job (conn_ref) */
	bool closing;
	bool busy;                /* an async job (password hashing) holds this connection's turn */
	bool paused;              /* reading stopped: too much buffered input */
	bool out_full;            /* over SERVER_CONN_BACKPRESSURE unsent: its lines wait */
	bool peer_eof;            /* the client closed its side (half-close): answer the lines it
	                             sent, write the replies, then close (conn_eof_check) */
	bool in_backlog;
	bool dirty;               /* on the server's list of connections with queued bytes */
	bool pending;             /* counted in host->pending, not nconns: a proxy's connection
	                             before its PROXY header (conn_add_pending, conn_set_addr) */
	uint64_t last_line_ms;    /* uv_now of the connection's start or its last complete line */
	uint64_t kept_ms;         /* uv_now of the last idle sweep that found it had a reason to
	                             stay (logged in, observing, busy, output unsent...): the
	                             --anon-idle-timeout counts from this or last_line_ms */
	uint64_t read_ms;         /* fairclock_fair_ms at the connection's last read: a move is
	                             judged by when it arrived (game_play.c) */
	struct conn *dnext;
	struct conn *next, *prev;           /* all connections */
	struct conn *bl_next;               /* backlog of connections with lines to handle */
	/* Session. */
	int64_t player_id;        /* 0: not logged in */
	char name[PROTO_NAME_MAX + 1];
	enum proto_role role;
	struct conn *pnext;       /* next connection of the same player */
	bool exclusive;           /* logged in with `exclusive` (a bridge): a newer one replaces it */
	int64_t *observing;       /* games observed */
	size_t nobs, capobs;
};

struct server_settings {
	const char *host;
	int port;
	const char *db_path;
	const char *port_file;    /* write the bound port here (tests bind port 0) */
	unsigned max_connections, max_per_address;
	unsigned max_http_per_address;    /* SERVER_MAX_HTTP_PER_ADDRESS */
	unsigned max_http;                /* --max-http-connections (0: max_connections /
	                                     SERVER_HTTP_SHARE) */
	size_t max_queued;
	bool pwhash_fast;         /* libsodium's minimum hashing cost: tests and benchmarks only */
	int64_t lag_allowance_ms; /* most lag credited to a move (issue 4; default 300) */
	unsigned restart_grace_s; /* after a restart, a clock waits this long for its player to
	                             log in (0: it runs at once; games_load, docs/rules.md Art. 14) */
	unsigned counting_timeout_s; /* SERVER_COUNTING_TIMEOUT_S (0: the count waits for ever) */
	unsigned idle_timeout_s;  /* close a connection holding a partial line this long (0: never) */
	unsigned anon_idle_s;     /* close a connection not logged in and observing nothing after
	                             this long without a complete line (0: never) */
	unsigned keepalive_s;     /* TCP keepalive after this long without traffic (0: off) */
	size_t max_observers;     /* observers of one game (0: no limit; SERVER_MAX_OBSERVERS) */
	unsigned writer_min;      /* connections with output in one iteration from which the writer
	                             thread writes them (0: never; default SERVER_WRITER_MIN) */
	unsigned fold_rows;       /* journal moves that start a fold (default SERVER_FOLD_ROWS) */
	unsigned fold_ms;         /* ... or the age of its oldest (ms; 0: SERVER_FOLD_MS) */
	unsigned loop_stats_s;    /* log the loop's stall figures every S seconds (loopstat.h; 0: never) */
	bool sync_thread;         /* power-safe: the WAL's fsync on the syncer thread (syncer.h) */
	unsigned sync_test_delay_ms; /* the syncer waits this long before each sync (tests only) */
	int backlog;              /* the listen backlog (0: the system's maximum, tcp.c) */
	bool proxy_protocol;      /* connections from proxy_from begin with a PROXY header */
	const char *proxy_from;   /* those proxies' addresses, comma-separated (transport/proxy.h,
	                             PROXY_FROM_DEFAULT when NULL) */
	unsigned proxy_timeout_ms; /* their header's deadline (default SERVER_PROXY_TIMEOUT_MS) */
	/* 0 for any of these six: the default (server_open fills it in). */
	size_t max_queued_per_address;    /* SERVER_MAX_QUEUED_PER_ADDRESS */
	unsigned address_units;           /* SERVER_ADDR_UNITS */
	unsigned turn_units;              /* SERVER_TURN_UNITS */
	unsigned register_per_address;    /* SERVER_REGISTER_PER_ADDRESS */
	unsigned login_fails_per_address; /* SERVER_LOGIN_ADDR_FAILS */
	unsigned login_hashing_per_address; /* SERVER_LOGIN_HASHING_PER_ADDRESS */
	struct store_options store; /* --create, --sync, --min-free-mb; write_check set */
};

/* A complete request line from c (len > 0, no newline): cmd/dispatch.c's dispatch_line. */
typedef void (*server_line_fn)(void *ctx, struct conn *c, const char *line, size_t len);
/* Called with the ctx it was registered with (flush and stop hooks). */
typedef void (*server_hook_fn)(void *ctx);
/* c leaves its session (closed, or logged out): the game layer drops it from its games. */
typedef void (*server_conn_fn)(struct server *srv, struct conn *c);

#define SERVER_STOP_HOOKS 4       /* hooks server_stop calls, at most */
#define SERVER_FLUSH_HOOKS 4      /* transports flushing after each commit, at most */

struct server_hook {
	server_hook_fn fn;
	void *ctx;
};

struct server {
	uv_loop_t *loop;
	struct server_settings set;
	struct store *store;
	uv_prepare_t prepare;     /* commit + flush once per iteration */
	uv_idle_t idle;           /* keeps the loop spinning while lines are backlogged */
	uv_timer_t sweep;         /* idle-timeout sweep (conn.c) */
	uv_timer_t dbcheck;       /* every SERVER_DB_CHECK_MS: are the database's files still there */
	uv_timer_t alive;         /* every SERVER_ALIVE_MS: the daemon runs (store_alive_set) */
	double down_since;        /* Unix seconds: the last mark of a running daemon before this
	                             start (0: none, a new database); games_load credits the
	                             downtime to lateness */
	uv_signal_t sigint, sigterm;
	bool started;             /* server_start set up the handles above */
	struct conn *conns;       /* all connections */
	unsigned nconns;
	unsigned nhttp;           /* HTTP connections not (yet) WebSocket ones (conn_http_add):
	                             with nconns, at most set.max_connections */
	uint64_t serial;
	struct conn *backlog, *backlog_tail;
	struct conn *dirty;       /* connections with queued bytes to write */
	struct conn *later;       /* connections with bytes queued while a sync is under way */
	struct syncer *syncer;    /* the group commit's fsync off the loop (syncer.h); NULL: the
	                             commit syncs (lose-on-power-cut, in memory, no thread) */
	bool syncing;             /* a sync is under way: every reply and event is held */
	bool unsynced;            /* a commit since the last sync began */
	/* Hooks main.c sets (the layers above core). */
	server_line_fn line;      /* complete request lines go here */
	void *line_ctx;
	struct server_hook flush[SERVER_FLUSH_HOOKS]; /* after the commit, in order: each
	                             transport writes out its dirty connections */
	unsigned nflush;
	struct server_hook stop[SERVER_STOP_HOOKS]; /* server_stop, in order */
	unsigned nstop;
	struct server_hook last_writes; /* a clean stop, before its last commit (fn NULL: none) */
	server_conn_fn conn_gone; /* a connection leaves its session */
	struct idmap sessions;    /* player id -> first struct conn of that player */
	struct idmap games;       /* game id -> struct game (live games): the game layer's,
	                             only game/ reads it (others: game_live) */
	struct idmap player_games; /* player id -> that player's live games (game.c
	                             game_index_add): a login finds its games without a walk over
	                             every live game; game/ only */
	struct idmap challenge_rate; /* player id -> its challenges this window (game.c
	                             game_challenge_take) */
	struct fairclock_stall *stall; /* the loop's stall meter: stalls are not a player's
	                              time (fairclock.c) */
	bool txn;                 /* a store transaction is open */
	bool stopping;
	struct host **hosts;      /* per-address counters, SERVER_HOST_BUCKETS chains (conn.c) */
	uint64_t turn;            /* loop turns so far: one per commit and flush (on_prepare) */
	unsigned turn_used;       /* units used in this turn, all connections */
	size_t queued_total;      /* unsent bytes of all connections (conn_acct) */
	uint64_t data_gen;        /* bumped by server_txn: a change may follow, cached replies go */
	struct upkeep upkeep;     /* checkpoints and journal folds (upkeep.c) */
	struct loopstat loopstat; /* the loop's stall figures (loopstat.c) */
};

/* Do bytes sent to c now wait for the sync under way (its `later` queue, server_send_raw)
 * rather than go to `out`? */
static inline bool conn_held(const struct conn *c)
{
	return c->srv->syncing && !c->unheld;
}

/* Open the store at set->db_path for a server on `loop` (fills in the settings' defaults,
 * server_settings_defaults). Nothing runs yet: the caller loads live games (games_load), then
 * calls server_start. Returns 0 or -1 (logged); on -1 server_free still must be called. */
int server_open(struct server *srv, uv_loop_t *loop, const struct server_settings *set);
/* Fill in the settings left 0 that mean "the default" (server_settings: the five fairness
 * settings). */
void server_settings_defaults(struct server_settings *set);
/* Start the loop's work: checkpoints off the loop, the per-iteration commit and flush, the
 * database check, the idle-timeout sweep, SIGINT/SIGTERM (a graceful stop). */
void server_start(struct server *srv);
/* Hooks (main.c wires them; `line` and `gone` replace the one before, flush and stop hooks
 * add up). `line` gets every complete request line, whatever transport read it; a `flush`
 * hook runs after each commit, in the order added (at most SERVER_FLUSH_HOOKS; returns -1
 * past that): each transport writes out the connections of srv->dirty that are its own
 * (c->ops is its conn_ops) and leaves the others there, so several transports share the
 * loop; `stop` hooks run in the order added when server_stop begins (at most
 * SERVER_STOP_HOOKS; returns -1 past that), each transport closing only its own
 * connections; `gone` when a connection leaves its session. */
void server_set_line(struct server *srv, server_line_fn line, void *ctx);
int server_add_flush(struct server *srv, server_hook_fn flush, void *ctx);
int server_add_stop(struct server *srv, server_hook_fn stop, void *ctx);
/* `fn` writes what a clean stop (a signal) must keep, in the stop's last transaction: it runs
 * in server_stop before the commit (the games' running turns, docs/rules.md Art. 14). */
void server_set_last_writes(struct server *srv, server_hook_fn fn, void *ctx);
void server_set_conn_gone(struct server *srv, server_conn_fn gone);
/* Begin a graceful stop: commit, run the stop hooks (the transport flushes and closes its
 * connections, live games stop), close core's handles. The loop then ends by itself. */
void server_stop(struct server *srv);

/* After the loop has ended (and the layers above freed theirs): free sessions and the
 * per-address table, fold the journal, close the store. */
void server_free(struct server *srv);

/* Open the iteration's transaction if none is open; it commits once per loop iteration
 * (before any reply or event of it is written). A failed begin stops the server (CORE_PANIC,
 * panic.h): a failed durable write is handled that one way, so there is nothing to check.
 * Also marks cached replies stale (data_gen). */
void server_txn(struct server *srv);
/* Commit the open transaction now, if one is open, instead of at the iteration's end: for
 * writes made before server_start (games_load), which must be committed before the syncer
 * (--sync power-safe-thread) can take over the store's syncs. A failed commit stops the server
 * (CORE_PANIC). */
void server_commit_now(struct server *srv);

/* Sending, replying and sessions (conn.c). */

/* Queue `msg` (not consumed) to connection c. */
void server_send(struct conn *c, const json_t *msg);
/* Queue an already serialised line to c. */
void server_send_raw(struct conn *c, const char *line, size_t len);
/* Queue an already serialised line to every connection of player `player_id`. */
void server_send_player_raw(struct server *srv, int64_t player_id, const char *line, size_t len);
/* Queue msg to every connection of player `player_id`. */
void server_send_player(struct server *srv, int64_t player_id, const json_t *msg);
/* Reply to a request: the reply object is consumed. */
void server_reply(struct conn *c, json_t *reply);
/* Reply with an error. Returns -1. */
int server_reply_error(struct conn *c, const json_t *id, enum proto_errcode code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Sessions: c (logged in as c->player_id) joins the player's connections; c leaves them
 * (the conn_gone hook is told first, logged in or not) and is logged out. */
void server_session_add(struct server *srv, struct conn *c);
void server_session_del(struct server *srv, struct conn *c);

/* c's measured round-trip time in milliseconds (conn_ops.rtt_ms), -1 when unknown. */
int64_t conn_rtt_ms(struct conn *c);
/* The lag credit a move of c would get now, ms: its round-trip time, at most allowance_ms
 * (--lag-allowance-ms); 0 when unknown (issue 4; docs/rules.md, Art. 12). */
int64_t conn_lag_credit_ms(struct conn *c, int64_t allowance_ms);
/* The most lag credit a move of player_id would get now from any of its connections, ms
 * (conn_lag_credit_ms with srv's allowance); 0 when it has none: the flag of a player to
 * move falls this much after the clock's own deadline, so that a move sent in time and
 * credited is not beaten by the timer. */
int64_t server_player_lag_ms(struct server *srv, int64_t player_id);

/* Now, Unix epoch seconds: fairclock_wall_s (fairclock.h), so a test's fake clock governs it. */
double server_now(void);

#endif
