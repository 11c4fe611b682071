/* gtp: `tengen gtp`, the bridge that lets a GTP engine (GNU Go, KataGo, ...) play on a tengen
 * server as a bot account (issue 6; wire contract: docs/protocol.md). The bridge's own header,
 * shared by its files:
 *   cmd_gtp.c     the command line, the engine probe, the loop and signals
 *   gtp_events.c  the session: events, challenges, connection and reconnection
 *   gtp_play.c    a game on the server: requests and replies, joining, the record (resync)
 *   gtp_engine.c  a game's engine: setup, replaying the record, genmove, dead stones
 *   gtp_game.c    games: lookup and lifetime, the log lines
 *
 *   tengen gtp [--server H:P] [--user NAME] [--password-file F]
 *              [--accept any|rated|from=NAME,...] [--max-games N] [--engine-stderr]
 *              -- ENGINE ARGS...
 *
 * It logs in (password: --password-file, else TENGEN_PASSWORD), accepts challenges by its
 * policy while fewer than --max-games games are live, joins its scheduled tournament games at
 * their start, and plays each game through its own engine process (client/engine.h): setup
 * (boardsize, clear_board, komi, set_free_handicap, time_settings / kgs-time_settings), the
 * moves replayed with `play`, `time_left` + `genmove` on its turn, `final_status_list dead`
 * in the counting phase. After a dropped connection the session reconnects and each game is
 * resynced from the server's `game` object; moves are sent with their `number`, so none is
 * ever played twice. An engine that dies is reported on stderr and its game resigned.
 * One line per notable thing goes to stderr (gtp_say).
 *
 * State. The bridge keeps, per live game, the server's record (the moves numbered 1..n, the
 * phase, whose turn, the clocks as last reported) and what its engine has been told
 * (eng_moves[0..eng_known)). After any change, gtp_pump() brings the engine level with the
 * record (`play` for each missing move), then asks it for a move (`time_left`, `genmove`) on
 * our turn, or for its dead stones in the counting phase. Whenever the engine's board can no
 * longer be the server's (our move was refused and recorded as a pass, a stale genmove, a
 * resync that disagrees), the engine is replaced by a fresh process that is set up and
 * replays the record.
 *
 * Safety. Our move goes out as `play {game, vertex, number}`; if the connection drops before
 * the reply, the move is kept and resent with the same number after the resync only if the
 * server's record still ends just before it: the server plays it at most once (protocol.md,
 * play). Session reply callbacks carry the game id, never a pointer (a game can end and be
 * freed before its reply comes); engine callbacks carry the game pointer (engine_close, done
 * before a game is freed, drops them).
 */
#ifndef TENGEN_GTP_H
#define TENGEN_GTP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <uv.h>
#include <jansson.h>

#include "board.h"
#include "engine.h"
#include "session.h"

#define GTP_PROG "tengen gtp" /* the prefix of its command-line errors */
#define GTP_MAX_GAMES_DEFAULT 4  /* --max-games: live games at once (challenges beyond: declined) */
#define GTP_MAX_GAMES_LIMIT 256
#define GTP_ACCEPT_NAMES_MAX 64  /* names in --accept from=... */
#define GTP_PROBE_TIMEOUT_MS 60000 /* the engine's first answers at start (a big network may
				    * take a while to load) */
#define GTP_AGREE_AFTER_COUNTINGS 2 /* from the 3rd counting phase of a game on, agree with the
				     * opponent's dead stones so that two engines that disagree
				     * cannot loop forever */
#define GTP_NAME_MAX 33     /* player names: 32 bytes + NUL (PROTO_NAME_MAX) */
#define GTP_VERTEX_MAX 8
#define GTP_DEAD_MAX (BOARD_MAX_SIZE * BOARD_MAX_SIZE)
#define GTP_HANDICAP_MAX 9  /* handicap stones the server places at most */
#define GTP_ENDED_RING 256  /* ended games remembered, so that a late reply cannot revive one */
#define GTP_ENGINE_RESTARTS_MAX 2 /* an engine that exits mid-game is started again from the
                                    record this many times per game; once more, it resigns */
#define GTP_REFUSALS_MAX 3  /* our moves refused in a row before waiting for the server's next
			     * event: never a hot loop against a server that disagrees with itself */

