/* accounts: see accounts.h. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sodium.h>
#include "accounts.h"
#include "conn.h"
#include "games.h"
#include "log.h"
#include "panic.h"
#include "rating.h"
#include "ratings.h"
#include "svc_error.h"

#define LOGIN_FAIL_ENTRIES 4096 /* remembered (name or address) keys at most */

struct login_fail {
	char key[80];
	double start;
	int count;
};

enum job_kind { JOB_REGISTER, JOB_LOGIN };

struct pw_job;

/* Accounts' own state (one server a process): the rate limiter's windows (failed logins and
 * registrations, per key) and the registrations waiting for their hashing thread. Emptied by
 * accounts_free. */
static struct {
	struct login_fail *fails;
	size_t nfails, capfails;
	struct pw_job *reg_queue, *reg_queue_tail;
	unsigned reg_queued, reg_running;
	/* Logins waiting because their address has login_hashing_per_address on the pool: the
	 * hashing threads serve every address, and right passwords are not failures, so the
	 * failed-login limits do not stop one address from queueing hundreds ahead of others. */
	struct pw_job *login_wait, *login_wait_tail;
} acc;

struct pw_job {
	uv_work_t work;
	struct pw_job *next;          /* registrations waiting for their thread */
	enum job_kind kind;
	struct conn *c;
	json_t *id;                   /* the request's, for the reply (held) */
	accounts_done_fn done;        /* the reply (cmd/) */
	char name[PROTO_NAME_MAX + 1];
	char *password;
	bool fast;
	char hash[STORE_PWHASH_SIZE]; /* register: the new hash; login: the stored one */
	int ok;                       /* result of the work */
	bool exclusive;               /* login: replace the player's other exclusive connections */
	struct store_player player;
};

int accounts_hash(const char *password, bool fast, char out[STORE_PWHASH_SIZE])
{
	unsigned long long ops = fast ? crypto_pwhash_OPSLIMIT_MIN : crypto_pwhash_OPSLIMIT_INTERACTIVE;
	size_t mem = fast ? crypto_pwhash_MEMLIMIT_MIN : crypto_pwhash_MEMLIMIT_INTERACTIVE;
	return crypto_pwhash_str(out, password, strlen(password), ops, mem);
}

json_t *accounts_player_json(const struct store_player *p)
{
	/* rank: from the rating, "5k?" while provisional (common/rating.h); declared_rank: what
	 * the player declared at registration, if anything. */
	char rank[RANK_STR_MAX];
	if (rating_to_rank(p->rating, p->rd, rank, sizeof rank) != RATING_OK)
		rank[0] = '\0';
	return json_pack("{s:I, s:s, s:s, s:f, s:f, s:s, s:s?}", "id", (json_int_t)p->id, "name",
			 p->name, "role", p->role, "rating", p->rating, "rd", p->rd, "rank", rank,
			 "declared_rank", p->rank[0] ? p->rank : NULL);
}

/* ---- rate limiting of failed logins ---- */

static struct login_fail *fail_find(const char *key, bool create, double now)
{
	struct login_fail *oldest = NULL;
	for (size_t i = 0; i < acc.nfails; i++) {
		if (strcmp(acc.fails[i].key, key) == 0)
			return &acc.fails[i];
		if (!oldest || acc.fails[i].start < oldest->start)
			oldest = &acc.fails[i];
	}
	if (!create)
		return NULL;
	struct login_fail *f;
	if (acc.nfails == acc.capfails && acc.capfails < LOGIN_FAIL_ENTRIES) {
		size_t ncap = acc.capfails ? acc.capfails * 2 : 64;
		struct login_fail *n = realloc(acc.fails, ncap * sizeof *n);
		if (!n)
			return oldest;
		acc.fails = n;
		acc.capfails = ncap;
	}
	if (acc.nfails < acc.capfails)
		f = &acc.fails[acc.nfails++];
	else
		f = oldest; /* full: forget the oldest window */
	snprintf(f->key, sizeof f->key, "%s", key);
	f->start = now;
	f->count = 0;
	return f;
}

