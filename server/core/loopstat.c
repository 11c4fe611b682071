/* loopstat: the loop's stall figures. See loopstat.h. */
#include "log.h"
#include "loopstat.h"

#define NS_PER_S 1000000000ull

void loopstat_start(struct loopstat *ls, uv_loop_t *loop, unsigned every_s)
{
	*ls = (struct loopstat){ .loop = loop, .every_s = every_s };
	ls->idle_metrics = uv_loop_configure(loop, UV_METRICS_IDLE_TIME) == 0;
	ls->last_ns = ls->win_start_ns = uv_hrtime();
	ls->last_idle_ns = ls->idle_metrics ? uv_metrics_idle_time(loop) : 0;
}

static void max_in(uint64_t *m, uint64_t v)
{
	if (v > *m)
		*m = v;
}

void loopstat_begin(struct loopstat *ls, uint64_t ns)
{
	max_in(&ls->begin_ns, ns);
}

bool loopstat_due(const struct loopstat *ls)
{
	return ls->every_s && uv_hrtime() - ls->win_start_ns >= ls->every_s * NS_PER_S;
}

static void add(struct loopstat_win *w, uint64_t busy, uint64_t begin, uint64_t commit,
		uint64_t flush)
{
	w->iters++;
	w->commits += commit > 0;
	max_in(&w->busy_max, busy);
	max_in(&w->begin_max, begin);
	max_in(&w->commit_max, commit);
	max_in(&w->flush_max, flush);
}

void loopstat_step(struct loopstat *ls, uint64_t commit_ns, uint64_t flush_ns,
		   const char *upkeep_line)
{
	uint64_t now = uv_hrtime();
	uint64_t idle = ls->idle_metrics ? uv_metrics_idle_time(ls->loop) : ls->last_idle_ns;
	uint64_t wall = now - ls->last_ns, waited = idle - ls->last_idle_ns;
	uint64_t busy = wall > waited ? wall - waited : 0;
	ls->last_ns = now;
	ls->last_idle_ns = idle;
	add(&ls->win, busy, ls->begin_ns, commit_ns, flush_ns);
	add(&ls->total, busy, ls->begin_ns, commit_ns, flush_ns);
	ls->begin_ns = 0;
	if (!ls->every_s || now - ls->win_start_ns < ls->every_s * NS_PER_S)
		return;
	log_msg(LOGL_INFO, "loop", "iters=%llu commits=%llu busy_max_ms=%.3f begin_max_ms=%.3f "
		"commit_max_ms=%.3f flush_max_ms=%.3f%s%s", (unsigned long long)ls->win.iters,
		(unsigned long long)ls->win.commits,
		ls->win.busy_max / 1e6, ls->win.begin_max / 1e6, ls->win.commit_max / 1e6,
		ls->win.flush_max / 1e6, upkeep_line ? " " : "", upkeep_line ? upkeep_line : "");
	ls->win = (struct loopstat_win){ 0 };
	ls->win_start_ns = now;
}