#define GTP_SIZE_MIN 2       /* board sizes the server plays (proto.h: 2..25) */
#define GTP_SIZE_MAX 25
#define GTP_SIZES_ALL (((1u << (GTP_SIZE_MAX + 1)) - 1) & ~((1u << GTP_SIZE_MIN) - 1))
#define GTP_SECONDS_MAX 604800.0 /* --main-time, --period-time: at most a week */
#define GTP_DEFAULT_RULESET "chinese" /* a game whose rules name no ruleset (--rulesets) */

enum accept_policy { ACCEPT_ANY, ACCEPT_RATED, ACCEPT_FROM };

/* What the engine said it knows (list_commands) and takes (the boardsize dry run). */
struct gtp_caps {
	bool kgs_time;            /* kgs-time_settings (byoyomi, canadian, absolute, none) */
	bool kata_time;           /* kata-time_settings (fischer too) */
	bool genmove_cleanup;     /* kgs-genmove_cleanup: capture what the opponent holds alive */
	bool place_free_handicap, set_free_handicap;
	uint32_t sizes;           /* bit N: `boardsize N` was accepted */
};

/* The operator's challenge filters (gtp2ogs-like); gtp_filter_init sets "anything". */
struct gtp_filter {
	uint32_t sizes;           /* --sizes: bit N for NxN */
	unsigned systems;         /* --time-systems: bit k for none, absolute, byoyomi, canadian,
	                             fischer */
	double main_s[2];         /* --main-time MIN-MAX, seconds (timed games) */
	double period_s[2];       /* --period-time MIN-MAX: the time a move gets after the main
	                             time (byo-yomi period, Canadian block / stones, Fischer
	                             increment) */
	int max_handicap;         /* --max-handicap */
	int rated;                /* --rated: 1 only rated, -1 only unrated, 0 either */
	const char *rulesets[GTP_ACCEPT_NAMES_MAX]; /* --rulesets: none listed = any */
	int nrulesets;
	const char *reject[GTP_ACCEPT_NAMES_MAX];   /* --reject: opponents declined */
	int nreject;
};

struct move {
	char color;                  /* 'B' or 'W' */
	char vertex[GTP_VERTEX_MAX]; /* "D4" or "pass" */
};

struct game {
	struct game *next;
	struct bridge *br;
	json_int_t id;
	int size, handicap;
	double komi;
	char color;                  /* ours */
	char opponent[GTP_NAME_MAX];
	json_t *time;                /* time control object */
	char phase[16];
	char to_move;                /* 'B', 'W', or 0 */
	bool paused, synced, sync_out;
	double start_at;             /* 0: not scheduled */
	bool joined, join_out;
	uv_timer_t closer;           /* never started: its close frees the game once libuv lets go (game_freed) */
	bool announced;              /* "game started" logged */
	struct move *moves;          /* the server's record, move k+1 at [k] */
	int nmoves, capmoves;
	json_t *clocks;              /* as last reported */
	uint64_t clocks_at;          /* uv_now when they were */
	/* the engine */
	struct engine *eng;
	bool eng_failed;             /* died: resigned, no new engine */
	int eng_restarts;            /* started again after it exited (GTP_ENGINE_RESTARTS_MAX) */
	struct move *eng_moves;      /* what it was told / played */
	int eng_known, eng_cap;
	bool genmove_out;
	int genmove_number;
	bool eng_backlog;            /* a command did not fit in the engine's queue
				      * (ENGINE_QUEUE_MAX): pump again as answers come */
	/* our move in flight (or to resend after a reconnect) */
	bool play_out, play_sent;
	int play_number;
	char play_vertex[GTP_VERTEX_MAX];
	/* counting */
	bool dead_out, dead_sent, resign_sent;
	int countings;
	int resume_mark;             /* moves recorded when play last resumed after counting */
	int refusals;                /* our moves refused in a row (conflict, not_your_turn) */
	json_t *their_dead;          /* the opponent's claim in this counting phase, or NULL */
	char gen_color;              /* the colour of the genmove out (ours, or an opening stone's) */
	double eng_komi;             /* the komi the engine was given */
	int eng_size, eng_handicap;  /* the board and the handicap it was set up with ... */
	bool eng_free;               /* ... and whether the stones were free ones */
	/* free handicap placement (handicap_placement "free"; GTP 2 §6.3.3) */
	bool free_handicap;
	char hstones[GTP_HANDICAP_MAX][GTP_VERTEX_MAX]; /* the stones once placed */
	int nhstones;                /* 0: the placement is still due */
	bool place_out;              /* our placement asked of the engine or sent to the server */
	bool eng_hplaced;            /* the engine's board has the stones */
	/* the prediction ruleset (seed 000; gtp_predict.c) */
	bool prediction;
	bool first;                  /* we are the first player */
	bool predict_out, predict_sent;
	FILE *log;                   /* --gtp-log with {game}: this game's file, or NULL */
};

