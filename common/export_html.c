/* export_html: a tournament as one printable HTML page (see export.h): pairings by round
 * (board 1 the game of the best-placed player), standings with every tie-break, cross-table.
 * No scripts; the style is inline. */
#include "export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_int.h"
#include "rating.h"
#include "standings.h"

#define HTML_STYLE \
	"body{font-family:sans-serif;margin:1em}" \
	"table{border-collapse:collapse;margin:0 0 1.5em}" \
	"th,td{border:1px solid #888;padding:2px 6px;text-align:left}" \
	"td.n{text-align:right}" \
	"tr.wd td{color:#777}" \
	"h2{page-break-after:avoid}" \
	"@media print{h2.round{page-break-before:auto}}"

/* Text with & < > " ' escaped. */
static void add_text(struct export_buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': export_buf_add(b, "&amp;"); break;
		case '<': export_buf_add(b, "&lt;"); break;
		case '>': export_buf_add(b, "&gt;"); break;
		case '"': export_buf_add(b, "&quot;"); break;
		case '\'': export_buf_add(b, "&#39;"); break;
		default: export_buf_add(b, "%c", *s);
		}
	}
}

/* A game's result as a pairings list prints it: the recorded text when the game was won at
 * the board ("B+R", "W+3.5"), else "B+" / "W+" (no details), "Jigo", "B+ (forfeit)",
 * "double loss", "" (not finished), "void". */
static void add_result(struct export_buf *b, const struct event_game *g)
{
	switch (g->result) {
	case RESULT_BLACK_WIN:
	case RESULT_WHITE_WIN:
		if (g->result_text[0] && export_text_ok(g->result_text))
			add_text(b, g->result_text);
		else
			export_buf_add(b, g->result == RESULT_BLACK_WIN ? "B+" : "W+");
		break;
	case RESULT_DRAW: export_buf_add(b, "Jigo"); break;
	case RESULT_BLACK_FORFEIT_WIN: export_buf_add(b, "B+ (forfeit)"); break;
	case RESULT_WHITE_FORFEIT_WIN: export_buf_add(b, "W+ (forfeit)"); break;
	case RESULT_DOUBLE_LOSS: export_buf_add(b, "double loss"); break;
	case RESULT_VOID: export_buf_add(b, "void"); break;
	default: break;
	}
}

static void add_player(struct export_buf *b, const struct export_ctx *x, int player)
{
	char rank[RANK_STR_MAX];

	export_rank_str(rank, x->ev->players[player].rank);
	add_text(b, event_player_person(&x->ev->players[player]));
	export_buf_add(b, " (%s)", rank);
}

/* The better standings number of a game's two players (boards are numbered by it). */
static int game_key(const struct export_ctx *x, const struct event_game *g)
{
	int nb = x->num[g->black], nw = x->num[g->white];

	return nb < nw ? nb : nw;
}

/* Round r's pairings, board 1 the game of the best-placed player; order[] has room for
 * ev->ngames indices. */
