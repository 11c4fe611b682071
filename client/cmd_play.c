/* client/cmd_play: the commands a person plays with: challenge, accept, decline, play, pass,
 * resign, dead and players (games --mine is in cmd_query.c). See commands.h.
 *
 * Each prints one line a person reads (--json: the server's reply object instead), reports an
 * error once, on stderr, and exits with a status that says what kind (cli.h: 3 the server
 * refused, 4 no answer, 5 login refused, 2 bad command line).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "cli_print.h"
#include "cli_run.h"
#include "cli_values.h"
#include "commands.h"
#include "vertex.h"

#define PLAY_MAX_STONES 625 /* stones in one dead claim (docs/protocol.md "dead": 25x25) */
#define PLAY_MAX_RULES 8    /* KEY=VALUE items in --rules */

static const char *color_name(const char *c)
{
	return c && strcmp(c, "B") == 0 ? "Black" : c && strcmp(c, "W") == 0 ? "White" : "?";
}

/* Parse the arguments of a command with options opts[0..nopts) and exactly `npos_min` ..
 * `npos_max` positional arguments. Returns -1 to go on, else the exit status (help printed,
 * or a usage error reported). */
static int parse(int argc, char **argv, struct cli_opts *o, const char *usage,
		 const struct cli_option *opts, int nopts, const char **values, const char **pos,
		 int npos_min, int npos_max, int *npos)
{
	int r = cli_parse_args(argc, argv, o, usage, opts, nopts, values, pos, npos_max, npos);
	if (r != 0)
		return r > 0 ? CMD_EXIT_OK : CMD_EXIT_USAGE;
	if (*npos < npos_min) {
		cli_errorf("%s: missing arguments", argv[0]);
		fputs(usage, stderr);
		return CMD_EXIT_USAGE;
	}
	return -1;
}

/* ---- challenge ---- */

static const char challenge_usage[] =
	"usage: tengen [GLOBAL OPTIONS] challenge NAME [--size N] [--komi K] [--handicap H]\n"
	"              [--time SPEC] [--color black|white|nigiri|auto] [--rated yes|no]\n"
	"              [--ruleset NAME] [--rules KEY=VALUE,...] [--expires SECONDS]\n"
	"              [--placement fixed|free] [--first me|opponent|nigiri] [--json]\n"
	"Challenge the player NAME to a game; prints the game's id. Defaults: 19x19, komi 7.5, no\n"
	"handicap, no clocks, rated, colours by nigiri (drawn when NAME accepts); with a handicap,\n"
	"--color auto: the lower rating takes Black (equal ratings: nigiri). With a handicap\n"
	"of 2 or more the count gives White the komi plus 1 point a stone: give --komi 0.5 for\n"
	"the usual handicap game.\n"
	"  --time SPEC   " CLI_TIME_SPEC_HELP "\n"
	"  --placement   free: Black places the handicap stones (then `tengen call handicap\n"
	"                game=N 'stones=[\"C3\",...]'`, or a GTP bridge asks its engine)\n"
	"  --ruleset     the rules' ruleset (e.g. prediction, where the server has it)\n"
	"  --first       prediction ruleset: who is the first player (places stones 1 and 4);\n"
	"                default nigiri. Colours and komi do not apply there (the predictions\n"
	"                decide the colours, their bar replaces komi)\n"
	"  --rules       other keys of the rules object: ko=positional,illegal=lose,\n"
	"                counting=all-alive,cycle=void,last_period=pass; prediction ruleset:\n"
	"                predict_s=SECONDS,decisive=true (numbers and true/false go typed)\n"
	"Needs a login (--user NAME).\n";

enum { CH_SIZE, CH_KOMI, CH_HANDICAP, CH_TIME, CH_COLOR, CH_RATED, CH_RULESET, CH_RULES,
       CH_EXPIRES, CH_PLACEMENT, CH_FIRST, CH_NOPTS };

struct challenge_ctx {
	const char *opponent;
	const char *values[CH_NOPTS];
};

/* The challenge line of a prediction-rules game (docs/protocol.md "Prediction ruleset"): no
 * komi and no colour, but who is the first player. */
