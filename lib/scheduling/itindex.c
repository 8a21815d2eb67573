/*
 * Scheduling simulation: indexes over an instance-type catalogue, so that
 * the questions the scheduler asks for every instance type and every
 * candidate NodeClaim cost a few table lookups:
 *
 * - offerings: upstream reqs.IsCompatible(offering.Requirements,
 *   AllowUndefinedWellKnownLabels) for an offering whose requirements are
 *   just its zone and capacity type is "the requirement set allows this
 *   zone and this capacity type" (both keys are well-known); the allowed
 *   (zone, capacity type) pairs are computed once per requirement set and
 *   each instance type keeps a bit mask of its available pairs. Other
 *   offerings go through kp_offering_compatible.
 * - requirements: upstream it.Requirements.Intersects(reqs) is evaluated
 *   key by key; the instance types' requirements on one key are
 *   deduplicated into a few distinct blocks (every type has the same zones,
 *   two architectures, ...), so each block is intersected once per
 *   requirement set and every instance type reads the answers.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdlib.h>
#include <string.h>

#include "sched_private.h"

static size_t str_index(const char **list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return SIZE_MAX;
}

/* The offering's zone and capacity type requirements are In exactly its
 * zone and capacity type. */
static int zone_ct_exact(const kp_offering *of)
{
	kp_requirements *r = of->requirements;
	kp_requirement *z = kp_requirements_get(r, KP_LABEL_TOPOLOGY_ZONE);
	kp_requirement *c = kp_requirements_get(r, KP_LABEL_CAPACITY_TYPE);
	return z && c && kp_requirement_operator(z) == KP_SELECTOR_OP_IN &&
	       kp_requirement_value_count(z) == 1 && kp_requirement_operator(c) == KP_SELECTOR_OP_IN &&
	       kp_requirement_value_count(c) == 1 &&
	       strcmp(kp_requirement_value_at(z, 0), of->zone) == 0 &&
	       strcmp(kp_requirement_value_at(c, 0), of->capacity_type) == 0;
}

static int is_standard(const kp_offering *of)
{
	return kp_requirements_count(of->requirements) == 2 && zone_ct_exact(of);
}

int kp__cat_offering_pair(const struct kp_cluster *c, const sc_catalog *cat,
			  const kp_offering *of, uint16_t *pair)
{
	if (!cat->pairs_ok || !zone_ct_exact(of))
		return 0;
	kp_requirements *r = of->requirements;
	for (size_t i = 0, n = kp_requirements_count(r); i < n; i++) {
		const char *k = kp_requirement_key(kp_requirements_at(r, i));
		if (strcmp(k, KP_LABEL_TOPOLOGY_ZONE) && strcmp(k, KP_LABEL_CAPACITY_TYPE) &&
		    !kp_wellknown_has(c->wk, k))
			return 0;
	}
	size_t z = str_index(cat->zones, cat->n_zones, of->zone);
	size_t t = str_index(cat->cts, cat->n_cts, of->capacity_type);
	*pair = (uint16_t)(z * cat->n_cts + t);
	return 1;
}

static int cmp_it_name(const void *a, const void *b)
{
	const sc_it *x = *(const sc_it *const *)a, *y = *(const sc_it *const *)b;
	return strcmp(x->it->name, y->it->name);
}

static int cmp_col(const void *a, const void *b)
{
	return strcmp(((const sc_column *)a)->key, ((const sc_column *)b)->key);
}

