/* client/cmd_score: `tengen score` and `tengen replay`. See commands.h. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "board.h"
#include "referee.h"
#include "rules.h"
#include "ruleset.h"
#include "score.h"
#include "sgf.h"
#include "vertex.h"
#include "cli.h"
#include "cli_print.h"
#include "commands.h"

#define CMD_READ_CHUNK 65536 /* bytes read from the record per fread */
#define CMD_MAX_DEAD (BOARD_MAX_SIZE * BOARD_MAX_SIZE) /* --dead vertices in all */

/* ---- command line ---- */

enum counting_mode { COUNT_AREA = 0, COUNT_ALL_ALIVE };

/* Options of score and replay. */
struct options {
	const char *file;
	enum ko_rule ko;
	bool komi_set;
	double komi;
	enum counting_mode counting;
	const char **dead; /* the --dead arguments (comma-separated vertex lists) */
	int ndead;
};

/* The options of score; replay takes the first one only (--ko). */
enum { OPT_KO, OPT_DEAD, OPT_KOMI, OPT_COUNTING, NOPTS };
static const struct cli_option score_options[NOPTS] = {
	[OPT_KO] = {"--ko", true},
	[OPT_DEAD] = {"--dead", true},
	[OPT_KOMI] = {"--komi", true},
	[OPT_COUNTING] = {"--counting", true},
};

static const char score_usage[] =
	"usage: tengen score FILE.sgf [--dead V,V,...] [--komi K]\n"
	"                             [--ko situational|positional|simple] [--counting area|all-alive]\n"
	"Replay a game record through the referee and print the result as one JSON object.\n"
	"  --dead V,V,...  stones counted dead (GTP vertices; any stone marks its chain); without\n"
	"                  it, the stones the record counts dead: tengen's DS, and those in the\n"
	"                  other side's territory (TB/TW)\n"
	"  --komi K        komi in force, in points, handicap compensation included (default:\n"
	"                  the record's KM; HA adds nothing to it)\n"
	"  --ko RULE       repetition rule (default: situational)\n"
	"  --counting M    area (default; uses --dead) or all-alive (every stone alive)\n"
	"Warnings recorded in WN[b:w] (tengen's records) move one point each (Art. 24.1).\n"
	"FILE may be - for standard input.\n";

static const char replay_usage[] =
	"usage: tengen replay FILE.sgf [--ko situational|positional|simple]\n"
	"Replay a game record through the referee and print the final board.\n"
	"  --ko RULE       repetition rule (default: situational)\n"
	"FILE may be - for standard input.\n";

/* Parse komi: a finite number of points within SGF_MAX_KOMI. Returns 0 or -1. */
static int parse_komi(const char *s, double *out)
{
	char *end;
	errno = 0;
	double k = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !isfinite(k) || fabs(k) > SGF_MAX_KOMI)
		return -1;
	*out = k;
	return 0;
}

/* Take the value v of option `opt` (OPT_*) into o. Returns CMD_EXIT_OK or CMD_EXIT_USAGE
 * (message printed). */
static int set_option(struct options *o, int opt, const char *v)
{
	switch (opt) {
	case OPT_DEAD:
		o->dead[o->ndead++] = v;
		break;
	case OPT_KOMI:
		if (parse_komi(v, &o->komi) < 0) {
			cli_errorf("--komi: '%s' is not a komi in points (|K| <= %g)", v,
				   SGF_MAX_KOMI);
			return CMD_EXIT_USAGE;
		}
		o->komi_set = true;
		break;
	case OPT_KO:
		if (rules_parse_ko(v, &o->ko) < 0) {
			cli_errorf("--ko: '%s' is not situational, positional or simple", v);
			return CMD_EXIT_USAGE;
		}
		break;
	case OPT_COUNTING:
		if (strcmp(v, "area") == 0) {
			o->counting = COUNT_AREA;
		} else if (strcmp(v, "all-alive") == 0) {
			o->counting = COUNT_ALL_ALIVE;
		} else {
			cli_errorf("--counting: '%s' is not area or all-alive", v);
			return CMD_EXIT_USAGE;
		}
		break;
	}
	return CMD_EXIT_OK;
}

