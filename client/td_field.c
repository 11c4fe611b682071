/* client/td_field: the director's subcommands for the field and the pairing (issue 16): enter
 * a person without an account, import a player list (CSV with a header, or the EGD rating
 * list), print the field as CSV, mark an absence, change the current round's pairing, set a
 * player's profile; and tournaments named by name. See td.h. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli_print.h"
#include "td.h"

#define TD_CSV_FIELDS 16    /* columns of an imported CSV line read */
#define TD_WHAT_LEN 4352    /* bytes of "td import: FILE line N" (FILE a path) */

const char td_field_usage[] =
	"  td enter T \"Surname Firstname\" [--rank R] [--country CC] [--club CLUB] [--pin PIN]\n"
	"                                        enter a person without an account (board events)\n"
	"  td import T FILE|- [--egd]            enter a player list: CSV with a header (name,rank,\n"
	"                                        country,club,egd_pin[,account]; account: register\n"
	"                                        that account instead; separated by commas, or\n"
	"                                        semicolons or tabs as spreadsheets write them), or\n"
	"                                        with --egd the EGD rating list's lines; a line per\n"
	"                                        reply, exit 3 if any refused\n"
	"  td players T                          the field as CSV (the columns td import reads)\n"
	"  td absent T PLAYER ROUND              not paired in ROUND (Swiss, McMahon)\n"
	"  td unpair T                           take the current round's pairing back while none\n"
	"                                        of its games has begun (to mark an absence or\n"
	"                                        enter a late player); td start pairs it again\n"
	"  td pair T swap PLAYER PLAYER | colors GAME | handicap GAME N | bye PLAYER\n"
	"                                        change the current round's pairing before its\n"
	"                                        games begin\n"
	"  td profile PLAYER [--name \"Surname Firstname\"] [--rank R] [--country CC] [--club CLUB]\n"
	"            [--pin PIN]                 set an account's profile\n"
	"  td delete T                           delete a tournament made by mistake, while it has\n"
	"                                        no games (before round 1 is paired): its name is\n"
	"                                        free again\n";

/* ---- tournaments by name ---- */

int td_tournament_arg(const char *s, json_t **out)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (!errno && end != s && !*end) {
		if (v < 1) {
			cli_errorf("TOURNAMENT must be a positive number or a name, not '%s'", s);
			return -1;
		}
		*out = json_integer(v);
	} else {
		if (!*s) {
			cli_errorf("TOURNAMENT must be a positive number or a name, not ''");
			return -1;
		}
		*out = json_string(s);
	}
	return *out ? 0 : -1;
}

struct resolve {
	json_t *reqs;
};

static void resolve_reply(struct session *s, json_t *reply, void *arg)
{
	(void)s;
	struct cli *c = CLI_OF(arg);
	struct resolve *r = c->ctx;
	if (!cli_reply_ok(c, reply)) {
		cli_finish(c, CMD_EXIT_FAILURE);
		return;
	}
	size_t i, k;
	json_t *req, *t;
	json_array_foreach(r->reqs, i, req) {
		const char *name = json_string_value(json_object_get(req, "tournament"));
		if (!name)
			continue;
		json_int_t id = 0;
		json_array_foreach(json_object_get(reply, "tournaments"), k, t)
			if (strcasecmp(cli_str_or(t, "name", ""), name) == 0)
				id = json_integer_value(json_object_get(t, "id"));
		if (!id) { /* as the server's refusal of an unknown id: exit 3, the code said */
			cli_errorf("no tournament named '%s' (not_found; td list shows them)", name);
			cli_finish(c, CMD_EXIT_REFUSED);
			return;
		}
		json_object_set_new(req, "tournament", json_integer(id));
	}
	cli_finish(c, CMD_EXIT_OK);
}

static void resolve_start(struct cli *c)
{
	cli_send(c, json_pack("{s:s}", "cmd", "tournament.list"), resolve_reply);
}

int td_resolve_tournaments(const struct cli_opts *o, json_t *reqs)
{
	size_t i;
	json_t *req;
	bool any = false;
	json_array_foreach(reqs, i, req)
		any |= json_is_string(json_object_get(req, "tournament"));
	if (!any)
		return 0;
	struct resolve r = {reqs};
	struct cli_opts quiet = *o;
	quiet.json = false; /* the lookup's reply is not the command's output */
	return cli_run(&quiet, false, resolve_start, NULL, &r);
}

