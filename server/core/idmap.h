/* idmap: a hash map from positive int64 ids to pointers (open addressing, linear probing,
 * backward-shift deletion). */
#ifndef TENGEN_IDMAP_H
#define TENGEN_IDMAP_H

#include <stddef.h>
#include <stdint.h>

struct idmap_slot { int64_t key; void *val; };
struct idmap { struct idmap_slot *slots; size_t cap, n; };

/* The value for key, or NULL. */
void *idmap_get(const struct idmap *m, int64_t key);
/* Where key's value is kept (to replace it in place, which cannot fail), or NULL when key is
 * absent. Valid until the next put or del. */
void **idmap_ref(const struct idmap *m, int64_t key);
/* Set key (> 0) to val (non-NULL). Returns 0 or -1 on OOM. */
int idmap_put(struct idmap *m, int64_t key, void *val);
/* Remove key if present. */
void idmap_del(struct idmap *m, int64_t key);
void idmap_free(struct idmap *m);
/* Iterate: for (size_t i = 0; i < m->cap; i++) if (m->slots[i].key) ... */

#endif
