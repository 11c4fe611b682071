/* profiles: see profiles.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "panic.h"
#include "profiles.h"
#include "ratings.h"
#include "svc_error.h"

/* "field 'entrant.name'" or "field 'name'" into buf. */
static const char *field_name(char *buf, size_t n, const char *what, const char *field)
{
	if (!what[0] && strcmp(field, "name") == 0)
		field = "full_name"; /* player.update's name for it */
	snprintf(buf, n, "%s%s%s", what, what[0] ? "." : "", field);
	return buf;
}

static bool name_ok(const char *s)
{
	size_t n = strlen(s);
	int words = 0;
	if (n < 1 || n > STORE_FULL_NAME_MAX || s[0] == ' ' || s[n - 1] == ' ')
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20 || ch == 0x7f)
			return false;
		if (ch == ' ' && s[i + 1] == ' ')
			return false;
		if (ch != ' ' && (i == 0 || s[i - 1] == ' '))
			words++;
	}
	return words >= PROFILE_NAME_MIN_WORDS;
}

static bool club_ok(const char *s)
{
	size_t n = strlen(s);
	if (n < 1 || n > STORE_CLUB_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f)
			return false;
	return true;
}

static bool digits_ok(const char *s, size_t len)
{
	if (strlen(s) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

int profile_check(const struct profile_in *in, const char *what, struct store_profile *out,
		  char rank[STORE_RANK_SIZE], struct proto_error *e)
{
	char f[64];
	if (in->name && !name_ok(in->name))
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': '%s' is not a name as "
				"\"Surname Firstname\" (at least two words, single spaces, 1 to %d bytes)",
				field_name(f, sizeof f, what, "name"), in->name, STORE_FULL_NAME_MAX);
	char canon[STORE_RANK_SIZE];
	if (in->rank && ratings_rank_check(in->rank, canon) < 0)
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': '%s' is not a rank from 30k to 9d",
				field_name(f, sizeof f, what, "rank"), in->rank);
	if (in->country && (strlen(in->country) != 2 || !isalpha((unsigned char)in->country[0]) ||
			    !isalpha((unsigned char)in->country[1]) ||
			    (unsigned char)in->country[0] > 0x7f || (unsigned char)in->country[1] > 0x7f))
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': '%s' is not a country code of "
				"two letters (ISO 3166-1, e.g. FR)",
				field_name(f, sizeof f, what, "country"), in->country);
	if (in->club && !club_ok(in->club))
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': a club is 1 to %d bytes without "
				"spaces (the EGD's club code, e.g. Lyon)",
				field_name(f, sizeof f, what, "club"), STORE_CLUB_MAX);
	if (in->egd_pin && !digits_ok(in->egd_pin, STORE_EGD_PIN_LEN))
		return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field '%s': '%s' is not an EGD PIN (%d digits)",
				field_name(f, sizeof f, what, "egd_pin"), in->egd_pin,
				STORE_EGD_PIN_LEN);
	if (in->name)
		snprintf(out->full_name, sizeof out->full_name, "%s", in->name);
	if (in->rank)
		memcpy(rank, canon, sizeof canon);
	if (in->country) {
		out->country[0] = (char)toupper((unsigned char)in->country[0]);
		out->country[1] = (char)toupper((unsigned char)in->country[1]);
		out->country[2] = '\0';
	}
	if (in->club)
		snprintf(out->club, sizeof out->club, "%s", in->club);
	if (in->egd_pin)
		snprintf(out->egd_pin, sizeof out->egd_pin, "%s", in->egd_pin);
	return 0;
}

int profile_to_json(struct server *srv, int64_t id, json_t *obj)
{
	struct store_profile p;
	enum store_rc rc = store_profile_get(srv->store, id, &p);
	if (rc == STORE_NOT_FOUND)
		return 0;
	if (rc != STORE_OK)
		return -1;
	if (p.full_name[0])
		json_object_set_new(obj, "full_name", json_string(p.full_name));
	if (p.country[0])
		json_object_set_new(obj, "country", json_string(p.country));
	if (p.club[0])
		json_object_set_new(obj, "club", json_string(p.club));
	if (p.egd_pin[0])
		json_object_set_new(obj, "egd_pin", json_string(p.egd_pin));
	if (p.entrant)
		json_object_set_new(obj, "entrant", json_true());
	return 0;
}

int profile_update(struct server *srv, int64_t id, const struct profile_in *in,
		   struct proto_error *e)
{
	struct store_profile p;
	char rank[STORE_RANK_SIZE] = "";
	enum store_rc rc = store_profile_get(srv->store, id, &p);
	if (rc != STORE_OK && rc != STORE_NOT_FOUND)
		return svc_fail(e, PROTO_ERR_INTERNAL, "could not read the profile");
	if (profile_check(in, "", &p, rank, e) < 0)
		return -1;
	/* The rank first: refused after rated games, and then nothing is written. */
	if (rank[0]) {
		int r = ratings_declare_rank(srv, id, rank);
		if (r == -1)
			return svc_fail(e, PROTO_ERR_CONFLICT, "a rank can be declared only before the "
					"player's first rated game");
		if (r < 0)
			return svc_fail(e, PROTO_ERR_BAD_REQUEST, "field 'rank': '%s' is not a rank from "
					"30k to 9d", in->rank);
	}
	server_txn(srv);
	if (store_profile_set(srv->store, id, &p) != STORE_OK)
		CORE_PANIC(srv->store, "what=profile player=%lld", (long long)id);
	log_msg(LOGL_INFO, "profile", "player=%lld rank=%s country=%s club=%s egd_pin=%s", (long long)id,
		rank, p.country, p.club, p.egd_pin);
	return 0;
}

void profile_entry_set(json_t *v, const struct store_profile *prof)
{
	if (prof->entrant)
		json_object_set_new(v, "entrant", json_true());
	if (prof->full_name[0] && !prof->entrant)
		json_object_set_new(v, "full_name", json_string(prof->full_name));
	if (prof->country[0])
		json_object_set_new(v, "country", json_string(prof->country));
	if (prof->club[0])
		json_object_set_new(v, "club", json_string(prof->club));
	if (prof->egd_pin[0])
		json_object_set_new(v, "egd_pin", json_string(prof->egd_pin));
}