/* ---- td show's details ---- */

void td_print_entry_details(const json_t *p)
{
	if (json_is_true(json_object_get(p, "entrant")))
		fputs("  entrant", stdout);
	const char *full = json_string_value(json_object_get(p, "full_name"));
	if (full)
		printf("  \"%s\"", full);
	static const char *const keys[3] = {"country", "club", "egd_pin"};
	static const char *const labels[3] = {"country", "club", "PIN"};
	for (int k = 0; k < 3; k++) {
		const char *v = json_string_value(json_object_get(p, keys[k]));
		if (v)
			printf("  %s %s", labels[k], v);
	}
	const json_t *absent = json_object_get(p, "absent");
	if (json_array_size(absent) > 0) {
		size_t i;
		const json_t *r;
		fputs("  absent: [", stdout);
		json_array_foreach(absent, i, r)
			printf("%s%lld", i ? ", " : "", (long long)json_integer_value(r));
		putchar(']');
	}
	long long late = (long long)json_integer_value(json_object_get(p, "entered_round"));
	if (late > 0)
		printf("  entered after round %lld", late);
}

void td_print_event_details(const json_t *t)
{
	const json_t *st = json_object_get(t, "settings");
	const char *venue = json_string_value(json_object_get(st, "venue"));
	if (!venue)
		venue = json_string_value(json_object_get(t, "venue"));
	printf("Venue: %s\n", venue && strcmp(venue, "board") == 0 ?
	       "board (games at real boards, results from the director)" :
	       "online (games on the server, with clocks)");
	const char *place = json_string_value(json_object_get(st, "place"));
	if (!place)
		place = json_string_value(json_object_get(t, "place"));
	if (place)
		printf("Place: %s\n", place);
}

static void print_names(const json_t *names)
{
	size_t i;
	const json_t *n;
	json_array_foreach(names, i, n)
		printf("%s%s", i ? ", " : "", json_string_value(n) ? json_string_value(n) : "?");
}

void td_print_teams(const json_t *t)
{
	const json_t *teams = json_object_get(t, "teams");
	if (json_array_size(teams) == 0)
		return;
	printf("Teams (%zu):\n", json_array_size(teams));
	size_t i;
	const json_t *tm;
	json_array_foreach(teams, i, tm) {
		printf("  %lld %s: ", (long long)json_integer_value(json_object_get(tm, "team")),
		       cli_str_or(tm, "name", "?"));
		print_names(json_object_get(tm, "players"));
		if (json_array_size(json_object_get(tm, "reserves")) > 0) {
			fputs(" (reserves: ", stdout);
			print_names(json_object_get(tm, "reserves"));
			putchar(')');
		}
		putchar('\n');
	}
}

/* ---- printers ---- */

static void print_entered(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	td_print_entry(cli_str_or(reply, "player", "?"),
		       (long long)json_integer_value(json_object_get(reply, "tournament")), reply);
}

void td_print_entry(const char *player, long long tournament, const json_t *reply)
{
	long long back = (long long)json_integer_value(json_object_get(reply, "reinstated_after"));
	if (back > 0) {
		printf("%s is back in tournament %lld (withdrawn after round %lld; paired again from "
		       "the next round; the rounds missed count as absent, or in a round robin "
		       "their forfeits stand)\n", player, tournament, back);
		return;
	}
	printf("registered %s in tournament %lld (%lld players)", player, tournament,
	       (long long)json_integer_value(json_object_get(reply, "players")));
	long long late = (long long)json_integer_value(json_object_get(reply, "entered_round"));
	if (late == 1)
		printf(", late: absent in round 1");
	else if (late > 1)
		printf(", late: absent in rounds 1-%lld", late);
	putchar('\n');
}

/* td import: the line of the file the reply answers. */
static long long import_lineno(const struct cli_batch *b)
{
	const struct td_ctx *x = b->ctx;
	return json_integer_value(json_array_get(x->lines, b->next - 1));
}

static const char *req_name(const json_t *req)
{
	const json_t *e = json_object_get(req, "entrant");
	return e ? cli_str_or(e, "name", "?") : cli_str_or(req, "player", "?");
}