/* The two keys a failed login counts against: the name (lower-cased) from this address, and
 * the address. No key counts a name from every address: nobody elsewhere can lock a player
 * out. */
#define FAIL_KEYS 2
static void fail_keys(char keys[FAIL_KEYS][80], const char *name, const char *addr)
{
	char lname[PROTO_NAME_MAX + 1];
	size_t k = 0;
	for (; name[k] && k < PROTO_NAME_MAX; k++)
		lname[k] = (char)tolower((unsigned char)name[k]);
	lname[k] = '\0';
	snprintf(keys[0], 80, "p:%s@%s", lname, addr);
	snprintf(keys[1], 80, "a:%s", addr);
}

/* Limits per key (server.h): a guesser is stopped after SERVER_LOGIN_FAILS tries at one name
 * from one address, and after --login-fails-per-address tries at any names from it (much more:
 * many players may share an address behind a NAT). */
static int fail_limit(struct server *srv, int key)
{
	return key == 0 ? SERVER_LOGIN_FAILS : (int)srv->set.login_fails_per_address;
}

static bool rate_limited(struct server *srv, const char *name, const char *addr)
{
	char keys[FAIL_KEYS][80];
	double now = server_now();
	fail_keys(keys, name, addr);
	for (int i = 0; i < FAIL_KEYS; i++) {
		struct login_fail *f = fail_find(keys[i], false, now);
		if (f && now - f->start < SERVER_LOGIN_WINDOW_S && f->count >= fail_limit(srv, i))
			return true;
	}
	return false;
}

/* Registrations from one address: at most --register-per-address per
 * SERVER_REGISTER_WINDOW_S (counted in the same table, key "r:ADDR"). Returns the seconds to
 * wait, or 0 and counts this one. */
static int register_wait(struct server *srv, const char *addr)
{
	char key[80];
	double now = server_now();
	snprintf(key, sizeof key, "r:%s", addr);
	struct login_fail *f = fail_find(key, true, now);
	if (!f)
		return 0;
	if (now - f->start >= SERVER_REGISTER_WINDOW_S) {
		f->start = now;
		f->count = 0;
	}
	if (f->count >= (int)srv->set.register_per_address) {
		int wait = (int)(f->start + SERVER_REGISTER_WINDOW_S - now) + 1;
		return wait > 0 ? wait : 1;
	}
	f->count++;
	return 0;
}

static void record_failure(struct server *srv, const char *name, const char *addr)
{
	char keys[FAIL_KEYS][80];
	double now = server_now();
	fail_keys(keys, name, addr);
	for (int i = 0; i < FAIL_KEYS; i++) {
		struct login_fail *f = fail_find(keys[i], true, now);
		if (!f)
			continue;
		if (now - f->start >= SERVER_LOGIN_WINDOW_S) {
			f->start = now;
			f->count = 0;
		}
		f->count++;
	}
}

static void job_free(struct pw_job *j)
{
	sodium_memzero(j->password, strlen(j->password));
	free(j->password);
	json_decref(j->id);
	free(j);
}

void accounts_free(struct server *srv)
{
	(void)srv; /* the state is accounts' own */
	/* Registrations still waiting for a thread when the server stopped. */
	while (acc.reg_queue) {
		struct pw_job *j = acc.reg_queue;
		acc.reg_queue = j->next;
		struct conn *c = j->c;
		job_free(j);
		conn_unref(c);
	}
	acc.reg_queue_tail = NULL;
	acc.reg_queued = 0;
	while (acc.login_wait) {
		struct pw_job *j = acc.login_wait;
		acc.login_wait = j->next;
		struct conn *c = j->c;
		job_free(j);
		conn_unref(c);
	}
	acc.login_wait_tail = NULL;
	free(acc.fails);
	acc.fails = NULL;
	acc.nfails = acc.capfails = 0;
}

/* ---- commands ---- */

/* A hashing thread (libuv's pool, which nothing else here uses) runs at a lower priority
 * (SERVER_PWHASH_NICE): an Argon2id hash is 0.3-0.5 s of CPU, and with a login flood from
 * several addresses up to the pool's four threads hashed at once on a 2-core machine and took
 * the CPU from the loop (a trial: honest pings p99 196 ms, loop stalls 100-140 ms). The loop
 * thread keeps the default priority and preempts them. Linux's priorities are per thread
 * (setpriority of the thread's id); elsewhere, or refused, nothing changes. */
