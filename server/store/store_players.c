/* store_players: players. See store.h. */
#include <string.h>
#include "store_int.h"

static const char *const roles[] = { "player", "td", "admin", NULL };

/* ---- Players ---- */

static enum store_rc check_role(struct store *s, const char *role)
{
	if (!role || !store_in_list(role, roles))
		return store_fail(s, STORE_ERROR, "unknown role \"%s\" (player, td or admin)",
				role ? role : "(null)");
	return STORE_OK;
}

static enum store_rc check_name(struct store *s, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n < 1 || n > STORE_NAME_MAX)
		return store_fail(s, STORE_ERROR, "a player name is 1 to %d bytes", STORE_NAME_MAX);
	return STORE_OK;
}

enum store_rc store_player_create(struct store *s, const char *name, const char *pwhash,
		const char *role, int64_t *id)
{
	enum store_rc r;
	if ((r = check_name(s, name)) != STORE_OK || (r = check_role(s, role)) != STORE_OK)
		return r;
	size_t n = pwhash ? strlen(pwhash) : 0;
	if (n < 1 || n >= STORE_PWHASH_SIZE)
		return store_fail(s, STORE_ERROR, "a password hash is 1 to %d bytes", STORE_PWHASH_SIZE - 1);
	struct binder b = store_binder(s, ST_PLAYER_CREATE);
	b_text(&b, P_NAME, name);
	b_text(&b, P_PWHASH, pwhash);
	b_text(&b, P_ROLE, role);
	if ((r = store_run(s, &b)) == STORE_CONFLICT)
		return store_fail(s, STORE_CONFLICT, "the name \"%s\" is taken", name);
	if (r == STORE_OK && id)
		*id = sqlite3_last_insert_rowid(s->db);
	return r;
}

enum store_rc store_read_player(struct store *s, sqlite3_stmt *st, struct store_player *p)
{
	enum store_rc r;
	memset(p, 0, sizeof *p);
	p->id = sqlite3_column_int64(st, PC_ID);
	if ((r = store_col_copy(s, st, PC_NAME, p->name, sizeof p->name)) != STORE_OK
			|| (r = store_col_copy(s, st, PC_PWHASH, p->pwhash, sizeof p->pwhash)) != STORE_OK
			|| (r = store_col_copy(s, st, PC_ROLE, p->role, sizeof p->role)) != STORE_OK
			|| (r = store_col_copy(s, st, PC_RANK, p->rank, sizeof p->rank)) != STORE_OK)
		return r;
	p->rating = sqlite3_column_double(st, PC_RATING);
	p->rd = sqlite3_column_double(st, PC_RD);
	p->volatility = sqlite3_column_double(st, PC_VOLATILITY);
	p->created_at = sqlite3_column_double(st, PC_CREATED_AT);
	p->rating_start = sqlite3_column_double(st, PC_RATING_START);
	p->rd_start = sqlite3_column_double(st, PC_RD_START);
	p->volatility_start = sqlite3_column_double(st, PC_VOLATILITY_START);
	p->last_rated_at = sqlite3_column_double(st, PC_LAST_RATED_AT);
	return STORE_OK;
}

/* Step a bound one-row query into *p. */
static enum store_rc player_one(struct store *s, struct binder *b, struct store_player *p)
{
	enum store_rc r;
	if (b->rc != SQLITE_OK)
		return store_bind_fail(s, b);
	int rc = sqlite3_step(b->st);
	if (rc == SQLITE_ROW)
		r = store_read_player(s, b->st, p);
	else if (rc == SQLITE_DONE)
		r = store_fail(s, STORE_NOT_FOUND, "no such player");
	else
		r = store_sql_fail(s, rc);
	store_done(b->st);
	return r;
}

enum store_rc store_player_by_name(struct store *s, const char *name, struct store_player *out)
{
	struct binder b = store_binder(s, ST_PLAYER_BY_NAME);
	if (!name)
		return store_fail(s, STORE_ERROR, "no name");
	b_text(&b, P_NAME, name);
	return player_one(s, &b, out);
}

enum store_rc store_player_by_id(struct store *s, int64_t id, struct store_player *out)
{
	struct binder b = store_binder(s, ST_PLAYER_BY_ID);
	b_int(&b, P_ID, id);
	return player_one(s, &b, out);
}

enum store_rc store_player_set_role(struct store *s, const char *name, const char *role)
{
	enum store_rc r;
	if ((r = check_role(s, role)) != STORE_OK)
		return r;
	if (!name)
		return store_fail(s, STORE_ERROR, "no name");
	struct binder b = store_binder(s, ST_PLAYER_SET_ROLE);
	b_text(&b, P_NAME, name);
	b_text(&b, P_ROLE, role);
	return store_run_one(s, &b, "player");
}

enum store_rc store_player_set_rating(struct store *s, int64_t id, double rating, double rd,
		double volatility)
{
	struct binder b = store_binder(s, ST_PLAYER_SET_RATING);
	b_int(&b, P_ID, id);
	b_double(&b, P_RATING, rating);
	b_double(&b, P_RD, rd);
	b_double(&b, P_VOLATILITY, volatility);
	return store_run_one(s, &b, "player");
}

enum store_rc store_players_list(struct store *s, store_player_cb cb, void *ctx)
{
	sqlite3_stmt *st = s->st[ST_PLAYERS_LIST];
	enum store_rc r = store_check_idle(s, st, "store_players_list");
	struct store_player p;
	int rc;
	if (r != STORE_OK)
		return r;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((r = store_read_player(s, st, &p)) != STORE_OK || cb(ctx, &p) != 0)
			break;
	}
	if (r == STORE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
		r = store_sql_fail(s, rc);
	store_done(st);
	return r;
}

