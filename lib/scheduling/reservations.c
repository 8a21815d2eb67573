/*
 * libkarpenter: reserved capacity in the scheduling simulation (upstream
 * pkg/controllers/provisioning/scheduling reservationmanager.go and the
 * reserved offerings of nodeclaim.go).
 *
 * The snapshot numbers the reservations of every catalogue's reserved
 * offerings once (kp__resv_compile): an offering's reservation is its
 * reservation_id, and the instances a reservation has left are the
 * smallest reservation_capacity any offering gives it (upstream keeps the
 * least when NodePools see different counts). A simulation counts them
 * down as NodeClaims reserve and up as they release; a NodeClaim holds a
 * sorted list of reservations. A NodeClaim may hold a reservation when it
 * already does or when an instance is left (upstream CanReserve), so
 * asking again is idempotent.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdlib.h>
#include <string.h>

#include "sched_private.h"

/* The label key carrying an offering's reservation ID: its first further
 * requirement (not capacity type or zone) In exactly that ID. */
static const char *resv_key(const kp_offering *of, const char *id)
{
	size_t n = kp_requirements_count(of->requirements);
	for (size_t i = 0; i < n; i++) {
		kp_requirement *r = kp_requirements_at(of->requirements, i);
		const char *k = kp_requirement_key(r);
		if (!strcmp(k, KP_LABEL_CAPACITY_TYPE) || !strcmp(k, KP_LABEL_TOPOLOGY_ZONE))
			continue;
		if (kp_requirement_operator(r) == KP_SELECTOR_OP_IN &&
		    kp_requirement_value_count(r) == 1 && !strcmp(kp_requirement_value_at(r, 0), id))
			return k;
	}
	return NULL;
}

static int is_reserved(const kp_offering *of)
{
	return of->capacity_type && !strcmp(of->capacity_type, KP_CAPACITY_TYPE_RESERVED);
}

static const char *resv_id(const kp_offering *of)
{
	return of->reservation_id ? of->reservation_id : "";
}

/* The distinct keys of the available reserved offerings' requirements
 * besides zone and capacity type (a provider uses one to three). */
static int extra_keys(struct kp_cluster *c, sc_catalog *cat)
{
	kp__map seen = { 0 };
	size_t cap = 0;
	const char **keys = NULL;
	int rc = KP_OK;
	for (size_t i = 0; i < cat->n && rc == KP_OK; i++) {
		const kp_instance_type *it = cat->items[i].it;
		for (uint32_t k = cat->resv_first[i]; k < cat->resv_first[i + 1] && rc == KP_OK; k++) {
			kp_requirements *r = it->offerings[cat->resv_offs[k].off]->requirements;
			for (size_t q = 0, n = kp_requirements_count(r); q < n && rc == KP_OK; q++) {
				const char *key = kp_requirement_key(kp_requirements_at(r, q));
				int fresh = 0;
				if (!strcmp(key, KP_LABEL_TOPOLOGY_ZONE) ||
				    !strcmp(key, KP_LABEL_CAPACITY_TYPE))
					continue;
				if (kp__map_put(&seen, key, strlen(key), 0, NULL, &fresh) ||
				    (fresh && kp__grow((void **)&keys, &cap, cat->n_resv_extra + 1,
						       sizeof(char *))))
					rc = KP_ENOMEM;
				else if (fresh)
					keys[cat->n_resv_extra++] = key;
			}
		}
	}
	kp__map_free(&seen);
	if (rc == KP_OK && cat->n_resv_extra) {
		cat->resv_extra = kp__arena_alloc(&c->arena, cat->n_resv_extra * sizeof(char *));
		if (cat->resv_extra)
			memcpy(cat->resv_extra, keys, cat->n_resv_extra * sizeof(char *));
		else
			rc = KP_ENOMEM;
	}
	kp__free(keys);
	return rc;
}

/* Number the reservations of one catalogue (into @p ids) and list its
 * available reserved offerings. */
