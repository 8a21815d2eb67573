/*
 * Scheduling simulation: small containers (arena, string table on the
 * shared map of common/map.h,
 * key buffer) and messages.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sched_private.h"


/* ------------------------------------------------------------------ */
/* String table                                                        */

int kp__strtab_intern(sc_strtab *t, const char *s, uint32_t *id)
{
	if (!s)
		s = "";
	uint32_t v;
	if (kp__map_gets(&t->map, s, &v)) {
		*id = v;
		return KP_OK;
	}
	if (kp__grow((void **)&t->strs, &t->cap, t->n + 1, sizeof(*t->strs)) != KP_OK)
		return KP_ENOMEM;
	const char *stored = NULL;
	if (kp__map_put_key(&t->map, s, strlen(s), (uint32_t)t->n, &v, NULL, &stored) != KP_OK)
		return KP_ENOMEM;
	t->strs[t->n++] = stored;
	*id = v;
	return KP_OK;
}

int kp__strtab_find(const sc_strtab *t, const char *s, uint32_t *id)
{
	if (!s)
		s = "";
	return kp__map_get(&t->map, s, strlen(s), id);
}

void kp__strtab_free(sc_strtab *t)
{
	kp__map_free(&t->map);
	kp__free(t->strs);
	memset(t, 0, sizeof(*t));
}

/* ------------------------------------------------------------------ */
/* Key buffer                                                          */


void kp__buf_u32(sc_buf *b, uint32_t v)
{
	kp__buf_put(b, (const char *)&v, sizeof(v));
}

void kp__buf_i64(sc_buf *b, int64_t v)
{
	kp__buf_put(b, (const char *)&v, sizeof(v));
}

void kp__buf_str(sc_buf *b, const char *s)
{
	if (!s) {
		kp__buf_u32(b, UINT32_MAX);
		return;
	}
	size_t n = strlen(s);
	kp__buf_u32(b, (uint32_t)n);
	kp__buf_put(b, (const char *)s, n);
}






/* ------------------------------------------------------------------ */
/* Reasons                                                             */

void kp__why(sc_why *w, uint32_t code, const char *field, const char *fmt, ...)
{
	if (!w)
		return;
	/* the arguments may point into the texts being replaced */
	char *old_field = w->field, *old_msg = w->msg;
	w->code = code;
	w->field = field && field[0] ? kp__strdup(field) : NULL;
	va_list ap;
	va_start(ap, fmt);
	w->msg = kp__strdup_vprintf(fmt, ap);
	va_end(ap);
	kp__free(old_field);
	kp__free(old_msg);
}

void kp__why_dispose(sc_why *w)
{
	if (!w)
		return;
	kp__free(w->field);
	kp__free(w->msg);
	memset(w, 0, sizeof(*w));
}

int kp__res_exponent(const char *name)
{
	if (!strcmp(name, KP_RESOURCE_MEMORY) || !strcmp(name, KP_RESOURCE_EPHEMERAL_STORAGE) ||
	    !strcmp(name, KP_RESOURCE_STORAGE) ||
	    !strncmp(name, KP_RESOURCE_HUGEPAGES_PREFIX, strlen(KP_RESOURCE_HUGEPAGES_PREFIX)))
		return 0;
	return -3;
}

int64_t kp__res_value(const char *name, const kp_quantity *q)
{
	int64_t v;
	if (kp_quantity_scaled_value(q, kp__res_exponent(name), &v) != KP_OK)
		return kp_quantity_sign(q) < 0 ? INT64_MIN : INT64_MAX;
	return v;
}

/* Requirement sets the snapshot owns (pool, node and pod-class sets), freed
 * with it. Here, beside the arena, so that the files that build the
 * snapshot (cluster, podclass, topology, volumes) only call downward. */
int kp__cluster_keep_reqs(struct kp_cluster *c, kp_requirements *r)
{
	if (!r)
		return KP_OK;
	if (kp__grow((void **)&c->to_free, &c->cap_to_free, c->n_to_free + 1, sizeof(void *)) !=
	    KP_OK) {
		kp_requirements_free(r);
		return KP_ENOMEM;
	}
	c->to_free[c->n_to_free++] = r;
	return KP_OK;
}