static void challenge_print_prediction(const struct challenge_ctx *x, const json_t *req,
				       long long g)
{
	long long size = (long long)json_integer_value(json_object_get(req, "size"));
	const char *first = cli_str_or(req, "first", "nigiri");
	printf("Challenged %s: game %lld, %lldx%lld, prediction rules (no komi: the predictions' "
	       "bar), %s%s, %s, ",
	       x->opponent, g, size, size, x->values[CH_TIME] ? "time " : "no clocks",
	       x->values[CH_TIME] ? x->values[CH_TIME] : "",
	       json_is_false(json_object_get(req, "rated")) ? "unrated" : "rated");
	if (strcmp(first, "me") == 0)
		printf("you are the first player");
	else if (strcmp(first, "opponent") == 0)
		printf("%s is the first player", x->opponent);
	else
		printf("the first player by nigiri");
	printf(". It starts when %s accepts (tengen accept %lld).\n", x->opponent, g);
}

static void challenge_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	const struct challenge_ctx *x = b->ctx;
	long long g = (long long)json_integer_value(json_object_get(reply, "game"));
	const json_t *rules = json_object_get(req, "rules");
	const char *ruleset = json_string_value(json_object_get(rules, "ruleset"));
	if (ruleset && strcmp(ruleset, "prediction") == 0) {
		challenge_print_prediction(x, req, g);
		return;
	}
	/* the colour as the server settled it (color "auto": by the ratings), else as asked */
	const char *color = cli_str_or(reply, "color", cli_str_or(req, "color", "nigiri"));
	bool by_rating = strcmp(cli_str_or(req, "color", ""), "auto") == 0 &&
			 json_integer_value(json_object_get(req, "handicap")) >= 2;
	/* The handicap and what the count gives White for it (docs/rules.md, Art. 11: one point
	 * a stone from 2 on top of the komi). */
	long long h = (long long)json_integer_value(json_object_get(req, "handicap"));
	double komi = json_number_value(json_object_get(req, "komi"));
	char terms[128];
	if (h >= 2)
		snprintf(terms, sizeof terms, "handicap %lld%s, komi %g + %lld for the stones", h,
			 strcmp(cli_str_or(req, "handicap_placement", "fixed"), "free") == 0
				 ? " placed by Black" : "", komi, h);
	else if (h == 1)
		snprintf(terms, sizeof terms, "handicap 1 (no stones, Black first), komi %g", komi);
	else
		snprintf(terms, sizeof terms, "komi %g", komi);
	printf("Challenged %s: game %lld, %lldx%lld, %s%s%s, %s, %s. It starts when %s "
	       "accepts (tengen accept %lld).\n",
	       x->opponent, g, (long long)json_integer_value(json_object_get(req, "size")),
	       (long long)json_integer_value(json_object_get(req, "size")), terms,
	       x->values[CH_TIME] ? ", time " : ", no clocks",
	       x->values[CH_TIME] ? x->values[CH_TIME] : "",
	       json_is_false(json_object_get(req, "rated")) ? "unrated" : "rated",
	       strcmp(color, "black") == 0   ? (by_rating ? "you play Black (the lower rating)"
							  : "you play Black")
	       : strcmp(color, "white") == 0 ? (by_rating ? "you play White (the higher rating)"
							  : "you play White")
	       : by_rating                   ? "colours by nigiri (the ratings do not tell the weaker)"
					     : "colours by nigiri",
	       x->opponent, g);
}

/* A --rules VALUE as the rules object takes it (docs/protocol.md "rules"): a number
 * (predict_s=5) or true/false (decisive=true) typed, anything else a string (ko=positional).
 * They all went as strings, so the server refused predict_s and decisive. */
static json_t *rules_value(const char *text)
{
	json_t *v = json_loads(text, JSON_DECODE_ANY, NULL);
	if (v && (json_is_number(v) || json_is_boolean(v)))
		return v;
	json_decref(v);
	return json_string(text);
}

/* --rules KEY=VALUE,... into the rules object r (values: rules_value). 0, or -1 (message
 * printed). */