int kp__cat_compile(struct kp_cluster *c, sc_catalog *cat)
{
	size_t n_off = 0;
	for (size_t i = 0; i < cat->n; i++)
		n_off += cat->items[i].it->n_offerings;
	cat->zones = kp__arena_alloc(&c->arena, (n_off + 1) * sizeof(char *));
	cat->cts = kp__arena_alloc(&c->arena, (n_off + 1) * sizeof(char *));
	cat->std_mask = kp__arena_alloc(&c->arena, (cat->n + 1) * sizeof(uint64_t));
	cat->nonstd = kp__arena_alloc(&c->arena, cat->n + 1);
	cat->off_pair = kp__arena_alloc(&c->arena, (cat->n + 1) * sizeof(uint16_t *));
	if (!cat->zones || !cat->cts || !cat->std_mask || !cat->nonstd || !cat->off_pair)
		return KP_ENOMEM;
	/* distinct zones and capacity types in first-seen order, through a
	 * map: a scan per offering was quadratic in distinct zones (a type
	 * with 40,000 zones spent seconds here) */
	kp__map zmap = { 0 }, cmap = { 0 };
	int oom = 0;
	for (size_t i = 0; i < cat->n && !oom; i++) {
		const kp_instance_type *it = cat->items[i].it;
		for (size_t o = 0; o < it->n_offerings && !oom; o++) {
			const kp_offering *of = it->offerings[o];
			int zi = 0, ci = 0;
			oom = kp__map_put(&zmap, of->zone, strlen(of->zone), 0, NULL, &zi) ||
			      kp__map_put(&cmap, of->capacity_type, strlen(of->capacity_type), 0, NULL,
					  &ci);
			if (zi)
				cat->zones[cat->n_zones++] = of->zone;
			if (ci)
				cat->cts[cat->n_cts++] = of->capacity_type;
		}
	}
	kp__map_free(&zmap);
	kp__map_free(&cmap);
	if (oom)
		return KP_ENOMEM;
	cat->pairs_ok = cat->n_zones * cat->n_cts <= 64;
	cat->all_std = 1;
	for (size_t i = 0; i < cat->n; i++) {
		const kp_instance_type *it = cat->items[i].it;
		cat->off_pair[i] = kp__arena_alloc(&c->arena, (it->n_offerings + 1) * sizeof(uint16_t));
		if (!cat->off_pair[i])
			return KP_ENOMEM;
		for (size_t o = 0; o < it->n_offerings; o++) {
			const kp_offering *of = it->offerings[o];
			uint16_t pair = UINT16_MAX;
			if (cat->pairs_ok && is_standard(of)) {
				size_t z = str_index(cat->zones, cat->n_zones, of->zone);
				size_t t = str_index(cat->cts, cat->n_cts, of->capacity_type);
				pair = (uint16_t)(z * cat->n_cts + t);
			}
			cat->off_pair[i][o] = pair;
			if (!of->available)
				continue;
			if (pair == UINT16_MAX) {
				cat->nonstd[i] = 1;
				cat->all_std = 0;
			}
			else
				cat->std_mask[i] |= 1ull << pair;
		}
	}
	/* name order */
	const sc_it **tmp = kp__calloc(cat->n + 1, sizeof(*tmp));
	cat->by_name = kp__arena_alloc(&c->arena, (cat->n + 1) * sizeof(uint32_t));
	if (!tmp || !cat->by_name) {
		kp__free(tmp);
		return KP_ENOMEM;
	}
	for (size_t i = 0; i < cat->n; i++)
		tmp[i] = &cat->items[i];
	qsort(tmp, cat->n, sizeof(*tmp), cmp_it_name);
	for (size_t i = 0; i < cat->n; i++)
		cat->by_name[i] = (uint32_t)(tmp[i] - cat->items);
	kp__free(tmp);
	/* requirement columns */
	size_t cap = 0;
	for (size_t i = 0; i < cat->n; i++)
		cap += kp_requirements_count(cat->items[i].it->requirements);
	sc_column *cols = kp__arena_alloc(&c->arena, (cap + 1) * sizeof(*cols));
	if (!cols)
		return KP_ENOMEM;
	size_t n_cols = 0;
	for (size_t i = 0; i < cat->n; i++) {
		kp_requirements *r = cat->items[i].it->requirements;
		size_t nk = kp_requirements_count(r);
		for (size_t k = 0; k < nk; k++) {
			const char *key = kp_requirement_key(kp_requirements_at(r, k));
			size_t j = 0;
			while (j < n_cols && strcmp(cols[j].key, key) != 0)
				j++;
			if (j == n_cols)
				cols[n_cols++].key = key;
		}
	}
	qsort(cols, n_cols, sizeof(*cols), cmp_col);
	int rc = KP_OK;
	for (size_t j = 0; j < n_cols && rc == KP_OK; j++) {
		sc_column *col = &cols[j];
		col->of_it = kp__arena_alloc(&c->arena, (cat->n + 1) * sizeof(int32_t));
		col->blocks = kp__arena_alloc(&c->arena, (cat->n + 1) * sizeof(kp_requirement *));
		if (!col->of_it || !col->blocks)
			return KP_ENOMEM;
		kp__map seen = { 0 };
		char small[512]; /* checked: longer texts are kept, not deduplicated */
		for (size_t i = 0; i < cat->n && rc == KP_OK; i++) {
			kp_requirement *r = kp_requirements_get(cat->items[i].it->requirements, col->key);
			if (!r) {
				col->of_it[i] = -1;
				continue;
			}
			size_t len = kp_requirement_string(r, small, sizeof(small));
			uint32_t b;
			int inserted = 0;
			if (len >= sizeof(small)) {
				/* long: not deduplicated */
				col->of_it[i] = (int32_t)col->n_blocks;
				col->blocks[col->n_blocks++] = r;
				continue;
			}
			if (kp__map_put(&seen, small, len, (uint32_t)col->n_blocks, &b, &inserted) != KP_OK) {
				rc = KP_ENOMEM;
				break;
			}
			if (inserted)
				col->blocks[col->n_blocks++] = r;
			col->of_it[i] = (int32_t)b;
		}
		kp__map_free(&seen);
		if (col->n_blocks > cat->max_blocks)
			cat->max_blocks = col->n_blocks;
	}
	cat->cols = cols;
	cat->n_cols = n_cols;
	return rc;
}