static void pwhash_thread_nice(void)
{
#ifdef __linux__
	static _Thread_local bool done;
	if (!done) {
		done = true;
		(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), SERVER_PWHASH_NICE);
	}
#endif
}

static void job_work(uv_work_t *w)
{
	struct pw_job *j = w->data;
	pwhash_thread_nice();
	if (j->kind == JOB_REGISTER)
		j->ok = accounts_hash(j->password, j->fast, j->hash) == 0;
	else
		j->ok = crypto_pwhash_str_verify(j->hash, j->password, strlen(j->password)) == 0;
}

static void reg_next(struct server *srv);

/* A registration's password is hashed: create the player (and its declared rank) in the
 * iteration's transaction and reply (j->done). Once the row is written, a failure stops the
 * server (panic.h): the player is either durable and told so, or not there at all. */
static void register_done(struct conn *c, struct pw_job *j)
{
	struct server *srv = c->srv;
	struct store_player p;
	struct proto_error e;
	int64_t id;
	enum store_rc rc;
	if (!j->ok) {
		svc_fail(&e, PROTO_ERR_INTERNAL, "could not hash the password");
		j->done(c, j->id, &e, NULL);
		return;
	}
	server_txn(srv);
	rc = store_player_create(srv->store, j->name, j->hash, "player", &id);
	if (rc == STORE_CONFLICT) {
		svc_fail(&e, PROTO_ERR_CONFLICT, "the name '%s' is taken", j->name);
		j->done(c, j->id, &e, NULL);
		return;
	}
	if (rc != STORE_OK)
		CORE_PANIC(srv->store, "what=register name=%s", j->name);
	if (j->player.rank[0] && ratings_declare_rank(srv, id, j->player.rank) != 0)
		CORE_PANIC(srv->store, "what=register_rank name=%s", j->name);
	if (store_player_by_id(srv->store, id, &p) != STORE_OK)
		CORE_PANIC(srv->store, "what=register_read name=%s", j->name);
	log_msg(LOGL_INFO, "register", "player=%s id=%lld", p.name, (long long)id);
	j->done(c, j->id, NULL, &p);
}

#define ACCOUNTS_EXCLUSIVE_SCAN 16 /* older exclusive connections logged out per pass */

/* c logged in with `exclusive`: the player's other exclusive connections (an older bridge of
 * the same account, say) hear `session.replaced` and are logged out, as `logout` does; they
 * stay connected. */
static void replace_exclusive(struct server *srv, struct conn *c)
{
	struct conn *old[ACCOUNTS_EXCLUSIVE_SCAN];
	size_t n;
	do { /* a few at a time: logging one out changes the list */
		n = 0;
		for (struct conn *p = idmap_get(&srv->sessions, c->player_id);
		     p && n < ACCOUNTS_EXCLUSIVE_SCAN; p = p->pnext)
			if (p != c && p->exclusive)
				old[n++] = p;
		for (size_t i = 0; i < n; i++) {
			struct conn *p = old[i];
			json_t *e = proto_event("session.replaced");
			json_object_set_new(e, "addr", json_string(c->addr));
			server_send(p, e);
			json_decref(e);
			log_msg(LOGL_INFO, "session_replaced", "player=%s conn=%llu by=%llu", p->name,
				(unsigned long long)p->serial, (unsigned long long)c->serial);
			server_session_del(srv, p);
			p->name[0] = '\0';
			p->role = PROTO_ROLE_PLAYER;
			p->exclusive = false;
		}
	} while (n == ACCOUNTS_EXCLUSIVE_SCAN);
}

static void login_next(struct server *srv, struct host *h);