static void print_import_line(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	printf("line %lld: ", import_lineno(b));
	print_entered(b, req, reply);
}

static void print_import_refused(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	const json_t *err = json_object_get(reply, "error");
	cli_errorf("line %lld: %s: %s (%s)", import_lineno(b), req_name(req),
		   cli_str_or(err, "message", "(no message)"), cli_str_or(err, "code", "internal"));
}

static void print_ok_line(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)reply;
	const char *cmd = cli_str_or(req, "cmd", "");
	if (strcmp(cmd, "tournament.absent") == 0)
		printf("%s is absent in round %lld\n", cli_str_or(req, "player", "?"),
		       (long long)json_integer_value(json_object_get(req, "round")));
	else if (strcmp(cmd, "tournament.pair_edit") == 0) {
		printf("round %lld: %s done (td show, or tengen pairings, shows the round)\n",
		       (long long)json_integer_value(json_object_get(reply, "round")),
		       cli_str_or(req, "op", "?"));
		size_t i;
		const json_t *w;
		json_array_foreach(json_object_get(reply, "warnings"), i, w) /* a rematch, ... */
			printf("  warning: %s\n", json_string_value(w));
	} else
		printf("profile of %s updated\n", cli_str_or(json_object_get(reply, "player"), "name",
							    "?"));
}

/* A CSV field: quoted if it holds a comma, a quote or a line break. */
static void csv_field(const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		putchar('"');
		for (; *s; s++) {
			if (*s == '"')
				putchar('"');
			putchar(*s);
		}
		putchar('"');
	} else {
		fputs(s, stdout);
	}
	putchar(last ? '\n' : ',');
}

static void print_players_csv(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	puts("name,rank,country,club,egd_pin,account");
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(json_object_get(reply, "tournament"), "field"), i, p) {
		if (json_is_true(json_object_get(p, "withdrawn_before_start")))
			continue;
		bool entrant = json_is_true(json_object_get(p, "entrant"));
		const char *name = cli_str_or(p, "name", "");
		csv_field(entrant ? name : cli_str_or(p, "full_name", name), false);
		csv_field(cli_str_or(p, "rank", ""), false);
		csv_field(cli_str_or(p, "country", ""), false);
		csv_field(cli_str_or(p, "club", ""), false);
		csv_field(cli_str_or(p, "egd_pin", ""), false);
		csv_field(entrant ? "" : name, true);
	}
}

/* ---- subcommands ---- */

/* The profile options of td enter and td profile into obj. */
static const struct cli_option profile_opts[] = {
	{"--rank", true}, {"--country", true}, {"--club", true}, {"--pin", true}, {"--name", true}};
enum { PO_RANK, PO_COUNTRY, PO_CLUB, PO_PIN, PO_NAME, PO_N };

static void profile_set(json_t *obj, const char *const *v, const char *name_key)
{
	static const char *const keys[PO_N] = {"rank", "country", "club", "egd_pin", NULL};
	for (int k = 0; k < PO_N; k++)
		if (v[k])
			json_object_set_new(obj, keys[k] ? keys[k] : name_key, json_string(v[k]));
}

int td_entrant(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *v[PO_N] = {0};
	const char *pos[2];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_field_usage, profile_opts, PO_N - 1, v, pos, 2,
			       &npos);
	if (r != 0)
		return r;
	json_t *t;
	if (npos != 2) {
		cli_errorf("td enter: give the TOURNAMENT and the person's \"Surname Firstname\"");
		return -1;
	}
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	json_t *e = json_pack("{s:s}", "name", pos[1]);
	profile_set(e, v, "name");
	return td_one(x, json_pack("{s:s, s:o, s:o}", "cmd", "tournament.register", "tournament", t,
				   "entrant", e),
		      print_entered);
}

/* Split CSV line s (modified) into at most max fields separated by `sep`; quotes as RFC 4180
 * within one line. Returns the count. */