static int cat_compile(struct kp_cluster *c, sc_catalog *cat, kp__map *ids, size_t *cap)
{
	size_t n_avail = 0;
	for (size_t i = 0; i < cat->n; i++) {
		const kp_instance_type *it = cat->items[i].it;
		for (size_t o = 0; o < it->n_offerings; o++) {
			const kp_offering *of = it->offerings[o];
			if (!is_reserved(of))
				continue;
			const char *id = resv_id(of);
			uint32_t idx;
			int fresh = 0;
			if (kp__map_put(ids, id, strlen(id), (uint32_t)c->n_resv, &idx, &fresh))
				return KP_ENOMEM;
			if (fresh) {
				if (kp__grow((void **)&c->resv_ids, cap, c->n_resv + 1, sizeof(char *)))
					return KP_ENOMEM;
				c->resv_ids[c->n_resv++] = id;
			}
			n_avail += of->available != 0;
		}
	}
	if (!n_avail)
		return KP_OK;
	cat->resv_first = kp__arena_alloc(&c->arena, (cat->n + 1) * sizeof(uint32_t));
	cat->resv_offs = kp__arena_alloc(&c->arena, n_avail * sizeof(*cat->resv_offs));
	if (!cat->resv_first || !cat->resv_offs)
		return KP_ENOMEM;
	uint32_t k = 0;
	for (size_t i = 0; i < cat->n; i++) {
		const kp_instance_type *it = cat->items[i].it;
		cat->resv_first[i] = k;
		for (size_t o = 0; o < it->n_offerings; o++) {
			const kp_offering *of = it->offerings[o];
			if (!is_reserved(of) || !of->available)
				continue;
			uint32_t idx = 0;
			kp__map_gets(ids, resv_id(of), &idx);
			cat->resv_offs[k].off = (uint32_t)o;
			cat->resv_offs[k].resv = idx;
			cat->resv_offs[k].by_pair =
				(uint16_t)kp__cat_offering_pair(c, cat, of, &cat->resv_offs[k].pair);
			k++;
		}
	}
	cat->resv_first[cat->n] = k;
	return extra_keys(c, cat);
}

int kp__resv_compile(struct kp_cluster *c)
{
	kp__map ids = { 0 };
	size_t cap = 0;
	int rc = KP_OK;
	for (size_t k = 0; k < c->n_cats && rc == KP_OK; k++)
		rc = cat_compile(c, &c->cats[k], &ids, &cap);
	kp__map_free(&ids);
	if (rc != KP_OK) {
		kp__free(c->resv_ids);
		c->resv_ids = NULL;
		c->n_resv = 0;
		return rc;
	}
	if (!c->n_resv)
		return KP_OK;
	/* the list grew on the heap: keep it in the arena with the rest */
	const char **heap = c->resv_ids;
	c->resv_ids = kp__arena_alloc(&c->arena, c->n_resv * sizeof(char *));
	c->resv_keys = kp__arena_alloc(&c->arena, c->n_resv * sizeof(char *));
	c->resv_cap = kp__arena_alloc(&c->arena, c->n_resv * sizeof(int64_t));
	if (c->resv_ids)
		memcpy(c->resv_ids, heap, c->n_resv * sizeof(char *));
	kp__free(heap);
	if (!c->resv_ids || !c->resv_keys || !c->resv_cap)
		return KP_ENOMEM;
	for (size_t r = 0; r < c->n_resv; r++)
		c->resv_cap[r] = -1;
	/* capacities and keys, available or not (upstream counts every
	 * reserved offering), by the ID's position */
	kp__map pos = { 0 };
	for (size_t r = 0; r < c->n_resv; r++)
		if (kp__map_put(&pos, c->resv_ids[r], strlen(c->resv_ids[r]), (uint32_t)r, NULL,
				NULL)) {
			kp__map_free(&pos);
			return KP_ENOMEM;
		}
	for (size_t k = 0; k < c->n_cats; k++) {
		const sc_catalog *cat = &c->cats[k];
		for (size_t i = 0; i < cat->n; i++) {
			const kp_instance_type *it = cat->items[i].it;
			for (size_t o = 0; o < it->n_offerings; o++) {
				const kp_offering *of = it->offerings[o];
				uint32_t r;
				if (!is_reserved(of) || !kp__map_gets(&pos, resv_id(of), &r))
					continue;
				if (c->resv_cap[r] < 0 || of->reservation_capacity < c->resv_cap[r])
					c->resv_cap[r] = of->reservation_capacity;
				if (!c->resv_keys[r])
					c->resv_keys[r] = resv_key(of, resv_id(of));
			}
		}
	}
	kp__map_free(&pos);
	for (size_t r = 0; r < c->n_resv; r++)
		if (c->resv_cap[r] < 0)
			c->resv_cap[r] = 0;
	return KP_OK;
}

