/* store_vec: a growable array. See store_vec.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "store_vec.h"

void *store_vec_room(struct store_vec *v)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : STORE_VEC_START;
		if (cap < v->cap || cap > SIZE_MAX / v->size)
			return NULL;
		void *nv = realloc(v->v, cap * v->size);
		if (!nv)
			return NULL;
		v->v = nv;
		v->cap = cap;
	}
	char *e = (char *)v->v + v->n * v->size;
	memset(e, 0, v->size);
	return e;
}

void store_vec_free(struct store_vec *v)
{
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}