static int csv_split(char *s, char **f, int max, char sep)
{
	int n = 0;
	char *w = s;
	s[strcspn(s, "\r\n")] = '\0';
	while (n < max) {
		f[n++] = w;
		char *out = w;
		bool quoted = *s == '"';
		if (quoted)
			s++;
		for (; *s; s++) {
			if (quoted && *s == '"') {
				if (s[1] == '"') {
					*out++ = '"';
					s++;
					continue;
				}
				quoted = false;
				continue;
			}
			if (!quoted && *s == sep)
				break;
			*out++ = *s;
		}
		bool more = *s == sep;
		*out = '\0';
		if (!more)
			break;
		w = ++s;
	}
	return n;
}

/* The separator of a CSV file from its header line: ',' unless ';' (a spreadsheet's in a
 * locale with a decimal comma) or a tab is more frequent. */
static char csv_separator(const char *hdr)
{
	size_t n[3] = {0, 0, 0};
	for (const char *p = hdr; *p; p++)
		n[0] += *p == ',', n[1] += *p == ';', n[2] += *p == '\t';
	return n[1] > n[0] && n[1] >= n[2] ? ';' : n[2] > n[0] ? '\t' : ',';
}

/* A CSV row of the columns in `cols` (header names) into a tournament.register request for
 * t (borrowed), or NULL (message) when it names no one. */
static json_t *csv_request(char **f, int n, char *const *cols, int ncols, const json_t *t,
			   const char *where)
{
	json_t *e = json_object();
	const char *account = NULL;
	for (int k = 0; k < n && k < ncols; k++) {
		if (!f[k][0])
			continue;
		if (strcmp(cols[k], "account") == 0)
			account = f[k];
		else if (!strcmp(cols[k], "name") || !strcmp(cols[k], "rank") ||
			 !strcmp(cols[k], "country") || !strcmp(cols[k], "club") ||
			 !strcmp(cols[k], "egd_pin"))
			json_object_set_new(e, cols[k], json_string(f[k]));
	}
	if (account) {
		json_decref(e);
		return json_pack("{s:s, s:O, s:s}", "cmd", "tournament.register", "tournament", t,
				 "player", account);
	}
	if (!json_object_get(e, "name")) {
		json_decref(e);
		cli_errorf("%s: no name", where);
		return NULL;
	}
	return json_pack("{s:s, s:O, s:o}", "cmd", "tournament.register", "tournament", t, "entrant", e);
}

json_t *td_egd_line(const char *line)
{
	size_t n = strlen(line);
	char buf[64];
	if (n < 63)
		return NULL;
	for (int i = 1; i <= 8; i++)
		if (!isdigit((unsigned char)line[i]))
			return NULL;
	/* [from, to) of the line, trimmed, into buf */
#define COL(from, to) do { \
		size_t a = (from), z = (to) < n ? (to) : n; \
		while (a < z && line[a] == ' ') a++; \
		while (z > a && (line[z - 1] == ' ' || line[z - 1] == '\r' || line[z - 1] == '\n')) z--; \
		snprintf(buf, sizeof buf, "%.*s", (int)(z - a), line + a); \
	} while (0)
	json_t *e = json_object();
	COL(1, 9);
	json_object_set_new(e, "egd_pin", json_string(buf));
	COL(11, 48);
	json_object_set_new(e, "name", json_string(buf));
	COL(49, 52);
	if (buf[0] && strcmp(buf, "XX") != 0)
		json_object_set_new(e, "country", json_string(buf));
	COL(53, 57);
	if (buf[0] && strcmp(buf, "-") != 0 && strcasecmp(buf, "xxxx") != 0)
		json_object_set_new(e, "club", json_string(buf));
	COL(60, 63);
	if (buf[0])
		json_object_set_new(e, "rank", json_string(buf));
#undef COL
	return e;
}