static int parse_rules(const char *spec, json_t *r)
{
	char buf[256];
	if (strlen(spec) >= sizeof buf) {
		cli_errorf("challenge: --rules is too long");
		return -1;
	}
	strcpy(buf, spec);
	int n = 0;
	for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq || eq == item || !eq[1] || ++n > PLAY_MAX_RULES) {
			cli_errorf("challenge: bad --rules '%s' (KEY=VALUE,..., e.g. ko=positional)",
				   spec);
			return -1;
		}
		*eq = '\0';
		json_object_set_new(r, item, rules_value(eq + 1));
	}
	return 0;
}

/* A number option (a whole one if `whole`): 0, or -1 (message printed). */
static int parse_number(const char *what, const char *s, bool whole, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || v != v || (whole && (v != (double)(long long)v || v < 0))) {
		cli_errorf("challenge: %s must be a %s, not '%s'", what,
			   whole ? "whole number" : "number", s);
		return -1;
	}
	*out = v;
	return 0;
}

/* The challenge request from the options, or NULL (message printed: a usage error). */
static json_t *challenge_request(const struct challenge_ctx *x)
{
	const char *const *v = x->values;
	double size = 19, komi = 7.5, handicap = 0, expires = 0;
	if ((v[CH_SIZE] && parse_number("--size", v[CH_SIZE], true, &size) != 0) ||
	    (v[CH_KOMI] && parse_number("--komi", v[CH_KOMI], false, &komi) != 0) ||
	    (v[CH_HANDICAP] && parse_number("--handicap", v[CH_HANDICAP], true, &handicap) != 0) ||
	    (v[CH_EXPIRES] && parse_number("--expires", v[CH_EXPIRES], true, &expires) != 0))
		return NULL;
	if (v[CH_COLOR] && strcmp(v[CH_COLOR], "black") != 0 && strcmp(v[CH_COLOR], "white") != 0 &&
	    strcmp(v[CH_COLOR], "nigiri") != 0 && strcmp(v[CH_COLOR], "auto") != 0) {
		cli_errorf("challenge: --color must be black, white, nigiri or auto, not '%s'",
			   v[CH_COLOR]);
		return NULL;
	}
	/* A handicap game's stones are the weaker player's: by default the lower rating takes
	 * Black (the server's color "auto"), not a nigiri */
	const char *color = v[CH_COLOR] ? v[CH_COLOR] : handicap >= 2 ? "auto" : "nigiri";
	if (v[CH_FIRST] && strcmp(v[CH_FIRST], "me") != 0 && strcmp(v[CH_FIRST], "opponent") != 0 &&
	    strcmp(v[CH_FIRST], "nigiri") != 0) {
		cli_errorf("challenge: --first must be me, opponent or nigiri, not '%s'", v[CH_FIRST]);
		return NULL;
	}
	int rated = v[CH_RATED] ? cli_parse_yes_no(v[CH_RATED]) : 1;
	if (rated < 0) {
		cli_errorf("challenge: --rated must be yes or no, not '%s'", v[CH_RATED]);
		return NULL;
	}
	json_t *time = NULL;
	if (v[CH_TIME] && !(time = cli_parse_time(v[CH_TIME]))) {
		cli_errorf("challenge: bad --time '%s' (%s)", v[CH_TIME], CLI_TIME_SPEC_HELP);
		return NULL;
	}
	/* Sizes and handicaps the server judges (it names the field); whole numbers here. */
	json_t *req = json_pack("{s:s, s:s, s:I, s:f, s:I, s:b, s:s}", "cmd", "challenge",
				"opponent", x->opponent, "size", (json_int_t)size, "komi", komi,
				"handicap", (json_int_t)handicap, "rated", rated, "color", color);
	if (!req) {
		json_decref(time);
		cli_errorf("out of memory");
		return NULL;
	}
	if (time)
		json_object_set_new(req, "time", time);
	if (v[CH_EXPIRES])
		json_object_set_new(req, "expires_s", json_integer((json_int_t)expires));
	if (v[CH_FIRST]) /* the server refuses it without the prediction ruleset */
		json_object_set_new(req, "first", json_string(v[CH_FIRST]));
	if (v[CH_PLACEMENT]) /* the server judges it (it names the field) */
		json_object_set_new(req, "handicap_placement", json_string(v[CH_PLACEMENT]));
	if (v[CH_RULESET] || v[CH_RULES]) {
		json_t *rules = json_object();
		json_object_set_new(req, "rules", rules);
		if (v[CH_RULESET])
			json_object_set_new(rules, "ruleset", json_string(v[CH_RULESET]));
		if (v[CH_RULES] && parse_rules(v[CH_RULES], rules) != 0) {
			json_decref(req);
			return NULL;
		}
	}
	return req;
}

