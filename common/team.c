/* team: team events (see team.h). */
#include "team.h"

#include <stdlib.h>
#include <string.h>

#include "pairing.h"

const char *const team_system_names[TEAM_SYSTEMS] = { "team_round_robin", "team_swiss",
	"team_knockout", "arena" };

int team_system_parse(const char *name, enum team_system *out, enum event_system *base)
{
	static const enum event_system bases[TEAM_SYSTEMS] = { SYSTEM_ROUND_ROBIN, SYSTEM_SWISS,
		SYSTEM_KNOCKOUT, SYSTEM_KNOCKOUT };
	if (!name || !out || !base)
		return -1;
	for (int i = 0; i < TEAM_SYSTEMS; i++)
		if (strcmp(name, team_system_names[i]) == 0) {
			*out = (enum team_system)i;
			*base = bases[i];
			return 0;
		}
	return -1;
}

bool team_home_black(int board)
{
	return board % 2 == 1;
}

static bool result_valid(enum event_result r)
{
	return (unsigned)r <= RESULT_VOID;
}

static int check_teams(const struct team_event *te)
{
	for (int t = 0; t < te->nteams; t++) {
		const struct team *x = &te->teams[t];
		if (x->nplayers < te->boards || x->nplayers > te->boards + TEAM_MAX_RESERVES ||
		    x->withdrawn_after < 0 || x->withdrawn_after > EVENT_MAX_ROUNDS)
			return TEAM_EINVAL;
		for (int i = 0; i < x->nplayers; i++) {
			if (x->players[i] < 0 || x->players[i] >= te->nplayers)
				return TEAM_EINVAL;
			for (int j = 0; j < i; j++)
				if (x->players[j] == x->players[i])
					return TEAM_EINVAL;
		}
	}
	return TEAM_OK;
}

int team_validate(const struct team_event *te)
{
	if (!te || te->boards < 1 || te->boards > TEAM_MAX_BOARDS || te->nteams < 0 ||
	    te->nteams > TEAM_MAX_TEAMS || (te->nteams > 0 && !te->teams) || te->nplayers < 0 ||
	    te->nplayers > EVENT_MAX_PLAYERS || (te->nplayers > 0 && !te->players) ||
	    te->ngames < 0 || te->ngames > TEAM_MAX_GAMES || (te->ngames > 0 && !te->games) ||
	    te->nbyes < 0 || te->nbyes > TEAM_MAX_TEAMS * EVENT_MAX_ROUNDS ||
	    (te->nbyes > 0 && !te->byes) || te->rounds_planned < 0 ||
	    te->rounds_planned > EVENT_MAX_ROUNDS)
		return TEAM_EINVAL;
	if (te->system != SYSTEM_ROUND_ROBIN && te->system != SYSTEM_DOUBLE_ROUND_ROBIN &&
	    te->system != SYSTEM_SWISS && te->system != SYSTEM_KNOCKOUT)
		return TEAM_EINVAL;
	if (te->bye_match_points < 0 || te->bye_match_points > TEAM_BYE_POINTS_MAX ||
	    te->bye_board_points < 0 || te->bye_board_points > TEAM_BYE_POINTS_MAX)
		return TEAM_EINVAL;
	if (check_teams(te))
		return TEAM_EINVAL;
	for (int g = 0; g < te->ngames; g++) {
		const struct team_game *x = &te->games[g];
		if (x->round < 1 || x->round > EVENT_MAX_ROUNDS || x->home < 0 ||
		    x->home >= te->nteams || x->away < 0 || x->away >= te->nteams ||
		    x->home == x->away || x->board < 0 || x->board >= te->boards ||
		    x->home_player < -1 || x->home_player >= te->nplayers || x->away_player < -1 ||
		    x->away_player >= te->nplayers || !result_valid(x->result))
			return TEAM_EINVAL;
	}
	for (int b = 0; b < te->nbyes; b++)
		if (te->byes[b].round < 1 || te->byes[b].round > EVENT_MAX_ROUNDS ||
		    te->byes[b].team < 0 || te->byes[b].team >= te->nteams)
			return TEAM_EINVAL;
	return TEAM_OK;
}

