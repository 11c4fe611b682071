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
#define GTP_REFUSALS_MAX 3  /* our moves refused in a row before waiting for the server's next
			     * event: never a hot loop against a server that disagrees with itself */

enum accept_policy { ACCEPT_ANY, ACCEPT_RATED, ACCEPT_FROM };

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
	uv_timer_t join_timer;
	bool announced;              /* "game started" logged */
	struct move *moves;          /* the server's record, move k+1 at [k] */
	int nmoves, capmoves;
	json_t *clocks;              /* as last reported */
	uint64_t clocks_at;          /* uv_now when they were */
	/* the engine */
	struct engine *eng;
	bool eng_failed;             /* died: resigned, no new engine */
	struct move *eng_moves;      /* what it was told / played */
	int eng_known, eng_cap;
	bool genmove_out;
	int genmove_number;
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
	/* the prediction ruleset (seed 000; gtp_predict.c) */
	bool prediction;
	bool first;                  /* we are the first player */
	bool predict_out, predict_sent;
};

struct bridge {
	uv_loop_t *loop;
	struct session *s;
	const char *user;
	char **engine_argv;
	bool engine_stderr;
	bool kgs_time;               /* the engine knows kgs-time_settings */
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
/* Join a scheduled game at its start_at (at once if that has passed). */
void gtp_schedule_join(struct game *g);
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