int cmd_challenge(int argc, char **argv)
{
	struct cli_opts o = {0};
	static const struct cli_option opts[CH_NOPTS] = {
		[CH_SIZE] = {"--size", true},       [CH_KOMI] = {"--komi", true},
		[CH_HANDICAP] = {"--handicap", true}, [CH_TIME] = {"--time", true},
		[CH_COLOR] = {"--color", true},     [CH_RATED] = {"--rated", true},
		[CH_RULESET] = {"--ruleset", true}, [CH_RULES] = {"--rules", true},
		[CH_EXPIRES] = {"--expires", true}, [CH_PLACEMENT] = {"--placement", true},
		[CH_FIRST] = {"--first", true},
	};
	struct challenge_ctx x = {0};
	const char *pos[1];
	int npos;
	int st = parse(argc, argv, &o, challenge_usage, opts, CH_NOPTS, x.values, pos, 1, 1, &npos);
	if (st >= 0)
		return st;
	x.opponent = pos[0];
	json_t *req = challenge_request(&x);
	if (!req)
		return CMD_EXIT_USAGE;
	return cli_run_batch(&o, true, cli_batch_of(req), challenge_print, &x);
}

/* ---- accept, decline, resign: one request about one game ---- */

static const char accept_usage[] =
	"usage: tengen [GLOBAL OPTIONS] accept GAME [--json]\n"
	"Accept the challenge GAME: the game starts; prints your colour. Needs a login.\n"
	"(Challenges waiting for you: tengen games --mine --phase pending.)\n";
static const char decline_usage[] =
	"usage: tengen [GLOBAL OPTIONS] decline GAME [--json]\n"
	"Decline the challenge GAME (or withdraw your own). Needs a login.\n";
static const char resign_usage[] =
	"usage: tengen [GLOBAL OPTIONS] resign GAME [--json]\n"
	"Resign the game GAME (while playing or counting); prints the result. Needs a login.\n";

static void accept_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	const char *color = json_string_value(json_object_get(reply, "color"));
	const char *first = json_string_value(json_object_get(reply, "first"));
	if (first) { /* prediction ruleset: no colour until the predictions are shown */
		bool me = b->opt->user && strcasecmp(first, b->opt->user) == 0;
		/* seed 000, Art. 5.2: the first player places stones 1 and 4 ("you place", not
		 * "you places") */
		printf("Accepted game %lld: prediction rules, you are the %s player (%s %s stones "
		       "1 and 4; the predictions decide the colours).\n",
		       (long long)json_integer_value(json_object_get(req, "game")),
		       me ? "first" : "second", me ? "you" : first, me ? "place" : "places");
		return;
	}
	printf("Accepted game %lld: you play %s (%s).\n",
	       (long long)json_integer_value(json_object_get(req, "game")), color_name(color),
	       color && strcmp(color, "B") == 0 ? "X" : "O");
}

static void decline_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)reply;
	printf("Called off game %lld.\n", (long long)json_integer_value(json_object_get(req, "game")));
}

static void resign_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	printf("Resigned game %lld: %s.\n", (long long)json_integer_value(json_object_get(req, "game")),
	       cli_str_or(reply, "result", "?"));
}

static int one_game_command(int argc, char **argv, const char *cmd, const char *usage,
			    cli_print_fn print)
{
	struct cli_opts o = {0};
	const char *pos[1];
	int npos;
	int st = parse(argc, argv, &o, usage, NULL, 0, NULL, pos, 1, 1, &npos);
	if (st >= 0)
		return st;
	json_int_t g;
	if (cli_parse_id("GAME", pos[0], &g) != 0)
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:I}", "cmd", cmd, "game", g);
	return cli_run_batch(&o, true, cli_batch_of(req), print, NULL);
}

int cmd_accept(int argc, char **argv)
{
	return one_game_command(argc, argv, "accept", accept_usage, accept_print);
}