int team_game_points(const struct team_game *g, int *home, int *away)
{
	int black = 0, white = 0;

	if (!g || !home || !away)
		return TEAM_EINVAL;
	switch (g->result) {
	case RESULT_BLACK_WIN:
	case RESULT_BLACK_FORFEIT_WIN:
		black = TEAM_BOARD_POINTS_WIN;
		break;
	case RESULT_WHITE_WIN:
	case RESULT_WHITE_FORFEIT_WIN:
		white = TEAM_BOARD_POINTS_WIN;
		break;
	case RESULT_DRAW:
		black = white = TEAM_BOARD_POINTS_DRAW;
		break;
	case RESULT_DOUBLE_LOSS:
		break;
	default:
		return TEAM_EPENDING;
	}
	*home = g->home_black ? black : white;
	*away = g->home_black ? white : black;
	return TEAM_OK;
}

static bool is_forfeit(enum event_result r)
{
	return r == RESULT_BLACK_FORFEIT_WIN || r == RESULT_WHITE_FORFEIT_WIN ||
		r == RESULT_DOUBLE_LOSS;
}

int team_match_score(const struct team_event *te, int round, int home, int away,
		struct team_match_score *out)
{
	const struct team_game *last[TEAM_MAX_BOARDS] = { 0 };

	if (!te || !out || te->boards < 1 || te->boards > TEAM_MAX_BOARDS ||
	    (te->ngames > 0 && !te->games))
		return TEAM_EINVAL;
	for (int g = 0; g < te->ngames; g++) {
		const struct team_game *x = &te->games[g];
		if (x->round != round || x->home != home || x->away != away || x->board < 0 ||
		    x->board >= te->boards || x->result == RESULT_VOID)
			continue;
		last[x->board] = x;
	}
	struct team_match_score s;
	memset(&s, 0, sizeof s);
	s.all_forfeits = true;
	s.ko_winner = -1;
	for (int b = 0; b < te->boards; b++) {
		int h, a;
		if (!last[b] || team_game_points(last[b], &h, &a))
			return TEAM_EPENDING;
		s.home_board[b] = h;
		s.away_board[b] = a;
		s.home_bp += h;
		s.away_bp += a;
		if (!is_forfeit(last[b]->result))
			s.all_forfeits = false;
	}
	if (s.home_bp != s.away_bp) {
		s.home_mp = s.home_bp > s.away_bp ? TEAM_MATCH_POINTS_WIN : 0;
		s.away_mp = TEAM_MATCH_POINTS_WIN - s.home_mp;
		s.ko_winner = s.home_bp > s.away_bp ? home : away;
	} else {
		s.home_mp = s.away_mp = TEAM_MATCH_POINTS_DRAW;
		for (int b = 0; b < te->boards && s.ko_winner < 0; b++)
			if (s.home_board[b] != s.away_board[b])
				s.ko_winner = s.home_board[b] > s.away_board[b] ? home : away;
	}
	*out = s;
	return TEAM_OK;
}

/* Is the match (round, home, away) already listed in gs[0..n-1]? */
static bool listed(const struct event_game *gs, int n, int round, int home, int away)
{
	for (int i = 0; i < n; i++)
		if (gs[i].round == round && gs[i].white == home && gs[i].black == away)
			return true;
	return false;
}

