/* store_profiles: players' profiles and entrants (migration 0006). See store.h. */
#include <string.h>
#include "store_int.h"

enum store_rc store_profile_get(struct store *s, int64_t player_id, struct store_profile *out)
{
	enum store_rc r;
	memset(out, 0, sizeof *out);
	struct binder b = store_binder(s, ST_PROFILE_GET);
	b_int(&b, P_PLAYER_ID, player_id);
	if (b.rc != SQLITE_OK)
		return store_bind_fail(s, &b);
	int rc = sqlite3_step(b.st);
	if (rc == SQLITE_ROW) {
		if ((r = store_col_copy(s, b.st, FC_FULL_NAME, out->full_name, sizeof out->full_name))
				== STORE_OK
				&& (r = store_col_copy(s, b.st, FC_COUNTRY, out->country, sizeof out->country))
				== STORE_OK
				&& (r = store_col_copy(s, b.st, FC_CLUB, out->club, sizeof out->club)) == STORE_OK)
			r = store_col_copy(s, b.st, FC_EGD_PIN, out->egd_pin, sizeof out->egd_pin);
		out->entrant = sqlite3_column_int(b.st, FC_ENTRANT) != 0;
	} else if (rc == SQLITE_DONE) {
		r = store_fail(s, STORE_NOT_FOUND, "no such profile");
	} else {
		r = store_sql_fail(s, rc);
	}
	store_done(b.st);
	if (r != STORE_OK && r != STORE_NOT_FOUND)
		memset(out, 0, sizeof *out);
	return r;
}

enum store_rc store_profile_set(struct store *s, int64_t player_id, const struct store_profile *p)
{
	if (!p)
		return store_fail(s, STORE_ERROR, "no profile");
	struct binder b = store_binder(s, ST_PROFILE_SET);
	b_int(&b, P_PLAYER_ID, player_id);
	b_opt(&b, P_FULL_NAME, p->full_name);
	b_opt(&b, P_COUNTRY, p->country);
	b_opt(&b, P_CLUB, p->club);
	b_opt(&b, P_EGD_PIN, p->egd_pin);
	b_int(&b, P_ENTRANT, p->entrant ? 1 : 0);
	return store_run(s, &b);
}