static void pairings(struct export_buf *b, const struct export_ctx *x, int r, int *order)
{
	const struct event *ev = x->ev;
	int i, k, n = 0, nbye = 0;

	for (i = 0; i < ev->ngames; i++) {
		const struct event_game *g = &ev->games[i];

		if (g->round != r || !x->num[g->black] || !x->num[g->white])
			continue;
		for (k = n++; k > 0 && game_key(x, &ev->games[order[k - 1]]) > game_key(x, g); k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	/* the server's game numbers beside the boards: results are entered by game number
	 * (docs/td-guide.md), and the boards follow the standings, not the numbers */
	bool ids = n > 0;
	for (k = 0; k < n; k++)
		ids = ids && ev->games[order[k]].id > 0;
	export_buf_add(b, "<h2 class=\"round\">Round %d</h2>\n", r);
	export_buf_add(b, "<table>\n<tr><th>Board</th>%s<th>Black</th><th>White</th>"
		"<th>Handicap</th><th>Result</th></tr>\n", ids ? "<th>Game</th>" : "");
	for (k = 0; k < n; k++) {
		const struct event_game *g = &ev->games[order[k]];

		export_buf_add(b, "<tr><td class=\"n\">%d</td>", k + 1);
		if (ids)
			export_buf_add(b, "<td class=\"n\">%lld</td>", g->id);
		export_buf_add(b, "<td>");
		add_player(b, x, g->black);
		export_buf_add(b, "</td><td>");
		add_player(b, x, g->white);
		export_buf_add(b, "</td><td class=\"n\">%d</td><td>", g->handicap);
		add_result(b, g);
		export_buf_add(b, "</td></tr>\n");
	}
	export_buf_add(b, "</table>\n");
	for (i = 0; i < ev->nbyes; i++) {
		int wd = ev->players[ev->byes[i].player].withdrawn_after;

		/* a bye the schedule gave after the withdrawal is none (the standings, the h9) */
		if (ev->byes[i].round != r || !x->num[ev->byes[i].player] || (wd > 0 && r > wd))
			continue;
		export_buf_add(b, nbye++ ? ", " : "<p>Bye: ");
		add_text(b, event_player_person(&ev->players[ev->byes[i].player]));
	}
	if (nbye)
		export_buf_add(b, "</p>\n");
	/* the players of the field not paired in this round: absent by the director's word
	 * (tournament.absent), or entered after it (a late entry's earlier rounds count as
	 * absences); the standings count the round, the page said nothing of it */
	int nabsent = 0;
	for (i = 0; i < ev->nplayers; i++) {
		if (!x->num[i] || r > 64 || !(ev->players[i].absent_rounds & (1ull << (r - 1))))
			continue;
		export_buf_add(b, nabsent++ ? ", " : "<p>Absent: ");
		add_text(b, event_player_person(&ev->players[i]));
	}
	if (nabsent)
		export_buf_add(b, "</p>\n");
}

static void standings_table(struct export_buf *b, const struct export_ctx *x)
{
	const struct event *ev = x->ev;
	char f[EXPORT_FIELD_MAX], rank[RANK_STR_MAX];
	int i, j;

	export_buf_add(b, "<h2>Standings after round %d</h2>\n<table>\n<tr><th>Place</th>"
		"<th>Name</th><th>Rank</th><th>Country</th><th>Club</th><th>%s</th><th>Wins</th>"
		"<th>Draws</th><th>Losses</th><th>Byes</th>", x->R, standings_score_name(ev->system));
	for (j = 0; j < x->ntb; j++)
		export_buf_add(b, "<th>%s</th>", x->tbname[j]);
	export_buf_add(b, "<th>Note</th></tr>\n");
	for (i = 0; i < x->n; i++) {
		const struct standing *s = &x->rows[i];
		const struct event_player *p = &ev->players[s->player];
		bool wd = p->withdrawn_after > 0 && p->withdrawn_after <= x->R;

		export_rank_str(rank, p->rank);
		export_fmt_num(f, s->score);
		export_buf_add(b, "<tr%s><td class=\"n\">%d</td><td>", wd ? " class=\"wd\"" : "",
			s->place);
		add_text(b, event_player_person(p));
		export_buf_add(b, "</td><td>%s</td><td>", rank);
		add_text(b, p->country ? p->country : "");
		export_buf_add(b, "</td><td>");
		add_text(b, p->club ? p->club : "");
		export_buf_add(b, "</td><td class=\"n\">%s</td><td class=\"n\">%d</td>"
			"<td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%d</td>", f,
			s->wins, s->draws, s->losses, s->byes);
		for (j = 0; j < s->ntiebreaks; j++) {
			export_fmt_num(f, s->tiebreak[j]);
			export_buf_add(b, "<td class=\"n\">%s</td>", f);
		}
		export_buf_add(b, "<td>");
		if (wd) /* as of round R: one who withdrew in a later round was still in */
			export_buf_add(b, "withdrawn after round %d", p->withdrawn_after);
		export_buf_add(b, "</td></tr>\n");
	}
	export_buf_add(b, "</table>\n");
}

static void cross_table(struct export_buf *b, const struct export_ctx *x)
{
	char f[EXPORT_FIELD_MAX];
	int i, r;

	export_buf_add(b, "<h2>Cross-table</h2>\n<table>\n<tr><th>Num</th><th>Name</th>");
	for (r = 1; r <= x->R; r++)
		export_buf_add(b, "<th>R%d</th>", r);
	export_buf_add(b, "<th>%s</th></tr>\n", standings_score_name(x->ev->system));
	for (i = 0; i < x->n; i++) {
		const struct standing *s = &x->rows[i];

		export_buf_add(b, "<tr><td class=\"n\">%d</td><td>", i + 1);
		add_text(b, event_player_person(&x->ev->players[s->player]));
		export_buf_add(b, "</td>");
		for (r = 1; r <= x->R; r++) {
			struct export_round v = export_round_view(x, s->player, r);

			if (v.kind == EXPORT_ROUND_BYE)
				snprintf(f, sizeof f, "bye%c", v.result);
			else if (v.kind == EXPORT_ROUND_ABSENT)
				strcpy(f, "-");
			else
				export_game_field(f, &v);
			export_buf_add(b, "<td>%s</td>", f);
		}
		export_fmt_num(f, s->score);
		export_buf_add(b, "<td class=\"n\">%s</td></tr>\n", f);
	}
	export_buf_add(b, "</table>\n");
}

int export_html(const struct event *ev, const struct export_info *info, char **out)
{
	struct export_buf b = { 0 };
	struct export_ctx x;
	const char *title;
	int rc, r, *order;

	if (!out || (info && ((info->name && !export_text_ok(info->name)) ||
			(info->place && !export_text_ok(info->place)) ||
			(info->date_start && !export_date_ok(info->date_start)) ||
			(info->date_end && !export_date_ok(info->date_end)))))
		return EXPORT_EINVAL;
	rc = export_ctx_init(&x, ev, info);
	if (rc)
		return rc;
	title = info && info->name ? info->name : "Tournament";
	export_buf_add(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>");
	add_text(&b, title);
	export_buf_add(&b, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", HTML_STYLE);
	add_text(&b, title);
	export_buf_add(&b, "</h1>\n<p>%s, %d round%s played", event_system_name(ev->system), x.R,
		x.R == 1 ? "" : "s");
	if (info && info->place) {
		export_buf_add(&b, ", ");
		add_text(&b, info->place);
	}
	if (info && info->date_start)
		export_buf_add(&b, ", %s", info->date_start);
	if (info && info->date_end && info->date_start && strcmp(info->date_end, info->date_start))
		export_buf_add(&b, " to %s", info->date_end);
	export_buf_add(&b, ".</p>\n");
	order = malloc(((size_t)ev->ngames + 1) * sizeof *order);
	if (!order)
		b.failed = true;
	for (r = 1; order && r <= x.R; r++)
		pairings(&b, &x, r, order);
	free(order);
	standings_table(&b, &x);
	cross_table(&b, &x);
	export_buf_add(&b, "</body>\n</html>\n");
	export_ctx_free(&x);
	return export_buf_finish(&b, out);
}