/* The match's result as a team-level game (home = White). */
static enum event_result match_result(const struct team_event *te, int round, int home,
		int away)
{
	struct team_match_score s;
	int winner;

	if (team_match_score(te, round, home, away, &s))
		return RESULT_NONE;
	if (te->system == SYSTEM_KNOCKOUT)
		winner = s.ko_winner;
	else
		winner = s.home_mp > s.away_mp ? home : s.away_mp > s.home_mp ? away : -1;
	if (winner < 0)
		return s.all_forfeits && s.home_bp == 0 ? RESULT_DOUBLE_LOSS : RESULT_DRAW;
	if (s.all_forfeits)
		return winner == home ? RESULT_WHITE_FORFEIT_WIN : RESULT_BLACK_FORFEIT_WIN;
	return winner == home ? RESULT_WHITE_WIN : RESULT_BLACK_WIN;
}

int team_as_event(const struct team_event *te, struct event *ev)
{
	if (!ev || team_validate(te))
		return TEAM_EINVAL;
	memset(ev, 0, sizeof *ev);
	size_t nt = (size_t)te->nteams + 1, ng = (size_t)te->ngames + 1, nb = (size_t)te->nbyes + 1;
	struct event_player *p = calloc(nt, sizeof *p);
	struct event_game *g = calloc(ng, sizeof *g);
	struct event_bye *b = calloc(nb, sizeof *b);
	if (!p || !g || !b) {
		free(p);
		free(g);
		free(b);
		return TEAM_ENOMEM;
	}
	for (int t = 0; t < te->nteams; t++) {
		p[t].id = t;
		p[t].name = te->teams[t].name;
		p[t].seed = te->teams[t].seed;
		p[t].withdrawn_after = te->teams[t].withdrawn_after;
		p[t].withdrawn_before_start = te->teams[t].withdrawn_before_start;
	}
	int n = 0;
	for (int i = 0; i < te->ngames; i++) {
		const struct team_game *x = &te->games[i];
		if (listed(g, n, x->round, x->home, x->away))
			continue;
		g[n].round = x->round;
		g[n].white = x->home;
		g[n].black = x->away;
		g[n].result = match_result(te, x->round, x->home, x->away);
		n++;
	}
	for (int i = 0; i < te->nbyes; i++) {
		b[i].round = te->byes[i].round;
		b[i].player = te->byes[i].team;
	}
	ev->system = te->system;
	ev->nplayers = te->nteams;
	ev->players = p;
	ev->ngames = n;
	ev->games = g;
	ev->nbyes = te->nbyes;
	ev->byes = b;
	ev->rounds_planned = te->rounds_planned;
	ev->bye_points = te->bye_match_points;
	ev->seeding = SEEDING_SPLIT_FOLD;
	return TEAM_OK;
}

void team_event_free(struct event *ev)
{
	if (!ev)
		return;
	free(ev->players);
	free(ev->games);
	free(ev->byes);
	memset(ev, 0, sizeof *ev);
}

int team_pair_round(const struct team_event *te, int round, struct team_round *out)
{
	struct event ev;
	struct pairing_out *po;
	int ret;

	if (!out || round < 1 || round > EVENT_MAX_ROUNDS)
		return TEAM_EINVAL;
	ret = team_as_event(te, &ev);
	if (ret)
		return ret;
	po = calloc(1, sizeof *po);
	if (!po) {
		team_event_free(&ev);
		return TEAM_ENOMEM;
	}
	ret = pairing_round(&ev, round, po);
	if (ret == PAIRING_OK) {
		memset(out, 0, sizeof *out);
		out->round = round;
		out->nmatches = po->npairs;
		for (int i = 0; i < po->npairs; i++) {
			out->matches[i].home = po->pairs[i].white;
			out->matches[i].away = po->pairs[i].black;
			out->matches[i].home_absent = po->pairs[i].white_absent;
			out->matches[i].away_absent = po->pairs[i].black_absent;
		}
		out->nbyes = po->nbyes;
		memcpy(out->byes, po->byes, (size_t)po->nbyes * sizeof(int));
	}
	free(po);
	team_event_free(&ev);
	return ret;
}