struct bridge {
	uv_loop_t *loop;
	struct session *s;
	const char *user;
	char **engine_argv;
	bool engine_stderr;
	struct gtp_caps caps;        /* what the engine knows (the probe) */
	struct gtp_filter filter;    /* which challenges to accept */
	const char *gtp_log;         /* --gtp-log PATH: the engines' GTP traffic, or NULL */
	FILE *log_file;              /* that file, when it is one for all games */
	bool log_failed;             /* it could not be opened (said once) */
	int max_games;
	enum accept_policy accept;
	const char *accept_names[GTP_ACCEPT_NAMES_MAX];
	int naccept_names;
	struct game *games;
	int ngames;
	uv_signal_t sigint, sigterm;
	int status;
	bool stopping;
	char engine_name[128];
	json_int_t ended[GTP_ENDED_RING]; /* games that ended lately: late replies are ignored */
	int nended;
};

extern struct bridge *gtp_bridge; /* the running bridge: session reply callbacks find it here */

/* ---- gtp_filter.c: challenges and engine capabilities (pure) ---- */

void gtp_filter_init(struct gtp_filter *f);
/* --sizes "9,13,19" or "9-19,25"; --time-systems "byoyomi,fischer". 0, or -1 (malformed). */
int gtp_filter_sizes(struct gtp_filter *f, const char *spec);
int gtp_filter_systems(struct gtp_filter *f, const char *spec);
/* --main-time / --period-time "MIN-MAX" or "N" (seconds) into out[2]. 0, or -1. */
int gtp_filter_seconds(double out[2], const char *spec);
/* A comma-separated list of names into names[] (pointers into spec, which is cut up): 0, or
 * -1 (empty, more than GTP_ACCEPT_NAMES_MAX). */
int gtp_filter_names(const char **names, int *n, char *spec);
/* May the bridge accept a challenge from `from` with these settings (the `challenge` event's
 * settings or a game object: size, handicap, rated, time, rules)? False with the reason in
 * why[n]. The engine must take the size (engine_sizes, struct gtp_caps) and the filters must
 * allow everything. */
bool gtp_filter_allows(const struct gtp_filter *f, uint32_t engine_sizes, const json_t *settings,
		       const char *from, char *why, size_t n);
/* The commands of a list_commands response that the bridge uses when present. */
void gtp_caps_from_list(struct gtp_caps *c, const char *list_commands);

/* ---- gtp_log.c: --gtp-log ---- */

/* Log the traffic of g's (new) engine: to PATH for all games, or to PATH with {game}
 * replaced by g's id (opened on first use, appended to). A file that cannot be opened is
 * reported, and the game plays on without a log. */
void gtp_log_attach(struct game *g);
/* The engine's command line for game `id` (0: the probe before any game): argv with every
 * "{game}" in an argument replaced by the id, so that each game's engine can get its own
 * seed (`--seed {game}`) or file. NULL-terminated, freed with gtp_argv_free; NULL: no
 * memory. */
char **gtp_argv_for_game(char *const *argv, json_int_t id);
void gtp_argv_free(char **argv);
/* Close g's own log file (a game being freed). */
void gtp_log_close_game(struct game *g);
/* Close the shared log file (the bridge stopping). */
void gtp_log_close(struct bridge *br);

/* ---- gtp_game.c ---- */