/* The lines of f into x's requests for tournament t (borrowed). Returns 0 or -1 (message). */
static int import_lines(FILE *f, const char *file, bool egd, const json_t *t, struct td_ctx *x)
{
	char *line = NULL, *cols[TD_CSV_FIELDS], *hdr = NULL, *fields[TD_CSV_FIELDS];
	size_t cap = 0;
	int lineno = 0, ncols = 0, rc = 0;
	char where[TD_WHAT_LEN], sep = ',';
	while (rc == 0 && getline(&line, &cap, f) >= 0) {
		snprintf(where, sizeof where, "td import: %s line %d", file, ++lineno);
		json_t *req = NULL;
		if (lineno == 1 && memcmp(line, "\xef\xbb\xbf", 3) == 0) /* a UTF-8 BOM (Excel) */
			memmove(line, line + 3, strlen(line + 3) + 1);
		if (egd) {
			json_t *e = td_egd_line(line);
			if (e)
				req = json_pack("{s:s, s:O, s:o}", "cmd", "tournament.register",
						"tournament", t, "entrant", e);
		} else if (line[strspn(line, " \t\r\n")] == '\0' || line[0] == '#') {
			continue;
		} else if (!hdr) {
			hdr = strdup(line);
			sep = csv_separator(line);
			ncols = hdr ? csv_split(hdr, cols, TD_CSV_FIELDS, sep) : 0;
			for (int k = 0; k < ncols; k++) {
				for (char *p = cols[k]; *p; p++)
					*p = (char)tolower((unsigned char)*p);
				cols[k] += strspn(cols[k], " ");
			}
			bool has_name = false;
			for (int k = 0; k < ncols; k++)
				has_name |= !strcmp(cols[k], "name") || !strcmp(cols[k], "account");
			if (!has_name) {
				cli_errorf("%s: the header names no 'name' column (name,rank,country,"
					   "club,egd_pin; separated by commas, semicolons or tabs)", where);
				rc = -1;
			}
			continue;
		} else {
			int n = csv_split(line, fields, TD_CSV_FIELDS, sep);
			if (!(req = csv_request(fields, n, cols, ncols, t, where)))
				rc = -1;
		}
		if (req && (json_array_append_new(x->reqs, req) < 0 ||
			    json_array_append_new(x->lines, json_integer(lineno)) < 0))
			rc = -1;
	}
	free(line);
	free(hdr);
	return rc;
}

int td_import(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	static const struct cli_option opts[] = {{"--egd", false}};
	const char *v[1] = {0};
	const char *pos[2];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_field_usage, opts, 1, v, pos, 2, &npos);
	if (r != 0)
		return r;
	json_t *t;
	if (npos != 2) {
		cli_errorf("td import: give the TOURNAMENT and the FILE (- for stdin)");
		return -1;
	}
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	bool std_in = strcmp(pos[1], "-") == 0;
	FILE *f = std_in ? stdin : fopen(pos[1], "r");
	if (!f) {
		cli_errorf("td import: %s: %s", pos[1], strerror(errno));
		json_decref(t);
		return -1;
	}
	x->reqs = json_array();
	x->lines = json_array();
	x->print = print_import_line;
	x->print_error = print_import_refused;
	int rc = x->reqs && x->lines ? import_lines(f, std_in ? "stdin" : pos[1], v[0] != NULL, t, x)
				     : -1;
	if (rc == 0 && ferror(f)) {
		cli_errorf("td import: %s: %s", pos[1], strerror(errno));
		rc = -1;
	}
	if (!std_in)
		fclose(f);
	json_decref(t);
	if (rc == 0 && json_array_size(x->reqs) == 0) {
		cli_errorf("td import: no players in %s", std_in ? "stdin" : pos[1]);
		rc = -1;
	}
	return rc;
}

int td_players(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_field_usage, NULL, 0, NULL, pos, 1, &npos);
	if (r != 0)
		return r;
	json_t *t;
	if (npos != 1) {
		cli_errorf("td players: give the TOURNAMENT");
		return -1;
	}
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	return td_one(x, json_pack("{s:s, s:o}", "cmd", "tournament.get", "tournament", t),
		      print_players_csv);
}

int td_absent(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *pos[3];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_field_usage, NULL, 0, NULL, pos, 3, &npos);
	if (r != 0)
		return r;
	json_t *t;
	json_int_t round;
	if (npos != 3) {
		cli_errorf("td absent: give the TOURNAMENT, the PLAYER and the ROUND");
		return -1;
	}
	if (cli_parse_id("ROUND", pos[2], &round) != 0 || td_tournament_arg(pos[0], &t) != 0)
		return -1;
	return td_one(x, json_pack("{s:s, s:o, s:s, s:I}", "cmd", "tournament.absent", "tournament", t,
				   "player", pos[1], "round", round),
		      print_ok_line);
}

