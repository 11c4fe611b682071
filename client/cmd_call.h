/* client/cmd_call: the network subcommands of `tengen` for players and scripts (issue 6), and
 * the small runner they share with cmd_td.c.
 *
 * Every network subcommand takes the global options, before or after its own name:
 *   --server HOST:PORT   the daemon (default SESSION_DEFAULT_SERVER, i.e. 127.0.0.1:6970)
 *   --user NAME          log in as NAME first (the password: --password-file F, first line,
 *                        else the environment variable TENGEN_PASSWORD)
 *   --password-file F
 *   --json               print the raw reply objects (one JSON object per line) instead of
 *                        the human-readable tables
 * Errors go to stderr prefixed "tengen: "; exit statuses are CMD_EXIT_* (cmd_score.h): 0 ok,
 * 1 failure (unreachable server, refused login, an error reply), 2 bad command line.
 */
#ifndef TENGEN_CMD_CALL_H
#define TENGEN_CMD_CALL_H

#include <stdbool.h>
#include <uv.h>
#include <jansson.h>

#include "session.h"

#define CLI_REPLY_TIMEOUT_MS 30000 /* longest wait for one reply before giving up */

/* The global options (see above). */
struct cli_opts {
	const char *server;
	const char *user;
	const char *password_file;
	bool json;
};

/* Consume argv[*i] if it is a global option ("--server X" or "--server=X", ...), advancing *i
 * past its value. Returns 1 if consumed, 0 if argv[*i] is not a global option, -1 on a
 * missing value (message on stderr). */
int cli_global_option(struct cli_opts *o, int argc, char **argv, int *i);
/* If argv[*i] is option `name` ("--round N" or "--round=N"), set *value, advance *i past it
 * and return 1; 0 if it is not that option; -1 if the value is missing (message on stderr). */
int cli_option_value(const char *name, int argc, char **argv, int *i, const char **value);
/* Parse a subcommand's arguments (argv[0] its name): global options, the options named in
 * names[0..nnames) (their values into values[], "--opt V" or "--opt=V"), and positional
 * arguments into pos[0..*npos) (at most maxpos). Returns 0; 1 for --help (usage printed on
 * stdout); -1 on a usage error (message and usage on stderr). */
int cli_parse_args(int argc, char **argv, struct cli_opts *o, const char *usage,
		   const char *const *names, const char **values, int nnames,
		   const char **pos, int maxpos, int *npos);
/* Parse a positive integer id (game, tournament) of argument `what`: 0, or -1 with a usage
 * message on stderr. */
int cli_parse_id(const char *what, const char *s, json_int_t *out);

/* One running subcommand: a libuv loop with one session. */
struct cli;
typedef void (*cli_start_fn)(struct cli *c);
typedef void (*cli_event_fn)(struct cli *c, json_t *event);

struct cli {
	uv_loop_t loop;
	struct session *s;
	const struct cli_opts *opt;
	uv_timer_t timer;     /* CLI_REPLY_TIMEOUT_MS per request (unless `no_timeout`) */
	bool no_timeout;      /* set by a start function that waits for events (watch) */
	int status;           /* exit status once done */
	bool done;
	cli_start_fn start;   /* called once the session is ready (logged in if --user) */
	cli_event_fn on_event;
	void *ctx;            /* the subcommand's own state */
};

/* Run a subcommand: connect (and log in when `login`, which needs --user: a usage error
 * otherwise), call start(c), run the loop until cli_finish. Returns the exit status. */
int cli_run(const struct cli_opts *o, bool login, cli_start_fn start, cli_event_fn on_event,
	    void *ctx);
/* Stop with this exit status (the first call wins). */
void cli_finish(struct cli *c, int status);
/* Send `req` (consumed) with reply callback cb(session, reply, c). Finishes with status 1 and a
 * message if it cannot be sent. Returns 0 or -1. */
int cli_send(struct cli *c, json_t *req, session_reply_cb cb);
/* The `struct cli` of a reply callback's arg. */
#define CLI_OF(arg) ((struct cli *)(arg))
/* Check a reply: true for an ok reply. For an error reply print a clear message on stderr
 * (the not-a-director and log-in-first cases get their own), set the exit status to 1 and
 * return false. A NULL reply (connection lost; the session reports why) returns false. */
bool cli_reply_ok(struct cli *c, const json_t *reply);
/* Print an error reply's message on stderr (as cli_reply_ok does). */
void cli_print_error(struct cli *c, const json_t *reply);
/* Print a JSON value compactly on one line of stdout. */
void cli_print_json(const json_t *v);
/* Print a game object's board (GTP style: letters above and below, row numbers both sides,
 * X Black, O White) and both clocks. */
void cli_print_board(const json_t *game);
/* Print a pairings reply (tournament.pairings or tournament.start_round) as a table: game,
 * Black, White, result; then the byes. */
void cli_print_pairings(const json_t *reply);
/* Format a clock object ({"main_ms", "periods", "period_ms", "stones"}) as "9:59 + 3x0:30";
 * "-" for none. */
void cli_format_clock(const json_t *clock, char *out, size_t n);

/* tengen call CMD [key=value ...] | call -   (raw requests; replies as JSON lines) */
int cmd_call(int argc, char **argv);
/* tengen register [--rank RANK]   (--user NAME and the password name the new account) */
int cmd_register(int argc, char **argv);
/* tengen standings TOURNAMENT [--round N] */
int cmd_standings(int argc, char **argv);
/* tengen pairings TOURNAMENT [ROUND] */
int cmd_pairings(int argc, char **argv);
/* tengen games [--phase P] [--player NAME] [--tournament T] [--limit N] */
int cmd_games(int argc, char **argv);
/* tengen sgf GAME   (prints the SGF text) */
int cmd_sgf(int argc, char **argv);
/* tengen watch GAME   (observe; the board and clocks after each move, until the result) */
int cmd_watch(int argc, char **argv);

#endif