/* Log one line on stderr: "HH:MM:SS tengen gtp [USER]: ...". */
void gtp_say(const struct bridge *br, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct game *gtp_find_game(struct bridge *br, json_int_t id);
/* A new live game (NULL when out of memory: logged). */
struct game *gtp_new_game(struct bridge *br, json_int_t id);
/* Did game `id` end lately (then a late event or reply must not revive it)? */
bool gtp_ended_lately(const struct bridge *br, json_int_t id);
/* Forget a game: remembered as ended, its engine closed, freed once libuv is done. */
void gtp_free_game(struct game *g);
/* Take game `id` out of the ring of games ended lately (gtp_ended_lately): a game let go
 * without ending (tournament.unpaired) may be given back. */
void gtp_forget_ended(struct bridge *br, json_int_t id);
/* Append a move to a growing array. Returns 0 or -1 (out of memory). */
int gtp_push_move(struct move **arr, int *n, int *cap, char color, const char *vertex);
/* Log a game's end, and its start (once). */
void gtp_log_result(struct game *g, const char *result, const char *reason);
void gtp_announce(struct game *g);

/* ---- gtp_play.c ---- */

/* Send a request (consumed). Returns 0, or -1 if it could not be sent (cb is not called). */
int gtp_send_req(struct bridge *br, json_t *req, session_reply_cb cb, void *arg);
/* An error reply's message ("?" without one); is a reply ok? */
const char *gtp_err_message(const json_t *reply);
bool gtp_reply_ok(const json_t *reply);
/* Resign the game (once; again after a reconnect if the reply was lost). */
void gtp_resign(struct game *g, const char *why);
/* Send our move g->play_vertex as number g->play_number. */
void gtp_send_play(struct game *g);
/* Send our dead stones (a JSON array of vertices, not consumed). */
void gtp_send_dead(struct game *g, json_t *stones);
/* Send our free handicap stones (`text`: the engine's answer to place_free_handicap or
 * fixed_handicap, vertices separated by spaces) as `handicap {game, stones}`; when the server
 * takes them g->hstones holds them, else the game is resigned (the engine's board is not the
 * game's). */
void gtp_send_handicap(struct game *g, const char *text);
/* g->hstones from a JSON array of vertices (the game object's handicap_stones, the
 * game.handicap event's stones); at most GTP_HANDICAP_MAX. */
void gtp_set_hstones(struct game *g, const json_t *stones);
/* Report present at a scheduled game (join), unless done or under way: at once, as soon as it
 * is paired, since a join before start_at is never late (docs/protocol.md, join; Chinese Rules
 * 2002, Art. 22.2). Before, the bridge waited for start_at by its own clock and was charged
 * the few ms it joined after. */
void gtp_join(struct game *g);
/* Take the server's game object as the truth (game reply, game.state). */
void gtp_apply_game(struct bridge *br, const json_t *o);
/* Ask the server for the game's record (it replaces ours). */
void gtp_sync_game(struct game *g);
/* A recorded move, from a game.move event or our play's reply. */
void gtp_on_move(struct game *g, const json_t *m);

/* ---- gtp_predict.c: the prediction ruleset (seed 000) ---- */

/* The prediction fields of a game object (first, second, black/white null before the
 * predictions are shown): g->prediction, g->first, our colour (0 while undecided), the
 * opponent. Returns false for a game of another ruleset (nothing set). */
bool gtp_predict_apply(struct game *g, const json_t *o, const char *user);
/* What the game needs from the engine before play: our opening placement (genmove of the
 * stone's colour) or our prediction (estimate_score, else final_score, at komi 0, sent as
 * `predict`). Returns true if it handled the game's state (gtp_pump then does no more). */
bool gtp_predict_pump(struct game *g);

/* ---- gtp_engine.c ---- */

/* Send the engine a command (printf-style) whose reply goes to cb. Returns 0 or -1. */
int gtp_engine_send(struct game *g, engine_reply_cb cb, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Ask the engine for a move of colour c as move g->nmoves + 1 (its reply plays it). */
void gtp_genmove(struct game *g, char c);

/* Bring the engine level with the record, then ask it for what the game needs next. */
void gtp_pump(struct game *g);

/* ---- gtp_events.c: the session's callbacks ---- */

void gtp_on_event(struct session *s, json_t *ev, void *ctx);
void gtp_on_ready(struct session *s, bool first, void *ctx);
void gtp_on_error(struct session *s, const char *error, bool final, void *ctx);

#endif