int td_pair(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *pos[4];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_field_usage, NULL, 0, NULL, pos, 4, &npos);
	if (r != 0)
		return r;
	json_t *t, *req = NULL;
	json_int_t g, n;
	const char *op = npos >= 2 ? pos[1] : "";
	if (npos < 3) {
		cli_errorf("td pair: give the TOURNAMENT, swap|colors|handicap|bye and their arguments");
		return -1;
	}
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	if (!strcmp(op, "swap") && npos == 4)
		req = json_pack("{s:s, s:s, s:s}", "op", "swap_players", "player_a", pos[2], "player_b",
				pos[3]);
	else if (!strcmp(op, "colors") && npos == 3 && cli_parse_id("GAME", pos[2], &g) == 0)
		req = json_pack("{s:s, s:I}", "op", "swap_colors", "game", g);
	else if (!strcmp(op, "handicap") && npos == 4 && cli_parse_id("GAME", pos[2], &g) == 0) {
		char *end;
		n = strtoll(pos[3], &end, 10);
		if (end != pos[3] && !*end && n >= 0 && n <= 9)
			req = json_pack("{s:s, s:I, s:I}", "op", "handicap", "game", g, "handicap", n);
	} else if (!strcmp(op, "bye") && npos == 3)
		req = json_pack("{s:s, s:s}", "op", "bye", "player", pos[2]);
	if (!req) {
		cli_errorf("td pair: swap PLAYER PLAYER, colors GAME, handicap GAME N (0-9) or bye "
			   "PLAYER");
		json_decref(t);
		return -1;
	}
	json_object_set_new(req, "cmd", json_string("tournament.pair_edit"));
	json_object_set_new(req, "tournament", t);
	return td_one(x, req, print_ok_line);
}

static void print_unpaired(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	long long round = (long long)json_integer_value(json_object_get(reply, "round"));
	printf("round %lld unpaired: %zu game%s called off; td start pairs it again\n", round,
	       json_array_size(json_object_get(reply, "games")),
	       json_array_size(json_object_get(reply, "games")) == 1 ? "" : "s");
}

/* A td command whose one argument is the TOURNAMENT (`what`: its name in messages): the
 * request {cmd, tournament} in x, printed by `print`. */
static int tournament_only(int argc, char **argv, struct cli_opts *o, struct td_ctx *x,
			   const char *what, const char *cmd, cli_print_fn print)
{
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_field_usage, NULL, 0, NULL, pos, 1, &npos);
	if (r != 0)
		return r;
	json_t *t;
	if (npos != 1) {
		cli_errorf("%s: give the TOURNAMENT", what);
		return -1;
	}
	if (td_tournament_arg(pos[0], &t) != 0)
		return -1;
	return td_one(x, json_pack("{s:s, s:o}", "cmd", cmd, "tournament", t), print);
}

int td_unpair(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return tournament_only(argc, argv, o, x, "td unpair", "tournament.unpair", print_unpaired);
}

static void print_deleted(struct cli_batch *b, const json_t *req, const json_t *reply)
{
	(void)b;
	(void)req;
	long long n = (long long)json_integer_value(json_object_get(reply, "entrants"));
	printf("tournament %lld deleted: %s", (long long)json_integer_value(json_object_get(reply,
	       "tournament")), cli_str_or(reply, "name", "?"));
	if (n > 0)
		printf(" (and its %lld entrant%s without an account)", n, n == 1 ? "" : "s");
	putchar('\n');
}

int td_delete(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	return tournament_only(argc, argv, o, x, "td delete", "tournament.delete", print_deleted);
}

int td_profile(int argc, char **argv, struct cli_opts *o, struct td_ctx *x)
{
	const char *v[PO_N] = {0};
	const char *pos[1];
	int npos;
	int r = cli_parse_args(argc, argv, o, td_field_usage, profile_opts, PO_N, v, pos, 1, &npos);
	if (r != 0)
		return r;
	if (npos != 1) {
		cli_errorf("td profile: give the PLAYER (an account)");
		return -1;
	}
	json_t *req = json_pack("{s:s, s:s}", "cmd", "player.update", "player", pos[0]);
	profile_set(req, v, "full_name");
	return td_one(x, req, print_ok_line);
}
