/* profiles: what a tournament knows of a person, an account's or an entrant's (issue 16): the
 * full name ("Surname Firstname", as the EGD writes it), declared rank (30k-9d), country
 * (ISO 3166-1 alpha-2), club (EGD club code or name) and EGD PIN (8 digits); checked here,
 * stored in player_profiles (migration 0006; store_profile_*). The wire: docs/protocol.md
 * `tournament.register` `entrant`, `player.update`.
 */
#ifndef TENGEN_PROFILES_H
#define TENGEN_PROFILES_H

#include "server.h"

#define PROFILE_NAME_MIN_WORDS 2 /* "Surname Firstname": at least two words */

/* A profile as given (each NULL: not given). */
struct profile_in {
	const char *name, *rank, *country, *club, *egd_pin;
};

/* Check `in` and write its canonical form into *out (fields not given are left as they are:
 * so an update keeps them) and the canonical rank ("3k") into rank (untouched if not given).
 * `what` names the object in messages ("entrant": "field 'entrant.name': ..."; "" for top-level
 * fields). The forms: name 1..STORE_FULL_NAME_MAX bytes, no control character, words separated
 * by single spaces, at least PROFILE_NAME_MIN_WORDS; rank 30k..9d (ratings_rank_check); country
 * two ASCII letters (stored upper case); club 1..STORE_CLUB_MAX bytes without spaces or control
 * characters (the h9 format separates fields by spaces); egd_pin 8 digits. Returns 0, or -1
 * with a bad_request in *e naming the field. */
int profile_check(const struct profile_in *in, const char *what, struct store_profile *out,
		  char rank[STORE_RANK_SIZE], struct proto_error *e);

/* The profile of player `id` as JSON fields added to obj (full_name, country, club, egd_pin,
 * entrant: only those known). Returns 0, or -1 on a store error (obj unchanged). */
int profile_to_json(struct server *srv, int64_t id, json_t *obj);

/* Set player `id`'s profile from `in` (checked as profile_check; what it does not give is
 * kept), and its declared rank when given (ratings_declare_rank: only before any rated
 * game). Errors: bad_request (a field), conflict (a rank after rated games), not_found. */
int profile_update(struct server *srv, int64_t id, const struct profile_in *in,
		   struct proto_error *e);

/* A tournament's field entry `v` (an object of the state's "players") gets what the profile
 * `prof` holds for the exports: entrant, full_name (an account's), country, club, egd_pin
 * (docs/protocol.md tournament.get); used by registration and team.create. */
void profile_entry_set(json_t *v, const struct store_profile *prof);

#endif