size_t kp__cluster_reservation_count(const struct kp_cluster *c)
{
	return c->n_resv;
}

const char *kp__cluster_reservation_id(const struct kp_cluster *c, size_t r)
{
	return r < c->n_resv ? c->resv_ids[r] : NULL;
}

const char *kp__cluster_reservation_key(const struct kp_cluster *c, size_t r)
{
	return r < c->n_resv ? c->resv_keys[r] : NULL;
}

int64_t kp__cluster_reservation_left(const struct kp_cluster *c, size_t r)
{
	return r < c->n_resv ? c->resv_cap[r] : 0;
}

void kp__cluster_reservation_set_left(struct kp_cluster *c, size_t r, int64_t left)
{
	if (r < c->n_resv)
		c->resv_cap[r] = left > 0 ? left : 0;
}

int kp__resv_sim_init(sc_sim *s)
{
	const struct kp_cluster *c = s->c;
	if (s->resv_mode == KP_RESERVED_OFFERING_IGNORE || !c->n_resv)
		return KP_OK;
	s->resv_rem = kp__malloc(c->n_resv * sizeof(int64_t));
	if (!s->resv_rem)
		return KP_ENOMEM;
	memcpy(s->resv_rem, c->resv_cap, c->n_resv * sizeof(int64_t));
	return KP_OK;
}