int cmd_decline(int argc, char **argv)
{
	return one_game_command(argc, argv, "decline", decline_usage, decline_print);
}

int cmd_resign(int argc, char **argv)
{
	return one_game_command(argc, argv, "resign", resign_usage, resign_print);
}

/* ---- play, pass, dead: read the game first or after ---- */

static const char play_usage[] =
	"usage: tengen [GLOBAL OPTIONS] play GAME VERTEX [--number N] [--remove own|opponent]\n"
	"                                  [--json]\n"
	"Play a stone at VERTEX (GTP letters without I: D4, q16) in game GAME. The move's number\n"
	"is read from the game first and sent with it, so a command run twice cannot play twice:\n"
	"the second finds it is not your turn (and no warning is given). --number N plays only if\n"
	"the move would be number N. --remove: prediction rules only (seed 000, Art. 4.3), where\n"
	"the move leaves both sides with chains without liberties, whose go: your own or (the\n"
	"default) the opponent's. Needs a login.\n";
static const char pass_usage[] =
	"usage: tengen [GLOBAL OPTIONS] pass GAME [--number N] [--json]\n"
	"Pass in game GAME (numbered as play does). After two passes the game is counted: name\n"
	"the dead stones with tengen dead. Needs a login.\n";
static const char dead_usage[] =
	"usage: tengen [GLOBAL OPTIONS] dead GAME [VERTEX...] [--json]\n"
	"Claim the dead stones in game GAME while it is counting (any stone marks its chain; no\n"
	"VERTEX: every stone alive). Equal claims end the game counted; different ones resume\n"
	"play (Chinese Rules 2002, Art. 8 and 21). Needs a login.\n";

struct act {
	json_int_t game;
	const char *vertex;  /* play: the vertex ("pass" for pass) */
	json_int_t number;   /* play: --number, 0 to take it from the game */
	const char *remove;  /* play: --remove own|opponent (prediction rules), NULL: not sent */
	json_t *stones;      /* dead: the claim */
	json_t *result;      /* the action's ok reply (kept for --json and the last line) */
	bool opening;        /* play: a prediction game's opening stone (clocks are by player) */
	int exit;            /* the status once the game is fetched: CMD_EXIT_OK, or _REFUSED
				for a forfeited turn (the move was refused, a pass recorded) */
};

static void act_done_game(struct session *s, json_t *reply, void *arg);

/* Fetch the game after the action, to say what it led to. */
static void act_fetch_after(struct cli *c)
{
	struct act *x = c->ctx;
	cli_send(c, json_pack("{s:s, s:I}", "cmd", "game", "game", x->game), act_done_game);
}

static void act_done_game(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct act *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	const char *phase = cli_str_or(g, "phase", "?");
	if (strcmp(phase, "counting") == 0) {
		printf("%s: game %lld is counting. Claim the dead stones: tengen dead %lld "
		       "VERTEX... (none: tengen dead %lld).\n",
		       x->exit ? "Two passes in a row (the forfeited turn counts as one)" : "Both passed",
		       (long long)x->game, (long long)x->game, (long long)x->game);
	} else if (strcmp(phase, "ended") == 0) {
		printf("Game %lld is over. ", (long long)x->game);
		cli_print_result(json_string_value(json_object_get(g, "result")),
				 json_string_value(json_object_get(g, "reason")),
				 json_object_get(g, "score"));
	} else if (strcmp(phase, "playing") == 0) {
		const char *to_move = json_string_value(json_object_get(g, "to_move"));
		printf("Game %lld goes on: %s to move.\n", (long long)x->game, color_name(to_move));
	}
	cli_finish(c, x->exit);
}

/* What every playing command does first with its reply: nothing for none (the connection's
 * end is reported elsewhere), exit CMD_EXIT_REFUSED on an error reply (reported once, on
 * stderr), print it whole under --json. True when the reply needs nothing more. */
static bool reply_handled(struct cli *c, json_t *reply)
{
	if (!reply)
		return true;
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return true;
	}
	if (c->opt->json) {
		cli_print_json(reply);
		cli_finish(c, CMD_EXIT_OK);
		return true;
	}
	return false;
}

