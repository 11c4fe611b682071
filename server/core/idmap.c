/* idmap: see idmap.h. */
#include <stdlib.h>
#include "idmap.h"

static size_t slot_of(const struct idmap *m, int64_t key)
{
	return (size_t)((uint64_t)key * 0x9e3779b97f4a7c15ULL >> 7) & (m->cap - 1);
}

void **idmap_ref(const struct idmap *m, int64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = slot_of(m, key);; i = (i + 1) & (m->cap - 1)) {
		if (m->slots[i].key == key)
			return &m->slots[i].val;
		if (!m->slots[i].key)
			return NULL;
	}
}

void *idmap_get(const struct idmap *m, int64_t key)
{
	void **ref = idmap_ref(m, key);
	return ref ? *ref : NULL;
}

int idmap_put(struct idmap *m, int64_t key, void *val)
{
	if ((m->n + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 16;
		struct idmap_slot *old = m->slots;
		size_t ocap = m->cap;
		m->slots = calloc(ncap, sizeof *m->slots);
		if (!m->slots) {
			m->slots = old;
			return -1;
		}
		m->cap = ncap;
		m->n = 0;
		for (size_t i = 0; i < ocap; i++)
			if (old[i].key)
				idmap_put(m, old[i].key, old[i].val);
		free(old);
	}
	size_t i = slot_of(m, key);
	while (m->slots[i].key && m->slots[i].key != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->slots[i].key)
		m->n++;
	m->slots[i].key = key;
	m->slots[i].val = val;
	return 0;
}

void idmap_del(struct idmap *m, int64_t key)
{
	if (!m->cap)
		return;
	size_t i = slot_of(m, key);
	while (m->slots[i].key != key) {
		if (!m->slots[i].key)
			return;
		i = (i + 1) & (m->cap - 1);
	}
	m->n--;
	/* Backward-shift the following cluster so look-ups still find every key. */
	for (size_t j = (i + 1) & (m->cap - 1); m->slots[j].key; j = (j + 1) & (m->cap - 1)) {
		size_t h = slot_of(m, m->slots[j].key);
		if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
			m->slots[i] = m->slots[j];
			i = j;
		}
	}
	m->slots[i].key = 0;
	m->slots[i].val = NULL;
}

void idmap_free(struct idmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->n = 0;
}