static int holds(const sc_nc *nc, uint32_t r)
{
	size_t lo = 0, hi = nc->n_resv;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (nc->resv[mid] == r)
			return 1;
		if (nc->resv[mid] < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

int kp__resv_offerings(sc_sim *s, const sc_nc *nc, const uint32_t *its, size_t n_its,
		       kp_requirements *reqs, uint32_t **out, size_t *n_out, sc_why *w)
{
	const struct kp_cluster *c = s->c;
	const sc_catalog *cat = c->pools[nc->pool].cat;
	*out = NULL;
	*n_out = 0;
	if (!s->resv_rem || !cat->resv_first)
		return KP_OK;
	/* when @p reqs define none of the offerings' other keys, an offering
	 * that kp__cat_offering_pair decides is compatible when its pair is
	 * allowed: two lookups instead of a requirement check per offering */
	int by_pair = cat->pairs_ok;
	for (size_t k = 0; k < cat->n_resv_extra && by_pair; k++)
		by_pair = !kp_requirements_has(reqs, cat->resv_extra[k]);
	uint64_t allowed = by_pair ? kp__cat_allowed_pairs(cat, reqs) : 0;
	int compatible = 0;
	uint32_t *list = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 0; i < n_its; i++) {
		uint32_t it = its[i];
		for (uint32_t k = cat->resv_first[it]; k < cat->resv_first[it + 1]; k++) {
			const struct sc_resv_off *ro = &cat->resv_offs[k];
			const kp_offering *of = cat->items[it].it->offerings[ro->off];
			if (by_pair && ro->by_pair ? !(allowed >> ro->pair & 1)
						   : !kp_offering_compatible(of, reqs, c->wk))
				continue;
			compatible = 1;
			if (!holds(nc, ro->resv) && s->resv_rem[ro->resv] <= 0)
				continue;
			if (kp__grow((void **)&list, &cap, n + 1, sizeof(uint32_t))) {
				kp__free(list);
				return KP_ENOMEM;
			}
			list[n++] = ro->resv;
		}
	}
	/* one entry per reservation, in reservation order */
	if (n > 1) {
		qsort(list, n, sizeof(uint32_t), cmp_u32);
		size_t u = 1;
		for (size_t i = 1; i < n; i++)
			if (list[i] != list[u - 1])
				list[u++] = list[i];
		n = u;
	}
	if (s->resv_mode == KP_RESERVED_OFFERING_STRICT && !n && (compatible || nc->n_resv)) {
		kp__why(w, KP_REASON_RESERVED_OFFERING, KP_LABEL_CAPACITY_TYPE, "%s",
			compatible ? "one or more instance types with compatible reserved offerings "
				     "are available, but could not be reserved"
				   : "satisfying updated nodeclaim constraints would remove all "
				     "compatible reserved offering options");
		return KP_EINCOMPATIBLE;
	}
	*out = list;
	*n_out = n;
	return KP_OK;
}

void kp__resv_commit(sc_sim *s, sc_nc *nc, uint32_t *resv, size_t n_resv)
{
	if (!s->resv_rem) {
		kp__free(resv);
		return;
	}
	/* both lists ascending: reserve what is new, release what is gone */
	size_t i = 0, j = 0;
	while (i < n_resv || j < nc->n_resv) {
		if (j == nc->n_resv || (i < n_resv && resv[i] < nc->resv[j])) {
			s->resv_rem[resv[i++]]--;
		} else if (i == n_resv || nc->resv[j] < resv[i]) {
			s->resv_rem[nc->resv[j++]]++;
		} else {
			i++;
			j++;
		}
	}
	kp__free(nc->resv);
	nc->resv = resv;
	nc->n_resv = n_resv;
}

int kp__resv_finalize(const struct kp_cluster *c, const sc_nc *nc, kp_requirements *reqs)
{
	if (!nc->n_resv)
		return KP_OK;
	static const char *const reserved[] = { KP_CAPACITY_TYPE_RESERVED };
	kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	sel.key = KP_LABEL_CAPACITY_TYPE;
	sel.op = KP_SELECTOR_OP_IN;
	sel.values = reserved;
	sel.n_values = 1;
	/* only running out of memory fails: the values come from requirements
	 * the catalogue already holds */
	int rc = kp_requirements_add_selector(reqs, &sel, c->wk, NULL) == KP_ENOMEM ? KP_ENOMEM
										   : KP_OK;
	const char **vals = kp__calloc(nc->n_resv + 1, sizeof(char *));
	uint8_t *done = kp__calloc(nc->n_resv + 1, 1);
	if (!vals || !done) {
		kp__free(vals);
		kp__free(done);
		return KP_ENOMEM;
	}
	/* one requirement per label key (a provider uses one: the loop runs
	 * once per distinct key), over the reservations on that key */
	for (size_t i = 0; i < nc->n_resv && rc == KP_OK; i++) {
		const char *key = c->resv_keys[nc->resv[i]];
		if (!key || done[i])
			continue;
		size_t nv = 0;
		for (size_t j = i; j < nc->n_resv; j++) {
			const char *kj = c->resv_keys[nc->resv[j]];
			if (kj && !strcmp(kj, key)) {
				vals[nv++] = c->resv_ids[nc->resv[j]];
				done[j] = 1;
			}
		}
		sel.key = key;
		sel.values = vals;
		sel.n_values = nv;
		if (kp_requirements_add_selector(reqs, &sel, c->wk, NULL) == KP_ENOMEM)
			rc = KP_ENOMEM;
	}
	kp__free(done);
	kp__free(vals);
	return rc;
}

const kp_offering *kp__resv_launch_choice(const sc_sim *s, const sc_nc *nc, kp_requirements *reqs,
					  const kp_instance_type **it_out)
{
	const struct kp_cluster *c = s->c;
	const sc_catalog *cat = c->pools[nc->pool].cat;
	uint64_t allowed = kp__cat_allowed_pairs(cat, reqs);
	const kp_offering *best = NULL;
	*it_out = NULL;
	for (size_t i = 0; i < nc->n_opts_final; i++) {
		uint32_t idx = nc->final_its[i];
		const kp_instance_type *it = cat->items[idx].it;
		uint32_t k = cat->resv_first[idx];
		for (size_t o = 0; o < it->n_offerings; o++) {
			const kp_offering *of = it->offerings[o];
			/* a reservation this NodeClaim does not hold is not
			 * launched into: other NodeClaims took it */
			while (k < cat->resv_first[idx + 1] && cat->resv_offs[k].off < o)
				k++;
			if (k < cat->resv_first[idx + 1] && cat->resv_offs[k].off == o &&
			    !holds(nc, cat->resv_offs[k].resv))
				continue;
			if (is_reserved(of) && !of->available)
				continue;
			if (!kp__cat_offering_ok(c, cat, idx, o, allowed, reqs))
				continue;
			if (!best || of->price < best->price) {
				best = of;
				*it_out = it;
			}
		}
	}
	return best;
}

int kp__resv_held_by_id(const struct kp_cluster *c, const sc_nc *nc)
{
	for (size_t i = 0; i < nc->n_resv; i++)
		if (!c->resv_keys[nc->resv[i]])
			return 0;
	return nc->n_resv > 0;
}