static void play_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct act *x = c->ctx;
	(void)s;
	const json_t *err = json_object_get(reply, "error");
	bool forfeited = json_is_true(json_object_get(json_object_get(err, "penalty"), "forfeit_turn"));
	if (forfeited && !c->opt->json) {
		/* Art. 19: the refused move counts as a pass, which may end play (two passes) or the
		 * game (a loss): say what it led to, still exiting as refused. */
		cli_reply_ok(c, reply); /* reports the refusal */
		x->exit = CMD_EXIT_REFUSED;
		act_fetch_after(c);
		return;
	}
	if (reply_handled(c, reply))
		return;
	const json_t *mv = json_object_get(reply, "move");
	const char *color = json_string_value(json_object_get(mv, "color"));
	const char *vertex = cli_str_or(mv, "vertex", "?");
	printf("Game %lld, move %lld: %s %s", (long long)x->game,
	       (long long)json_integer_value(json_object_get(mv, "number")), color_name(color),
	       strcmp(vertex, "pass") == 0 ? "passes" : vertex);
	const json_t *caps = json_object_get(mv, "captures");
	if (json_array_size(caps) > 0) {
		printf(", captures %zu:", json_array_size(caps));
		size_t i;
		const json_t *v;
		json_array_foreach(caps, i, v)
			printf(" %s", json_string_value(v));
		/* seed 000, Art. 4.2-4.3: the mover's own chains went (a suicide, or chosen) */
		if (strcmp(cli_str_or(mv, "removed", ""), "own") == 0)
			printf(" (your own chains removed)");
	}
	const json_t *clocks = json_object_get(mv, "clocks");
	const json_t *clock = color && !x->opening ? json_object_get(clocks, color) : NULL;
	if (clock) {
		char buf[64];
		cli_format_clock(clock, buf, sizeof buf);
		printf(" (your clock: %s)", buf);
	}
	printf(".\n");
	if (strcmp(vertex, "pass") == 0) {
		act_fetch_after(c); /* counting now? */
		return;
	}
	cli_finish(c, CMD_EXIT_OK);
}

/* The move `next` to the server (as `number`, so a command run twice cannot play twice). */
static void play_send(struct cli *c, json_int_t next)
{
	struct act *x = c->ctx;
	if (x->number && x->number != next) {
		cli_errorf("game %lld: the next move is number %lld, not %lld", (long long)x->game,
			   (long long)next, (long long)x->number);
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	json_t *req = json_pack("{s:s, s:I, s:s, s:I}", "cmd", "play", "game", x->game, "vertex",
				x->vertex, "number", next);
	if (req && x->remove)
		json_object_set_new(req, "remove", json_string(x->remove));
	cli_send(c, req, play_reply);
}

/* A prediction-rules game before play (seed 000, Art. 5.2; docs/protocol.md "Prediction
 * ruleset"): the opening's stones 1 and 4 are the first player's, 2 and 3 the second's (the
 * game's `black`/`white` are null until the predictions are shown); `to_move` is the colour of
 * the stone due. A pass goes to the server, which refuses it (no_pass) without penalty. */
static void play_opening(struct cli *c, const json_t *g, const char *phase)
{
	struct act *x = c->ctx;
	const char *user = c->opt->user;
	const char *first = cli_str_or(g, "first", ""), *second = cli_str_or(g, "second", "");
	json_int_t n = (json_int_t)json_array_size(json_object_get(g, "moves"));
	const char *due = n == 0 || n == 3 ? first : second;
	if (strcasecmp(first, user) != 0 && strcasecmp(second, user) != 0)
		cli_errorf("you do not play in game %lld", (long long)x->game);
	else if (strcmp(phase, "predicting") == 0)
		cli_errorf("game %lld is predicting: seal your prediction first (tengen predict %lld "
			   "W+7)", (long long)x->game, (long long)x->game);
	else if (strcasecmp(due, user) != 0)
		cli_errorf("it is not your turn in game %lld: %s places opening stone %lld (%s)",
			   (long long)x->game, due, (long long)n + 1,
			   color_name(json_string_value(json_object_get(g, "to_move"))));
	else {
		x->opening = true;
		play_send(c, n + 1);
		return;
	}
	cli_finish(c, CMD_EXIT_REFUSED);
}

/* The game before a move: is it ours to play? Then play with the next number. */
static void play_game(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct act *x = c->ctx;
	(void)s;
	if (!reply)
		return;
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_REFUSED);
		return;
	}
	const json_t *g = json_object_get(reply, "game");
	const char *user = c->opt->user;
	const char *mine = strcasecmp(cli_str_or(g, "black", ""), user) == 0   ? "B"
			   : strcasecmp(cli_str_or(g, "white", ""), user) == 0 ? "W"
									       : NULL;
	const char *phase = cli_str_or(g, "phase", "?");
	const char *to_move = json_string_value(json_object_get(g, "to_move"));
	if (strcmp(phase, "opening") == 0 || strcmp(phase, "predicting") == 0) {
		play_opening(c, g, phase);
		return;
	}
	/* Refused here, before the server would count a move out of turn as a warning (a vertex
	 * that is none said too: "not your turn" alone for Z99 read as if Z99 were a point) */
	int vx, vy;
	long long gsize = (long long)json_integer_value(json_object_get(g, "size"));
	bool bad = x->vertex && gsize > 0 && vertex_parse_xy((int)gsize, x->vertex, &vx, &vy) < 0;
	if (!mine) {
		cli_errorf("you do not play in game %lld", (long long)x->game);
	} else if (strcmp(phase, "playing") != 0) {
		cli_errorf("game %lld is %s, not playing%s", (long long)x->game, phase,
			   strcmp(phase, "counting") == 0 ? " (claim dead stones: tengen dead)" : "");
	} else if (!to_move || strcmp(to_move, mine) != 0) {
		cli_errorf("it is not your turn in game %lld: %s to move%s%s%s", (long long)x->game,
			   color_name(to_move), bad ? "; and '" : "", bad ? x->vertex : "",
			   bad ? "' is not a vertex of the board (a column letter without I, then the "
				 "row: D4)" : "");
	} else {
		play_send(c, (json_int_t)json_array_size(json_object_get(g, "moves")) + 1);
		return;
	}
	cli_finish(c, CMD_EXIT_REFUSED);
}

