/* client/td: what the director's subcommands share (client/cmd_td.c: create, register, start,
 * results, ...; client/td_field.c: entrants, import, the player list, absences, manual
 * pairing, profiles, and tournaments named by name). Wire: docs/protocol.md. */
#ifndef TENGEN_TD_H
#define TENGEN_TD_H

#include <jansson.h>

#include "cli.h"
#include "cli_run.h"

/* What a td subcommand makes of its arguments: a batch for cli_run_batch. */
struct td_ctx {
	json_t *reqs;         /* the requests, sent in order */
	cli_print_fn print;   /* each ok reply's printer (b->ctx is this struct) */
	const char *out_file; /* export -o */
	cli_print_fn print_error; /* NULL: the usual report of an error reply */
	json_t *lines;        /* td results, td import: each request's line in the file */
	const char *sgf_dir;  /* td export --format sgf: the directory (reqs: a games request
	                       * naming the tournament, to resolve a name) */
	long sgf_round;
};

/* td export T --format sgf -o DIR (client/td_sgf.c): every ended game of tournament
 * `tournament` (of round `round` only, unless 0) written to DIR/roundR-gameN.sgf as the
 * server's `sgf` gives it; DIR is made if missing. Prints the count, and on stderr the games of
 * those rounds not ended yet. Returns the exit status (CMD_EXIT_REFUSED if a request was
 * refused, CMD_EXIT_FAILURE if a file could not be written). */
int td_sgf_run(const struct cli_opts *o, json_int_t tournament, long round, const char *dir);

/* Make x a batch of one request (consumed) printed by `print`. Returns 0, or -1 (message). */
int td_one(struct td_ctx *x, json_t *req, cli_print_fn print);

/* A TOURNAMENT argument: a positive number (its id) or a name (resolved before the batch runs,
 * td_resolve_tournaments). *out: a JSON integer or string (new reference). Returns 0, or -1
 * with a usage message. */
int td_tournament_arg(const char *s, json_t **out);
/* Replace each request's "tournament" given by name (a string) with its id, from one
 * tournament.list (names compare case-insensitively, as the server's). Returns CMD_EXIT_OK, or
 * the exit status after a message: CMD_EXIT_REFUSED for no such tournament (as the server's
 * not_found for an unknown id), the list's own failure (no answer: CMD_EXIT_UNREACHABLE). */
int td_resolve_tournaments(const struct cli_opts *o, json_t *reqs);
/* td show: the rest of one entry `p` of tournament.get's field after its name, rank and
 * rating: entrant (no account) or the account's full name, country, club, PIN, the rounds
 * absent, late entry (docs/protocol.md "Directors' additions"); nothing for fields absent. */
void td_print_entry_details(const json_t *p);
/* td show: the venue and place lines of tournament `t` (tournament.get's object), and its
 * teams (players in board order, reserves) when it has any. */
void td_print_event_details(const json_t *t);
void td_print_teams(const json_t *t);

/* The subcommands of client/td_field.c (argv[0] is the subcommand's name). Each returns 0, 1
 * after --help, -1 on a usage error (message printed). */
int td_entrant(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
int td_import(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
int td_players(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
int td_absent(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
int td_pair(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
int td_unpair(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
int td_delete(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
int td_profile(int argc, char **argv, struct cli_opts *o, struct td_ctx *x);
/* "registered P in tournament T (N players)" with a late entry's absent rounds, or "P is
 * back in tournament T" for a withdrawal undone (reply's reinstated_after). */
void td_print_entry(const char *player, long long tournament, const json_t *reply);
/* Their lines of `tengen td --help`. */
extern const char td_field_usage[];

/* One line of an EGD rating list (allworld_lp: fixed columns, as OpenGotha reads it: PIN in
 * bytes 1-8, "Surname Firstname" 11-47, country 49-51, club 53-56, grade 60-62) into an
 * entrant object {name, rank?, country?, club?, egd_pin} (new reference), or NULL if the line
 * is not a player's. */
json_t *td_egd_line(const char *line);

#endif
