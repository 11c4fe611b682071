/* event_util: building a struct event in the unit tests of common/standings and
 * common/export (test_standings.c, test_export.c). */
#ifndef TENGEN_TESTS_EVENT_UTIL_H
#define TENGEN_TESTS_EVENT_UTIL_H

#include <string.h>
#include "event.h"
#include "rating.h"

/* An event of the system over the given arrays: rounds planned and played, byes worth 2,
 * McMahon bar and floor at the ends of the rank scale, MMS 1 for a bye and 0.5 absent. */
static inline struct event mk(enum event_system sys, struct event_player *p, int np,
		struct event_game *g, int ng, struct event_bye *b, int nb, int rounds)
{
	struct event ev;

	memset(&ev, 0, sizeof ev);
	ev.system = sys;
	ev.nplayers = np;
	ev.players = p;
	ev.ngames = ng;
	ev.games = g;
	ev.nbyes = nb;
	ev.byes = b;
	ev.rounds_planned = rounds;
	ev.rounds_played = rounds;
	ev.bye_points = 2;
	ev.mcmahon_floor = RANK_MIN;
	ev.mcmahon_bar = RANK_MAX;
	ev.mms_bye = 1.0;
	ev.mms_absent = 0.5;
	return ev;
}

#endif