static void play_start(struct cli *c)
{
	struct act *x = c->ctx;
	cli_send(c, json_pack("{s:s, s:I}", "cmd", "game", "game", x->game), play_game);
}

/* play GAME VERTEX and pass GAME: `vertex` NULL takes it from the arguments. */
static int play_command(int argc, char **argv, const char *usage, const char *vertex)
{
	struct cli_opts o = {0};
	static const struct cli_option opts[] = {{"--number", true}, {"--remove", true}};
	const char *values[2] = {NULL, NULL};
	const char *pos[2];
	int npos;
	int want = vertex ? 1 : 2;
	int st = parse(argc, argv, &o, usage, opts, vertex ? 1 : 2, values, pos, want, want, &npos);
	if (st >= 0)
		return st;
	struct act x = {.vertex = vertex ? vertex : pos[1], .remove = values[1]};
	if (cli_parse_id("GAME", pos[0], &x.game) != 0 ||
	    (values[0] && cli_parse_id("--number", values[0], &x.number) != 0))
		return CMD_EXIT_USAGE;
	if (x.remove && strcmp(x.remove, "own") != 0 && strcmp(x.remove, "opponent") != 0) {
		cli_errorf("--remove: own or opponent, not '%s' (whose chains go where both sides "
			   "are left without liberties: seed 000, Art. 4.3)", x.remove);
		return CMD_EXIT_USAGE;
	}
	if (!o.user) {
		cli_errorf("%s: log in as the player: --user NAME (with --password-file F or "
			   "TENGEN_PASSWORD)", argv[0]);
		return CMD_EXIT_USAGE;
	}
	return cli_run(&o, true, play_start, NULL, &x);
}

int cmd_play(int argc, char **argv)
{
	return play_command(argc, argv, play_usage, NULL);
}

int cmd_pass(int argc, char **argv)
{
	return play_command(argc, argv, pass_usage, "pass");
}