static void job_done(uv_work_t *w, int status)
{
	struct pw_job *j = w->data;
	struct conn *c = j->c;
	struct server *srv = c->srv;
	if (j->kind == JOB_REGISTER) {
		acc.reg_running--;
		reg_next(srv);
	} else if (c->host && c->host->hashing) {
		c->host->hashing--;
		login_next(srv, c->host);
	}
	if (c->closing || status < 0)
		goto out;
	if (j->kind == JOB_REGISTER) {
		register_done(c, j);
	} else if (!j->ok || !j->player.id) {
		struct proto_error e;
		record_failure(srv, j->name, c->addr);
		log_msg(LOGL_INFO, "login_failed", "name=%s addr=%s", j->name, c->addr);
		svc_fail(&e, PROTO_ERR_UNAUTHENTICATED, "wrong name or password");
		j->done(c, j->id, &e, NULL);
	} else {
		if (c->player_id)
			server_session_del(srv, c);
		c->player_id = j->player.id;
		snprintf(c->name, sizeof c->name, "%s", j->player.name);
		proto_role_parse(j->player.role, &c->role);
		server_session_add(srv, c);
		log_msg(LOGL_INFO, "login", "player=%s conn=%llu addr=%s%s", c->name,
			(unsigned long long)c->serial, c->addr, j->exclusive ? " exclusive=1" : "");
		c->exclusive = j->exclusive;
		if (j->exclusive)
			replace_exclusive(srv, c);
		j->done(c, j->id, NULL, &j->player);
		games_player_back(c);
		games_player_login(c);
	}
out:
	conn_resume(c);
	job_free(j);
	conn_unref(c);
}

/* Put login job j of c on the hashing pool; its address counts one more. Returns 0, or -1. */
static int login_start(struct pw_job *j)
{
	struct conn *c = j->c;
	if (uv_queue_work(c->srv->loop, &j->work, job_work, job_done) < 0)
		return -1;
	if (c->host)
		c->host->hashing++;
	return 0;
}

/* A login of address h left the pool: start its next waiting one, if any (in arrival order). */
static void login_next(struct server *srv, struct host *h)
{
	struct pw_job **pp = &acc.login_wait, *prev = NULL;
	while (*pp && h->hashing < srv->set.login_hashing_per_address) {
		struct pw_job *j = *pp;
		if (j->c->host != h) {
			prev = j;
			pp = &j->next;
			continue;
		}
		*pp = j->next;
		if (acc.login_wait_tail == j)
			acc.login_wait_tail = prev;
		j->next = NULL;
		struct conn *c = j->c;
		if (c->closing || srv->stopping || login_start(j) < 0) {
			struct proto_error e;
			if (!c->closing && !srv->stopping) {
				svc_fail(&e, PROTO_ERR_INTERNAL, "could not start hashing");
				j->done(c, j->id, &e, NULL);
			}
			conn_resume(c);
			job_free(j);
			conn_unref(c);
		}
	}
}

/* Start waiting registrations while fewer than SERVER_REGISTER_THREADS hash: the rest of the
 * thread pool stays free for logins. */
static void reg_next(struct server *srv)
{
	while (acc.reg_queue && acc.reg_running < SERVER_REGISTER_THREADS) {
		struct pw_job *j = acc.reg_queue;
		if (!(acc.reg_queue = j->next))
			acc.reg_queue_tail = NULL;
		acc.reg_queued--;
		struct conn *c = j->c;
		if (c->closing || srv->stopping) {
			job_free(j);
			conn_unref(c);
			continue;
		}
		if (uv_queue_work(srv->loop, &j->work, job_work, job_done) < 0) {
			struct proto_error e;
			svc_fail(&e, PROTO_ERR_INTERNAL, "could not start hashing");
			j->done(c, j->id, &e, NULL);
			conn_resume(c);
			job_free(j);
			conn_unref(c);
			continue;
		}
		acc.reg_running++;
	}
}

/* Start job j for c (the request's id, name, password): queued (registrations) or on the
 * pool. Returns 0, or -1 with *e filled (j freed). */