uint64_t kp__cat_allowed_pairs(const sc_catalog *cat, kp_requirements *reqs)
{
	if (!cat->pairs_ok)
		return 0;
	kp_requirement *zr = kp_requirements_get(reqs, KP_LABEL_TOPOLOGY_ZONE);
	kp_requirement *cr = kp_requirements_get(reqs, KP_LABEL_CAPACITY_TYPE);
	uint64_t zmask = 0, cmask = 0;
	for (size_t z = 0; z < cat->n_zones; z++)
		if (!zr || kp_requirement_has(zr, cat->zones[z]))
			zmask |= 1ull << z;
	for (size_t t = 0; t < cat->n_cts; t++)
		if (!cr || kp_requirement_has(cr, cat->cts[t]))
			cmask |= 1ull << t;
	uint64_t allowed = 0;
	for (size_t z = 0; z < cat->n_zones; z++) {
		if (!(zmask >> z & 1))
			continue;
		for (size_t t = 0; t < cat->n_cts; t++)
			if (cmask >> t & 1)
				allowed |= 1ull << (z * cat->n_cts + t);
	}
	return allowed;
}

int kp__cat_offering_ok(const struct kp_cluster *c, const sc_catalog *cat, size_t it, size_t o,
			uint64_t allowed, kp_requirements *reqs)
{
	const kp_offering *of = cat->items[it].it->offerings[o];
	if (!of->available)
		return 0;
	uint16_t pair = cat->off_pair[it][o];
	if (pair != UINT16_MAX)
		return (int)(allowed >> pair & 1);
	return kp_offering_compatible(of, reqs, c->wk);
}

int kp__cat_has_offering(const struct kp_cluster *c, const sc_catalog *cat, size_t it,
			 uint64_t allowed, kp_requirements *reqs)
{
	if (cat->std_mask[it] & allowed)
		return 1;
	if (!cat->nonstd[it])
		return 0;
	const kp_instance_type *t = cat->items[it].it;
	for (size_t o = 0; o < t->n_offerings; o++)
		if (cat->off_pair[it][o] == UINT16_MAX && kp__cat_offering_ok(c, cat, it, o, allowed, reqs))
			return 1;
	return 0;
}

int kp__cat_cheapest(const struct kp_cluster *c, const sc_catalog *cat, size_t it, uint64_t allowed,
		     kp_requirements *reqs)
{
	const kp_instance_type *t = cat->items[it].it;
	int best = -1;
	for (size_t o = 0; o < t->n_offerings; o++) {
		if (!kp__cat_offering_ok(c, cat, it, o, allowed, reqs))
			continue;
		if (best < 0 || t->offerings[o]->price < t->offerings[best]->price)
			best = (int)o;
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* Requirement columns                                                 */

static int cmp_key_col(const void *k, const void *c)
{
	return strcmp((const char *)k, ((const sc_column *)c)->key);
}

int kp__itcompat_init(sc_itcompat *x, const sc_catalog *cat, kp_requirements *reqs)
{
	size_t nr = kp_requirements_count(reqs);
	if (nr > x->cap_cols || !x->col) {
		kp__itcompat_dispose(x);
		x->cap_cols = nr + 8;
		x->col = kp__calloc(x->cap_cols, sizeof(*x->col));
		x->req = kp__calloc(x->cap_cols, sizeof(*x->req));
		x->ok = kp__calloc(x->cap_cols, sizeof(*x->ok));
		if (!x->col || !x->req || !x->ok)
			return KP_ENOMEM;
	}
	x->cat = cat;
	x->n = 0;
	size_t need = 0;
	for (size_t i = 0; i < nr; i++) {
		kp_requirement *r = kp_requirements_at(reqs, i);
		const sc_column *col = bsearch(kp_requirement_key(r), cat->cols, cat->n_cols,
					       sizeof(*cat->cols), cmp_key_col);
		if (!col)
			continue;
		x->col[x->n] = col;
		x->req[x->n] = r;
		x->n++;
		need += col->n_blocks;
	}
	kp__free(x->mem);
	x->mem = kp__malloc(need + 1);
	if (!x->mem)
		return KP_ENOMEM;
	memset(x->mem, -1, need + 1);
	size_t off = 0;
	for (size_t j = 0; j < x->n; j++) {
		x->ok[j] = x->mem + off;
		off += x->col[j]->n_blocks;
	}
	return KP_OK;
}

static int weak(kp_requirement *r)
{
	uint32_t op = kp_requirement_operator(r);
	return op == KP_SELECTOR_OP_NOT_IN || op == KP_SELECTOR_OP_DOES_NOT_EXIST;
}

int kp__itcompat_ok(sc_itcompat *x, size_t it)
{
	for (size_t j = 0; j < x->n; j++) {
		int32_t b = x->col[j]->of_it[it];
		if (b < 0)
			continue;
		int8_t v = x->ok[j][b];
		if (v < 0) {
			kp_requirement *a = x->col[j]->blocks[b], *r = x->req[j];
			v = (int8_t)((weak(a) && weak(r)) || kp_requirement_intersects(a, r));
			x->ok[j][b] = v;
		}
		if (!v)
			return 0;
	}
	return 1;
}

void kp__itcompat_dispose(sc_itcompat *x)
{
	kp__free(x->col);
	kp__free(x->req);
	kp__free(x->ok);
	kp__free(x->mem);
	memset(x, 0, sizeof(*x));
}