static void dead_reply(struct session *s, json_t *reply, void *arg)
{
	struct cli *c = CLI_OF(arg);
	struct act *x = c->ctx;
	(void)s;
	if (reply_handled(c, reply))
		return;
	printf("Claimed in game %lld: ", (long long)x->game);
	if (json_array_size(x->stones) == 0) {
		printf("every stone alive");
	} else {
		printf("dead");
		size_t i;
		const json_t *v;
		json_array_foreach(x->stones, i, v)
			printf(" %s", json_string_value(v));
	}
	if (json_is_true(json_object_get(reply, "resumed"))) {
		printf(". The claims differ: play resumes (Art. 21).\n");
		act_fetch_after(c);
	} else if (json_is_true(json_object_get(reply, "ended"))) {
		printf(". The claims agree.\n");
		act_fetch_after(c);
	} else {
		printf(". Waiting for the opponent's claim.\n");
		cli_finish(c, CMD_EXIT_OK);
	}
}

static void dead_start(struct cli *c)
{
	struct act *x = c->ctx;
	cli_send(c, json_pack("{s:s, s:I, s:O}", "cmd", "dead", "game", x->game, "stones", x->stones),
		 dead_reply);
}

int cmd_dead(int argc, char **argv)
{
	struct cli_opts o = {0};
	const char *pos[1 + PLAY_MAX_STONES];
	int npos;
	int st = parse(argc, argv, &o, dead_usage, NULL, 0, NULL, pos, 1, 1 + PLAY_MAX_STONES, &npos);
	if (st >= 0)
		return st;
	struct act x = {0};
	if (cli_parse_id("GAME", pos[0], &x.game) != 0)
		return CMD_EXIT_USAGE;
	x.stones = json_array();
	/* "A3 B3" or "A3,B3": both forms */
	for (int i = 1; i < npos && x.stones; i++) {
		char buf[16];
		const char *p = pos[i];
		while (*p) {
			size_t n = strcspn(p, ",");
			if (n > 0 && n < sizeof buf) {
				memcpy(buf, p, n);
				buf[n] = '\0';
				json_array_append_new(x.stones, json_string(buf));
			} else if (n > 0) {
				cli_errorf("dead: '%s' is not a vertex", p);
				json_decref(x.stones);
				return CMD_EXIT_USAGE;
			}
			p += n + (p[n] == ',');
		}
	}
	if (!x.stones) {
		cli_errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	int status = cli_run(&o, true, dead_start, NULL, &x);
	json_decref(x.stones);
	return status;
}

/* ---- players ---- */

static const char players_usage[] =
	"usage: tengen [GLOBAL OPTIONS] players [--sort rating|name|games|last_played]\n"
	"                                       [--limit N] [--json]\n"
	"List the players (the leaderboard): rank, rating and deviation (Glicko-2), games.\n";

static void players_print(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	const json_t *rows = json_object_get(reply, "players");
	printf("%-20s %5s %7s %5s %6s\n", "Player", "Rank", "Rating", "RD", "Games");
	size_t i;
	const json_t *p;
	json_array_foreach(rows, i, p) {
		const json_t *games = json_object_get(p, "games");
		const char *nm = cli_str_or(p, "name", "?");
		printf("%-*s %5s %7.0f %5.0f ", cli_width(nm, 20), nm, cli_str_or(p, "rank", "-"),
		       json_number_value(json_object_get(p, "rating")),
		       json_number_value(json_object_get(p, "rd")));
		if (json_is_integer(games))
			printf("%6lld\n", (long long)json_integer_value(games));
		else
			printf("%6s\n", "-");
	}
	if (json_array_size(rows) == 0)
		puts("(no players)");
}

int cmd_players(int argc, char **argv)
{
	struct cli_opts o = {0};
	static const struct cli_option opts[] = {{"--sort", true}, {"--limit", true}};
	const char *values[2] = {NULL, NULL};
	const char *pos[1];
	int npos;
	int st = parse(argc, argv, &o, players_usage, opts, 2, values, pos, 0, 0, &npos);
	if (st >= 0)
		return st;
	json_int_t limit = 0;
	if (values[1] && cli_parse_id("--limit", values[1], &limit) != 0)
		return CMD_EXIT_USAGE;
	json_t *req = json_pack("{s:s, s:s?}", "cmd", "players", "sort", values[0]);
	if (req && limit)
		json_object_set_new(req, "limit", json_integer(limit));
	return cli_run_batch(&o, o.user != NULL, cli_batch_of(req), players_print, NULL);
}