/* Parse the first nopts of score_options and one FILE operand ("--" ends the options).
 * Returns CMD_EXIT_OK, or CMD_EXIT_USAGE (message printed), or -1 after printing `usage` for
 * --help. o->dead is malloc'd (free it). */
static int parse_options(int argc, char **argv, int nopts, const char *usage, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->ko = KO_SITUATIONAL;
	o->counting = COUNT_AREA;
	o->dead = calloc((size_t)argc + 1, sizeof *o->dead);
	if (!o->dead) {
		cli_errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	struct cli_args a;
	cli_args_init(&a, argc, argv, NULL, score_options, nopts);
	a.dashdash = true;
	for (enum cli_token t; (t = cli_next(&a)) != CLI_END;) {
		int rc = CMD_EXIT_OK;
		switch (t) {
		case CLI_OPERAND:
			if (o->file) {
				cli_errorf("%s: one record at a time (extra operand '%s')", argv[0],
					   a.arg);
				return CMD_EXIT_USAGE;
			}
			o->file = a.arg;
			break;
		case CLI_DASHDASH:
			break;
		case CLI_HELP:
			fputs(usage, stdout);
			return -1;
		case CLI_OPTION:
			rc = set_option(o, a.opt, a.value);
			break;
		case CLI_MISSING:
			return CMD_EXIT_USAGE;
		default: /* CLI_UNKNOWN (no global options here) */
			cli_errorf("%s: unknown option '%s'", argv[0], a.arg);
			fputs(usage, stderr);
			return CMD_EXIT_USAGE;
		}
		if (rc != CMD_EXIT_OK)
			return rc;
	}
	if (!o->file) {
		cli_errorf("%s: no record given", argv[0]);
		fputs(usage, stderr);
		return CMD_EXIT_USAGE;
	}
	return CMD_EXIT_OK;
}

/* ---- reading the record ---- */

/* Read all of `path` ("-": stdin), at most SGF_MAX_INPUT + 1 bytes (one more than sgf_parse
 * takes, so an oversized record fails there with its limit message). Returns 0 with a
 * malloc'd *data, or -1 (message printed). */
static int read_record(const char *path, char **data, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f) {
		cli_errorf("%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int rc = 0;
	while (n < (size_t)SGF_MAX_INPUT + 1) {
		if (cap - n < CMD_READ_CHUNK) {
			size_t ncap = cap + CMD_READ_CHUNK;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				cli_errorf("%s: out of memory", path);
				rc = -1;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		size_t want = cap - n;
		if (want > (size_t)SGF_MAX_INPUT + 1 - n)
			want = (size_t)SGF_MAX_INPUT + 1 - n;
		size_t got = fread(buf + n, 1, want, f);
		n += got;
		if (got < want) {
			if (ferror(f)) {
				cli_errorf("%s: %s", path, strerror(errno));
				rc = -1;
			}
			break;
		}
	}
	if (f != stdin)
		fclose(f);
	if (rc < 0) {
		free(buf);
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}

/* Read and parse the record at `path` into *g. Returns CMD_EXIT_OK or CMD_EXIT_FAILURE
 * (message printed, with the parser's byte offset for a malformed record). */
static int load_record(const char *path, struct sgf_game *g)
{
	char *data = NULL;
	size_t len = 0;
	if (read_record(path, &data, &len) < 0)
		return CMD_EXIT_FAILURE;
	struct sgf_error err;
	memset(&err, 0, sizeof err);
	int st = sgf_parse(data ? data : "", len, g, &err);
	free(data);
	if (st != SGF_OK) {
		cli_errorf("%s: %s", path,
			   err.message[0] ? err.message : "cannot parse the record");
		return CMD_EXIT_FAILURE;
	}
	return CMD_EXIT_OK;
}

/* ---- replaying ---- */

struct illegal_move {
	int number; /* the move node, from 1 */
	enum color color;
	int pt;
	enum offence offence;
};

struct replay {
	struct sgf_game game;
	struct referee ref;
	bool ref_live;               /* ref was initialised */
	struct illegal_move *illegal; /* at most one per move node */
	size_t nillegal;
	bool ended;                  /* the referee ended the game by itself */
};

static void replay_free(struct replay *rp)
{
	if (rp->ref_live)
		referee_free(&rp->ref);
	sgf_game_free(&rp->game);
	free(rp->illegal);
}

static enum color sgf_color(int c)
{
	return c == SGF_WHITE ? WHITE : BLACK;
}

/* Start the referee for a record of the prediction rules (RU[Prediction], seed 000): the
 * opening is the record's first four moves; the predictions are not needed, only their bar,
 * which KM gives (minus the bar): both are taken as the bar, so the fourth stone opens play
 * under it. Returns CMD_EXIT_OK or CMD_EXIT_FAILURE (message printed). */
static int replay_start_prediction(struct replay *rp, const char *path, double komi,
				   enum ko_rule ko, bool decisive)
{
	const struct sgf_game *g = &rp->game;
	struct rules rules;
	bool rv;
	rules_default(&rules);
	rules.ko = ko;
	rules.ruleset = RULESET_PREDICTION;
	rules.decisive = decisive;
	if (g->nsetup_black || g->nsetup_white ||
	    referee_init_ruleset(&rp->ref, &ruleset_prediction, g->size, 0, 0, &rules) < 0) {
		cli_errorf("%s: a prediction-rules record has no setup stones (AB/AW) and a board "
			   "of %d to %d lines", path, BOARD_MIN_SIZE, BOARD_MAX_SIZE);
		return CMD_EXIT_FAILURE;
	}
	rp->ref_live = true;
	referee_predict(&rp->ref, PREDICT_FIRST, -komi, &rv);
	referee_predict(&rp->ref, PREDICT_SECOND, -komi, &rv);
	rp->illegal = calloc(g->nmoves ? g->nmoves : 1, sizeof *rp->illegal);
	if (!rp->illegal) {
		cli_errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	return CMD_EXIT_OK;
}

/* Start the referee for the record in rp->game: its size, the komi, the ko rule; setup
 * stones (AB/AW) are placed as they stand; with no setup stones, HA >= 2 places the GTP fixed
 * handicap. `komi` is the komi in force, handicap compensation included: tengen writes KM as
 * the ruleset's effective komi (docs/rules.md, Art. 11), and GNU Go's loadsgf also counts with KM
 * alone, HA aside; so the referee's own compensation for the handicap (HA, or the AB stones
 * when HA is given) is taken back out of the komi it is given, and the count uses KM. White
 * moves first when the first move is White's or PL[W]. Returns CMD_EXIT_OK or
 * CMD_EXIT_FAILURE (message printed). */
static int replay_start(struct replay *rp, const char *path, double komi, enum ko_rule ko)
{
	const struct sgf_game *g = &rp->game;
	struct rules rules;
	rules_default(&rules);
	rules.ko = ko;
	bool setup = g->nsetup_black > 0 || g->nsetup_white > 0;
	bool decisive;
	const struct ruleset *rs = ruleset_from_sgf(g->rules, &decisive);
	if (rs->bar == RULESET_BAR_PREDICTION) /* seed 000: KM is minus the bar */
		return replay_start_prediction(rp, path, komi, ko, decisive);
	int handicap = !setup && g->handicap >= 2 ? g->handicap : 0;
	int counted = setup ? (g->handicap != 0 ? (int)g->nsetup_black : 0) : handicap;
	komi -= rs->effective_komi(komi, counted) - komi;
	if (referee_init_ruleset(&rp->ref, rs, g->size, komi, handicap, &rules) < 0) {
		cli_errorf("%s: cannot start a %dx%d game with handicap %d (no fixed placement)",
			   path, g->size, g->size, handicap);
		return CMD_EXIT_FAILURE;
	}
	rp->ref_live = true;
	struct board *b = &rp->ref.board;
	for (int pass = 0; pass < 2; pass++) {
		const struct sgf_point *pts = pass == 0 ? g->setup_black : g->setup_white;
		size_t n = pass == 0 ? g->nsetup_black : g->nsetup_white;
		enum color c = pass == 0 ? BLACK : WHITE;
		for (size_t i = 0; i < n; i++) {
			if (board_setup(b, c, board_pt(b, pts[i].x, pts[i].y)) < 0) {
				char v[VERTEX_MAX_LEN];
				cli_errorf("%s: setup stone at %s on an occupied point", path,
					   vertex_format_xy(g->size, pts[i].x, pts[i].y, v));
				return CMD_EXIT_FAILURE;
			}
		}
	}
	if (setup)
		rp->ref.handicap = counted;
	if (g->first_color == SGF_WHITE || (g->nmoves > 0 && g->moves[0].color == SGF_WHITE))
		board_set_to_move(b, WHITE);
	else if (g->first_color == SGF_BLACK)
		board_set_to_move(b, BLACK);
	rp->illegal = calloc(g->nmoves ? g->nmoves : 1, sizeof *rp->illegal);
	if (!rp->illegal) {
		cli_errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	return CMD_EXIT_OK;
}

/* Replay every move node through the referee, noting each refused move. Stops when the
 * referee ends the game by itself (two warnings, a cycle voiding the game). Two passes open
 * the counting phase; if the record goes on, play resumed there (Art. 21.4), so the replay
 * resumes play with the record's next mover to move. Returns CMD_EXIT_OK or CMD_EXIT_FAILURE
 * (message printed). */
static int replay_run(struct replay *rp, const char *path)
{
	const struct sgf_game *g = &rp->game;
	struct referee *r = &rp->ref;
	struct referee_move *mv = malloc(sizeof *mv);
	if (!mv) {
		cli_errorf("out of memory");
		return CMD_EXIT_FAILURE;
	}
	int rc = CMD_EXIT_OK;
	for (size_t i = 0; i < g->nmoves; i++) {
		const struct sgf_move *m = &g->moves[i];
		enum color c = sgf_color(m->color);
		int pt = m->x < 0 ? BOARD_PASS : board_pt(&r->board, m->x, m->y);
		if (r->phase == PHASE_COUNTING) {
			r->phase = PHASE_PLAYING;
			r->passes = 0;
			r->claimed[BLACK] = r->claimed[WHITE] = false;
			board_set_to_move(&r->board, c);
		}
		/* seed 000: a move whose comment says it removed the mover's own chains */
		enum capture_choice ch = m->comment && strncmp(m->comment, CAPTURE_SGF_OWN,
							       strlen(CAPTURE_SGF_OWN)) == 0
			? CAPTURE_OWN : CAPTURE_OPPONENT;
		if (referee_play_choice(r, c, pt, ch, mv) < 0) {
			char v[VERTEX_MAX_LEN];
			cli_errorf("%s: move %zu (%s %s): the referee refused it in phase %s", path, i + 1,
				   c == BLACK ? "B" : "W", vertex_format(&r->board, pt, v),
				   referee_phase_name(r->phase));
			rc = CMD_EXIT_FAILURE;
			break;
		}
		if (mv->offence != OFFENCE_NONE)
			rp->illegal[rp->nillegal++] = (struct illegal_move){
				.number = (int)(i + 1), .color = c, .pt = pt, .offence = mv->offence};
		if (mv->ended) {
			rp->ended = true;
			break;
		}
	}
	free(mv);
	return rc;
}

/* Load the record at o->file and replay it. Returns CMD_EXIT_*. */
static int replay_file(struct replay *rp, const struct options *o)
{
	memset(rp, 0, sizeof *rp);
	sgf_game_init(&rp->game);
	int rc = load_record(o->file, &rp->game);
	if (rc != CMD_EXIT_OK)
		return rc;
	rc = replay_start(rp, o->file, o->komi_set ? o->komi : rp->game.komi, o->ko);
	if (rc != CMD_EXIT_OK)
		return rc;
	return replay_run(rp, o->file);
}

/* ---- score ---- */

/* Parse the --dead lists into points of `b`. Returns CMD_EXIT_OK, CMD_EXIT_USAGE for a bad
 * vertex, CMD_EXIT_FAILURE for too many (messages printed). */
static int parse_dead(const struct options *o, const struct board *b, int *pts, int *n)
{
	*n = 0;
	for (int i = 0; i < o->ndead; i++) {
		const char *s = o->dead[i];
		for (;;) {
			const char *comma = strchr(s, ',');
			size_t len = comma ? (size_t)(comma - s) : strlen(s);
			char v[VERTEX_MAX_LEN];
			int pt = -1;
			if (len < sizeof v) {
				memcpy(v, s, len);
				v[len] = '\0';
				pt = vertex_parse(b, v);
			}
			if (pt <= 0) { /* -1: no vertex of this board; BOARD_PASS: not a stone */
				cli_errorf("--dead: '%.*s' is not a point of a %dx%d board", (int)len, s,
					   b->size, b->size);
				return CMD_EXIT_USAGE;
			}
			if (*n >= CMD_MAX_DEAD) {
				cli_errorf("--dead: more than %d vertices", CMD_MAX_DEAD);
				return CMD_EXIT_USAGE;
			}
			pts[(*n)++] = pt;
			if (!comma)
				break;
			s = comma + 1;
		}
	}
	return CMD_EXIT_OK;
}

/* The stones of the final board the record counts dead: those it lists in the other colour's
 * territory (TB holds dead White stones, TW dead Black ones) and those of tengen's DS (every
 * dead stone, also one in nobody's territory): their points into pts (CMD_MAX_DEAD entries),
 * each once. Returns how many. */
static int record_dead(const struct replay *rp, int *pts)
{
	const struct board *b = &rp->ref.board;
	bool taken[BOARD_POINTS_MAX] = {false};
	int n = 0;
	for (int pass = 0; pass < 3; pass++) {
		const struct sgf_point *t = pass == 0 ? rp->game.territory_black :
					    pass == 1 ? rp->game.territory_white : rp->game.dead;
		size_t k = pass == 0 ? rp->game.nterritory_black :
			   pass == 1 ? rp->game.nterritory_white : rp->game.ndead;
		enum color dead = pass == 0 ? WHITE : pass == 1 ? BLACK : EMPTY; /* EMPTY: either */
		for (size_t i = 0; i < k && n < CMD_MAX_DEAD; i++) {
			if (t[i].x >= b->size || t[i].y >= b->size)
				continue;
			int pt = board_pt(b, t[i].x, t[i].y);
			enum color at = board_at(b, pt);
			if (!taken[pt] && at != EMPTY && (dead == EMPTY || at == dead)) {
				taken[pt] = true;
				pts[n++] = pt;
			}
		}
	}
	return n;
}

/* Build the JSON report (see commands.h). Returns NULL when out of memory. */
static json_t *score_report(const struct replay *rp, const struct score *s, const char *result,
			    const char *reason, const char *stones)
{
	const struct board *b = &rp->ref.board;
	json_t *illegal = json_array();
	if (!illegal)
		return NULL;
	for (size_t i = 0; i < rp->nillegal; i++) {
		const struct illegal_move *m = &rp->illegal[i];
		char v[VERTEX_MAX_LEN];
		json_t *e = json_pack("{s:i, s:s, s:s, s:s}", "number", m->number,
				      "color", m->color == BLACK ? "B" : "W",
				      "vertex", vertex_format(b, m->pt, v),
				      "reason", referee_offence_name(m->offence));
		if (json_array_append_new(illegal, e) < 0) {
			json_decref(illegal);
			return NULL;
		}
	}
	return json_pack("{s:s, s:s, s:s?, s:{s:f, s:f, s:f}, s:I, s:s?, s:o}",
			 "result", result, "reason", reason, "stones", stones,
			 "score", "black", s->black, "white", s->white, "komi", s->komi,
			 "moves", (json_int_t)rp->game.nmoves,
			 "recorded_result", rp->game.result,
			 "illegal", illegal);
}

int cmd_score(int argc, char **argv)
{
	struct options o;
	struct replay rp;
	struct score s;
	char result[SCORE_RESULT_MAX], stones[32];
	const char *reason = referee_reason_name(END_SCORE), *stones_or_null = NULL;
	const bool *dead_or_null = NULL;
	json_t *report = NULL;
	int npts = 0, bad;

	int rc = parse_options(argc, argv, NOPTS, score_usage, &o);
	if (rc != CMD_EXIT_OK) {
		free(o.dead);
		return rc < 0 ? CMD_EXIT_OK : rc;
	}
	int *pts = malloc(CMD_MAX_DEAD * sizeof *pts);
	bool *dead = malloc(BOARD_POINTS_MAX * sizeof *dead);
	if (!pts || !dead) {
		cli_errorf("out of memory");
		rc = CMD_EXIT_FAILURE;
		goto out_options;
	}
	rc = replay_file(&rp, &o);
	if (rc != CMD_EXIT_OK)
		goto out;

	/* The dead stones, on the board where the replay stopped: --dead, or else the stones
	 * the record counts in the other side's territory (TB/TW, SGF FF4). */
	rc = parse_dead(&o, &rp.ref.board, pts, &npts);
	if (rc != CMD_EXIT_OK)
		goto out;
	if (o.ndead == 0)
		npts = record_dead(&rp, pts);
	/* The warnings the record says were given (WN): each moved a point (Art. 24.1). */
	if (rp.game.warnings_black || rp.game.warnings_white) {
		rp.ref.warnings[BLACK] = rp.game.warnings_black;
		rp.ref.warnings[WHITE] = rp.game.warnings_white;
	}
	if (o.counting == COUNT_AREA && npts > 0) {
		if ((bad = score_mark_dead(&rp.ref.board, pts, npts, dead)) != 0) {
			char v[VERTEX_MAX_LEN];
			cli_errorf("--dead: no stone at %s on the final board",
				   vertex_format(&rp.ref.board, pts[bad - 1], v));
			rc = CMD_EXIT_FAILURE;
			goto out;
		}
		dead_or_null = dead;
	}

	referee_count(&rp.ref, dead_or_null, &s);
	if (rp.ended && rp.ref.phase == PHASE_ENDED && !rp.ref.scored) {
		snprintf(result, sizeof result, "%s", rp.ref.result);
		reason = referee_reason_name(rp.ref.reason);
	} else {
		const struct ruleset *rs = rp.ref.ruleset;
		if (rs->bar == RULESET_BAR_PREDICTION && rp.ref.rules.decisive)
			predict_result(s.white - s.black, -s.komi, true, result);
		else
			rs->result_counted(&s, result);
		stones_or_null = rs->result_spoken(score_margin(&s), stones);
	}

	report = score_report(&rp, &s, result, reason, stones_or_null);
	if (!report) {
		cli_errorf("out of memory");
		rc = CMD_EXIT_FAILURE;
		goto out;
	}
	if (json_dumpf(report, stdout, JSON_INDENT(2)) < 0 || fputc('\n', stdout) == EOF ||
	    fflush(stdout) == EOF) {
		cli_errorf("writing the report: %s", strerror(errno));
		rc = CMD_EXIT_FAILURE;
	}
out:
	json_decref(report);
	replay_free(&rp);
out_options:
	free(pts);
	free(dead);
	free(o.dead);
	return rc;
}

/* ---- replay ---- */

/* Print the column letters line of a board of `size`. */
static void print_columns(FILE *f, int size)
{
	fputs("  ", f);
	for (int x = 0; x < size; x++)
		fprintf(f, " %c", CLI_COLUMNS[x]);
	fputc('\n', f);
}

/* Print the board GTP style (see commands.h) from board_diagram's rows. */
static void print_board(FILE *f, const struct board *b)
{
	char diagram[BOARD_MAX_SIZE * (BOARD_MAX_SIZE + 1) + 1];
	board_diagram(b, diagram);
	print_columns(f, b->size);
	const char *row = diagram;
	for (int y = b->size; y >= 1; y--, row += b->size + 1) {
		fprintf(f, "%2d", y);
		for (int x = 0; x < b->size; x++)
			fprintf(f, " %c", row[x]);
		fprintf(f, " %d\n", y);
	}
	print_columns(f, b->size);
}

int cmd_replay(int argc, char **argv)
{
	struct options o;
	struct replay rp;
	int rc = parse_options(argc, argv, 1, replay_usage, &o);
	if (rc != CMD_EXIT_OK) {
		free(o.dead);
		return rc < 0 ? CMD_EXIT_OK : rc;
	}
	rc = replay_file(&rp, &o);
	if (rc == CMD_EXIT_OK) {
		const struct board *b = &rp.ref.board;
		print_board(stdout, b);
		printf("Captures: Black %d, White %d. %s to move.\n", b->captures[BLACK],
		       b->captures[WHITE], b->to_move == WHITE ? "White" : "Black");
		if (rp.ended && rp.ref.phase == PHASE_ENDED)
			printf("Result: %s (%s)\n", rp.ref.result,
			       referee_reason_name(rp.ref.reason));
		if (fflush(stdout) == EOF) {
			cli_errorf("writing the board: %s", strerror(errno));
			rc = CMD_EXIT_FAILURE;
		}
	}
	replay_free(&rp);
	free(o.dead);
	return rc;
}