/* Add one decided match (or bye) to the rows. */
static void add_match(struct team_standing *h, struct team_standing *a,
		const struct team_match_score *s, int boards)
{
	h->match_points += s->home_mp;
	a->match_points += s->away_mp;
	h->board_points += s->home_bp;
	a->board_points += s->away_bp;
	for (int b = 0; b < boards; b++) {
		h->boards[b] += s->home_board[b];
		a->boards[b] += s->away_board[b];
	}
	if (s->home_mp > s->away_mp) {
		h->won++;
		a->lost++;
	} else if (s->home_mp < s->away_mp) {
		h->lost++;
		a->won++;
	} else {
		h->drawn++;
		a->drawn++;
	}
}

/* Art. 27.2's comparison of two rows (negative: x first), seeds aside. */
static int compare_rows(const struct team_standing *x, const struct team_standing *y,
		int boards, bool swiss, bool ko)
{
	if (ko && x->ko_rounds != y->ko_rounds)
		return y->ko_rounds - x->ko_rounds;
	if (x->match_points != y->match_points)
		return y->match_points - x->match_points;
	if (swiss && x->sos != y->sos)
		return y->sos - x->sos;
	if (x->board_points != y->board_points)
		return y->board_points - x->board_points;
	for (int b = 0; b < boards; b++)
		if (x->boards[b] != y->boards[b])
			return y->boards[b] - x->boards[b];
	return 0;
}

/* The listing order: Art. 27.2's comparison, then the seed, then the index. */
static int order_rows(const struct team_standing *x, const struct team_standing *y,
		const struct team_event *te, bool swiss)
{
	int c = compare_rows(x, y, te->boards, swiss, te->system == SYSTEM_KNOCKOUT);
	if (c)
		return c;
	c = te->teams[x->team].seed - te->teams[y->team].seed;
	return c ? c : x->team - y->team;
}

/* Insertion sort by order_rows (n <= TEAM_MAX_TEAMS). */
static void sort_rows(struct team_standing *r, int n, const struct team_event *te, bool swiss)
{
	for (int i = 1; i < n; i++) {
		struct team_standing v = r[i];
		int j = i - 1;
		while (j >= 0 && order_rows(&r[j], &v, te, swiss) > 0) {
			r[j + 1] = r[j];
			j--;
		}
		r[j + 1] = v;
	}
}

int team_standings(const struct team_event *te, int after_round, struct team_standing *out)
{
	if (!out || team_validate(te) || after_round < 0 || after_round > EVENT_MAX_ROUNDS)
		return TEAM_EINVAL;
	int nt = te->nteams;
	struct team_standing *all = calloc((size_t)nt + 1, sizeof *all);
	int *opp_n = calloc((size_t)nt * EVENT_MAX_ROUNDS + 1, sizeof(int));
	int *nopp = calloc((size_t)nt + 1, sizeof(int));
	if (!all || !opp_n || !nopp) {
		free(all);
		free(opp_n);
		free(nopp);
		return TEAM_ENOMEM;
	}
	for (int t = 0; t < nt; t++)
		all[t].team = t;
	for (int i = 0; i < te->ngames; i++) {
		const struct team_game *x = &te->games[i];
		struct team_match_score s;
		bool dup = false;
		if (after_round && x->round > after_round)
			continue;
		for (int j = 0; j < i && !dup; j++)
			dup = te->games[j].round == x->round && te->games[j].home == x->home &&
				te->games[j].away == x->away;
		if (dup || team_match_score(te, x->round, x->home, x->away, &s))
			continue;
		add_match(&all[x->home], &all[x->away], &s, te->boards);
		if (s.ko_winner >= 0 && s.ko_winner < nt)
			all[s.ko_winner].ko_rounds++;
		if (nopp[x->home] < EVENT_MAX_ROUNDS)
			opp_n[x->home * EVENT_MAX_ROUNDS + nopp[x->home]++] = x->away;
		if (nopp[x->away] < EVENT_MAX_ROUNDS)
			opp_n[x->away * EVENT_MAX_ROUNDS + nopp[x->away]++] = x->home;
	}
	for (int i = 0; i < te->nbyes; i++) {
		struct team_standing *r = &all[te->byes[i].team];
		if (after_round && te->byes[i].round > after_round)
			continue;
		r->byes++;
		r->ko_rounds++;
		r->match_points += te->bye_match_points;
		for (int b = 0; b < te->boards; b++) {
			r->boards[b] += te->bye_board_points;
			r->board_points += te->bye_board_points;
		}
	}
	for (int t = 0; t < nt; t++)
		for (int k = 0; k < nopp[t]; k++)
			all[t].sos += all[opp_n[t * EVENT_MAX_ROUNDS + k]].match_points;
	int n = 0;
	for (int t = 0; t < nt; t++)
		if (!te->teams[t].withdrawn_before_start)
			out[n++] = all[t];
	bool swiss = te->system == SYSTEM_SWISS;
	sort_rows(out, n, te, swiss);
	for (int i = 0; i < n; i++)
		out[i].place = i > 0 && !compare_rows(&out[i - 1], &out[i], te->boards, swiss,
						      te->system == SYSTEM_KNOCKOUT) ? out[i - 1].place : i + 1;
	free(all);
	free(opp_n);
	free(nopp);
	return n;
}