static int start_job(struct conn *c, struct pw_job *j, const json_t *id, const char *name,
		     const char *password, accounts_done_fn done, struct proto_error *e)
{
	struct server *srv = c->srv;
	j->c = c;
	j->id = json_incref((json_t *)id);
	j->done = done;
	snprintf(j->name, sizeof j->name, "%s", name);
	j->password = strdup(password);
	j->fast = srv->set.pwhash_fast;
	j->work.data = j;
	if (!j->password) {
		json_decref(j->id);
		free(j);
		return svc_fail(e, PROTO_ERR_INTERNAL, "out of memory");
	}
	if (j->kind == JOB_REGISTER) {
		/* Registrations queue for their share of the pool (reg_next); accounts_register
		 * checked that there is room. */
		if (acc.reg_queue_tail)
			acc.reg_queue_tail->next = j;
		else
			acc.reg_queue = j;
		acc.reg_queue_tail = j;
		acc.reg_queued++;
		c->busy = true;
		conn_ref(c);
		reg_next(srv);
		return 0;
	}
	if (c->host && c->host->hashing >= srv->set.login_hashing_per_address) {
		/* its address has its share of the pool: wait for one of them (login_next) */
		if (acc.login_wait_tail)
			acc.login_wait_tail->next = j;
		else
			acc.login_wait = j;
		acc.login_wait_tail = j;
	} else if (login_start(j) < 0) {
		job_free(j);
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not start hashing");
	}
	c->busy = true;
	conn_ref(c);
	return 0;
}

int accounts_register(struct conn *c, const json_t *id, const char *name, const char *password,
		      const char *rank, accounts_done_fn done, struct proto_error *e)
{
	char declared[STORE_RANK_SIZE] = "";
	struct store_player p;
	/* An optional declared rank (issue 7): the rating starts from it (ratings_declare_rank,
	 * called by job_done once the player exists). */
	if (rank && ratings_rank_check(rank, declared) < 0)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST,
				"field 'rank': a rank from 30k to 1k or 1d to 9d, e.g. \"3k\"");
	if (store_player_by_name(c->srv->store, name, &p) == STORE_OK)
		return svc_fail(e, PROTO_ERR_CONFLICT, "the name '%s' is taken", name);
	/* A full queue refuses before the address's count (register_wait) is taken: a refused
	 * registration changes nothing, so clients retrying it do not use up the address's
	 * --register-per-address for the whole window. */
	if (acc.reg_queued >= SERVER_REGISTER_QUEUE_MAX)
		return svc_fail(e, PROTO_ERR_RATE_LIMITED,
				"too many registrations waiting; try again later");
	int wait = register_wait(c->srv, c->addr);
	if (wait)
		return svc_fail(e, PROTO_ERR_RATE_LIMITED,
				"too many registrations from this address; try again in %d seconds",
				wait);
	struct pw_job *j = calloc(1, sizeof *j);
	if (!j)
		return svc_fail(e, PROTO_ERR_INTERNAL, "out of memory");
	j->kind = JOB_REGISTER;
	memcpy(j->player.rank, declared, sizeof declared); /* unused otherwise by a register job */
	return start_job(c, j, id, name, password, done, e);
}

int accounts_login(struct conn *c, const json_t *id, const char *name, const char *password,
		   bool exclusive, accounts_done_fn done, struct proto_error *e)
{
	if (rate_limited(c->srv, name, c->addr))
		return svc_fail(e, PROTO_ERR_RATE_LIMITED,
				"too many failed logins; try again in %d seconds", SERVER_LOGIN_WINDOW_S);
	struct pw_job *j = calloc(1, sizeof *j);
	if (!j)
		return svc_fail(e, PROTO_ERR_INTERNAL, "out of memory");
	j->kind = JOB_LOGIN;
	j->exclusive = exclusive;
	if (store_player_by_name(c->srv->store, name, &j->player) != STORE_OK) {
		/* Verify against a hash of nothing so an unknown name costs the same time. */
		static char dummy[STORE_PWHASH_SIZE];
		if (!dummy[0])
			accounts_hash("not a password", c->srv->set.pwhash_fast, dummy);
		snprintf(j->hash, sizeof j->hash, "%s", dummy);
		j->player.id = 0;
	} else {
		snprintf(j->hash, sizeof j->hash, "%s", j->player.pwhash);
	}
	memset(j->player.pwhash, 0, sizeof j->player.pwhash);
	return start_job(c, j, id, name, password, done, e);
}