/* Is the side (team t, player p) out in round `round` (Art. 28.4)? */
static bool side_out(const struct team_event *te, int t, int p, int round)
{
	const struct team *x = &te->teams[t];
	if (x->withdrawn_before_start || (x->withdrawn_after && round > x->withdrawn_after))
		return true;
	if (p < 0)
		return true;
	const struct event_player *q = &te->players[p];
	return q->withdrawn_before_start || (q->withdrawn_after && round > q->withdrawn_after);
}

int team_apply_withdrawals(struct team_event *te)
{
	int changed = 0;

	if (team_validate(te))
		return TEAM_EINVAL;
	for (int i = 0; i < te->ngames; i++) {
		struct team_game *x = &te->games[i];
		if (x->result != RESULT_NONE)
			continue;
		bool h = side_out(te, x->home, x->home_player, x->round);
		bool a = side_out(te, x->away, x->away_player, x->round);
		if (!h && !a)
			continue;
		if (h && a)
			x->result = RESULT_DOUBLE_LOSS;
		else if (h)
			x->result = x->home_black ? RESULT_WHITE_FORFEIT_WIN : RESULT_BLACK_FORFEIT_WIN;
		else
			x->result = x->home_black ? RESULT_BLACK_FORFEIT_WIN : RESULT_WHITE_FORFEIT_WIN;
		changed++;
	}
	return changed;
}

/* Is player p still in the event in round `round`? */
static bool player_in(const struct event_player *q, int round)
{
	return !q->withdrawn_before_start && (q->withdrawn_after == 0 || q->withdrawn_after >= round);
}

int team_lineup(const struct team_event *te, int team, int round, int *players_out)
{
	if (!players_out || team_validate(te) || team < 0 || team >= te->nteams || round < 1 ||
	    round > EVENT_MAX_ROUNDS)
		return TEAM_EINVAL;
	const struct team *x = &te->teams[team];
	int next_reserve = te->boards;
	for (int b = 0; b < te->boards; b++) {
		int p = x->players[b];
		players_out[b] = p;
		if (player_in(&te->players[p], round))
			continue;
		players_out[b] = -1;
		while (te->reserves && next_reserve < x->nplayers) {
			int r = x->players[next_reserve++];
			if (player_in(&te->players[r], round)) {
				players_out[b] = r;
				break;
			}
		}
	}
	return TEAM_OK;
}

const char *team_strerror(int err)
{
	switch (err) {
	case TEAM_OK:
		return "ok";
	case TEAM_EINVAL:
		return "invalid team event or argument";
	case TEAM_ENOMEM:
		return "out of memory";
	case TEAM_EPENDING:
		return "a board game has no result yet";
	default:
		return "unknown team error";
	}
}
