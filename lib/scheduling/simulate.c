/*
 * Scheduling simulation: kp_sched_simulate (upstream Scheduler.Solve).
 *
 * Pods are tried in queue order (upstream queue.go: CPU then memory
 * descending, then creation time, then UID). Each attempt walks the pod's
 * relaxation chain: existing nodes first (initialized first, then by name),
 * then the NodeClaims this simulation opened (fewest pods first), then a
 * new NodeClaim per NodePool in weight order. A pod that fails is pushed
 * back; the loop stops when a full pass over the queue places nothing.
 *
 * The simulation never copies the snapshot: per-node remaining resources,
 * requirements, host ports and volumes are copied on first write.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_private.h"


/* ------------------------------------------------------------------ */
/* Requirements helpers                                                */

/*
 * Intersect @p base with every requirement of @p in. When nothing changes,
 * *out is NULL (the caller keeps @p base); otherwise *out is a new set. The
 * intersection is computed with the existing requirement first so that an
 * unchanged key keeps its block (kp_requirement_intersection shares it).
 */
static int merge_reqs(kp_requirements *base, kp_requirements *in, kp_requirements **out)
{
	*out = NULL;
	size_t n = kp_requirements_count(in);
	for (size_t i = 0; i < n; i++) {
		kp_requirement *r = kp_requirements_at(in, i);
		kp_requirement *e = kp_requirements_get(*out ? *out : base, kp_requirement_key(r));
		kp_requirement *x = NULL;
		if (e) {
			if (kp_requirement_intersection(&x, e, r, NULL) != KP_OK)
				goto oom;
			if (x == e) {
				kp_requirement_free(x);
				continue;
			}
		}
		if (!*out && kp_requirements_copy(out, base, NULL) != KP_OK) {
			kp_requirement_free(x);
			goto oom;
		}
		int rc = kp_requirements_add(*out, x ? x : r, NULL);
		kp_requirement_free(x);
		if (rc != KP_OK)
			goto oom;
	}
	return KP_OK;
oom:
	kp_requirements_free(*out);
	*out = NULL;
	return KP_ENOMEM;
}

/* Replace the requirement on r's key (minValues relaxed downwards, which
 * an intersection cannot do). */
static int replace_req(kp_requirements **set, kp_requirement *r)
{
	kp_requirements *n = NULL;
	if (kp_requirements_new(&n, NULL) != KP_OK)
		return KP_ENOMEM;
	size_t cnt = kp_requirements_count(*set);
	const char *key = kp_requirement_key(r);
	for (size_t i = 0; i < cnt; i++) {
		kp_requirement *x = kp_requirements_at(*set, i);
		if (strcmp(kp_requirement_key(x), key) == 0)
			continue;
		if (kp_requirements_add(n, x, NULL) != KP_OK) {
			kp_requirements_free(n);
			return KP_ENOMEM;
		}
	}
	if (kp_requirements_add(n, r, NULL) != KP_OK) {
		kp_requirements_free(n);
		return KP_ENOMEM;
	}
	kp_requirements_free(*set);
	*set = n;
	return KP_OK;
}

/* A requirement equal to @p r but with minValues @p mv. */
static int with_min_values(kp_requirement *r, int32_t mv, kp_wellknown *wk, kp_requirement **out)
{
	*out = NULL;
	size_t ns = kp_requirement_selector_count(r);
	kp_requirement *acc = NULL;
	for (size_t i = 0; i < ns; i++) {
		kp_node_selector_requirement sel = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		if (kp_requirement_selector(r, i, &sel, NULL) != KP_OK)
			goto fail;
		sel.min_values = mv;
		kp_requirement *one = NULL;
		if (kp_requirement_new(&one, &sel, wk, NULL) != KP_OK)
			goto fail;
		if (!acc) {
			acc = one;
		} else {
			kp_requirement *x = NULL;
			int rc = kp_requirement_intersection(&x, acc, one, NULL);
			kp_requirement_free(one);
			kp_requirement_free(acc);
			acc = x;
			if (rc != KP_OK)
				goto fail;
		}
	}
	*out = acc;
	return acc ? KP_OK : KP_ENOMEM;
fail:
	kp_requirement_free(acc);
	return KP_ENOMEM;
}

/* ------------------------------------------------------------------ */
/* Resources                                                           */

static int fits(const int64_t *req, const int64_t *total, size_t n)
{
	for (size_t r = 0; r < n; r++)
		if (total[r] < 0 || req[r] > total[r])
			return 0;
	return 1;
}

/* "cpu=1, memory=1Gi, pods=1" for the non-zero entries, allocated (resource
 * names come from the input); NULL when out of memory. */
static char *fmt_res(const struct kp_cluster *c, const int64_t *v)
{
	sc_buf b = { 0 };
	int first = 1;
	for (size_t r = 0; r < c->n_res; r++) {
		if (!v[r])
			continue;
		char q[KP_QUANTITY_STRING_MAX]; /* a formatted quantity: bounded by construction */
		kp__fit_fmt_value(q, sizeof(q), c, r, v[r]);
		kp__buf_printf(&b, "%s%s=%s", first ? "" : ", ", c->res.strs[r], q);
		first = 0;
	}
	return kp__buf_take(&b, NULL);
}

/*
 * A volume topology alternative, then topology, on top of @p cur (upstream
 * tryVolumeAlternative up to the topology requirements). *out is a new set,
 * or NULL when @p cur is the result.
 */
static int apply_alt_topo(sc_sim *s, uint32_t pod, const sc_variant *v, const kp_taint *taints,
			  size_t n_taints, kp_requirements *cur, kp_requirements *alt,
			  uint32_t flags, sc_why *w, kp_requirements **out)
{
	*out = NULL;
	kp_requirements *withvol = NULL;
	if (alt) {
		kp_error e = KP_ERROR_INIT;
		if (kp_requirements_compatible(cur, alt, flags, s->c->wk, w ? &e : NULL) != KP_OK) {
			kp__why(w, KP_REASON_VOLUMES, e.field, "incompatible volume requirements, %s",
				e.message);
			return KP_EINCOMPATIBLE;
		}
		if (merge_reqs(cur, alt, &withvol) != KP_OK)
			return KP_ENOMEM;
	}
	kp_requirements *c2 = withvol ? withvol : cur;
	kp_requirements *topo = NULL;
	int rc = kp__topo_add_requirements(s, pod, v, taints, n_taints, c2, flags, &topo, w);
	if (rc != KP_OK) {
		kp_requirements_free(withvol);
		return rc;
	}
	if (topo) {
		kp_requirements_free(withvol);
		*out = topo;
	} else {
		*out = withvol;
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Existing nodes                                                      */

static kp_requirements *node_reqs(sc_sim *s, uint32_t i)
{
	return s->nodes[i].reqs ? s->nodes[i].reqs : s->c->nodes[i].reqs;
}

/* Upstream ExistingNode.CanAdd. On success *out_reqs is the node's new
 * requirement set (NULL when unchanged). */
int kp__sched_nc_fits_existing(sc_sim *s, uint32_t i, uint32_t pod, const sc_variant *v,
			       sc_why *w, kp_requirements **out_reqs)
{
	const struct kp_cluster *c = s->c;
	const sc_node *n = &c->nodes[i];
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	*out_reqs = NULL;
	sc_fit f;
	int rc = kp__fit_node_cheap(s, i, pod, v, &f);
	if (rc != KP_OK) {
		if (rc == KP_EINCOMPATIBLE)
			kp__fit_why(c, &f, n->taints, n->n_taints, v, w);
		return rc;
	}
	kp_requirements *nr = node_reqs(s, i);
	kp_error e = KP_ERROR_INIT;
	if (kp_requirements_compatible(nr, v->reqs, 0, c->wk, w ? &e : NULL) != KP_OK) {
		kp__why(w, KP_REASON_NODE_AFFINITY, e.field, "%s", e.message);
		return KP_EINCOMPATIBLE;
	}
	kp_requirements *base = NULL;
	if (merge_reqs(nr, v->reqs, &base) != KP_OK) {
		s->oom = 1;
		return KP_ENOMEM;
	}
	kp_requirements *cur = base ? base : nr;
	size_t nalt = cls->n_vol_reqs ? cls->n_vol_reqs : 1;
	rc = KP_EINCOMPATIBLE;
	for (size_t a = 0; a < nalt; a++) {
		kp_requirements *res = NULL;
		rc = apply_alt_topo(s, pod, v, n->taints, n->n_taints, cur,
				    cls->n_vol_reqs ? cls->vol_reqs[a] : NULL, 0, w, &res);
		if (rc == KP_ENOMEM)
			break;
		if (rc != KP_OK)
			continue;
		if (res) {
			kp_requirements_free(base);
			*out_reqs = res;
		} else {
			*out_reqs = base;
		}
		return KP_OK;
	}
	kp_requirements_free(base);
	if (rc == KP_ENOMEM)
		s->oom = 1;
	return rc;
}

static int grow_ports(sc_port **ports, size_t *n, size_t *cap, const sc_port *add, size_t na,
		      uint32_t owner)
{
	if (!na)
		return KP_OK;
	if (kp__grow((void **)ports, cap, *n + na, sizeof(sc_port)) != KP_OK)
		return KP_ENOMEM;
	for (size_t i = 0; i < na; i++) {
		(*ports)[*n] = add[i];
		(*ports)[*n].owner = owner;
		(*n)++;
	}
	return KP_OK;
}

static int place_existing(sc_sim *s, uint32_t i, uint32_t pod, const sc_variant *v,
			  kp_requirements *reqs)
{
	const struct kp_cluster *c = s->c;
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	if (!kp__sched_node_rem(s, i)) {
		kp_requirements_free(reqs); /* handed over by the caller */
		return KP_ENOMEM;
	}
	int64_t *rem = s->nodes[i].rem;
	for (size_t r = 0; r < c->n_res; r++)
		rem[r] = kp__sat_add(rem[r], -p->req[r]);
	if (reqs) {
		if (s->nodes[i].reqs)
			kp_requirements_free(s->nodes[i].reqs);
		s->nodes[i].reqs = reqs;
	}
	if (grow_ports(&s->nodes[i].ports, &s->nodes[i].n_ports, &s->nodes[i].cap_ports, cls->ports, cls->n_ports,
		       pod) != KP_OK)
		return KP_ENOMEM;
	if (cls->n_vols) {
		if (kp__grow((void **)&s->nodes[i].vols, &s->nodes[i].cap_vols, s->nodes[i].n_vols + cls->n_vols,
			     sizeof(sc_vol)) != KP_OK)
			return KP_ENOMEM;
		memcpy(s->nodes[i].vols + s->nodes[i].n_vols, cls->vols, cls->n_vols * sizeof(sc_vol));
		s->nodes[i].n_vols += cls->n_vols;
	}
	kp__psim(s, pod)->placed_node = (int32_t)i;
	const sc_node *n = &c->nodes[i];
	return kp__topo_record(s, pod, v, n->taints, n->n_taints, node_reqs(s, i), 0);
}

/* ------------------------------------------------------------------ */
/* NodeClaims                                                          */

static int variant_absorbed(const sc_nc *nc, const sc_variant *v)
{
	for (size_t i = 0; i < nc->n_absorbed; i++)
		if (nc->absorbed[i] == v)
			return 1;
	return 0;
}

/* Upstream InstanceTypeFilterError: what the filter saw. */
struct filter_stats {
	int req_met, fits, has_off, req_fits, req_off, fits_off;
	int evaluated;
	int min_values_failed;
};

/*
 * Distinct values per minValues key over @p its (upstream SatisfiesMinValues):
 * returns 1 when every key is satisfied; else fills keys/counts of the
 * unsatisfied ones (at most cap).
 */
static int min_values_check(const sc_pool *pool, const uint32_t *its, size_t n,
			    kp_requirements *reqs, const char **keys, int32_t *counts, size_t cap,
			    size_t *n_bad)
{
	*n_bad = 0;
	size_t nk = kp_requirements_count(reqs);
	int ok = 1;
	for (size_t k = 0; k < nk; k++) {
		kp_requirement *r = kp_requirements_at(reqs, k);
		int32_t mv = kp_requirement_min_values(r);
		if (!mv)
			continue;
		const char *key = kp_requirement_key(r);
		/* count distinct stored values of the key across the instance types */
		const char *seen_small[64];
		const char **seen = seen_small;
		size_t nseen = 0, cap_seen = 64;
		int32_t distinct = 0;
		for (size_t i = 0; i < n && distinct < mv; i++) {
			kp_requirement *ir = kp_requirements_get(pool->cat->items[its[i]].it->requirements,
								 key);
			size_t nv = kp_requirement_value_count(ir);
			for (size_t j = 0; j < nv; j++) {
				const char *val = kp_requirement_value_at(ir, j);
				size_t q = 0;
				while (q < nseen && strcmp(seen[q], val) != 0)
					q++;
				if (q < nseen)
					continue;
				if (nseen == cap_seen) {
					const char **g = kp__malloc(cap_seen * 2 * sizeof(*g));
					if (!g)
						break;
					memcpy(g, seen, nseen * sizeof(*g));
					if (seen != seen_small)
						kp__free(seen);
					seen = g;
					cap_seen *= 2;
				}
				seen[nseen++] = val;
				distinct++;
			}
		}
		if (seen != seen_small)
			kp__free(seen);
		if (distinct < mv) {
			ok = 0;
			if (*n_bad < cap) {
				keys[*n_bad] = key;
				counts[*n_bad] = distinct;
			}
			(*n_bad)++;
		}
	}
	return ok;
}

/*
 * Upstream filterInstanceTypesByRequirements over @p its (catalogue
 * indices) into @p out. @p recheck: requirements changed since @p its were
 * filtered, so compatibility and offerings are evaluated again.
 */
static size_t filter_its(sc_sim *s, const sc_pool *pool, const uint32_t *its, size_t n,
			 kp_requirements *reqs, int recheck, const int64_t *requests,
			 const sc_port *ports, size_t n_ports, const sc_nc *nc, uint32_t *out,
			 struct filter_stats *st)
{
	const struct kp_cluster *c = s->c;
	size_t n_res = c->n_res;
	int64_t *total = s->scratch_res;
	size_t kept = 0;
	/* per daemon group: host port conflict, computed once */
	uint8_t conflict_small[64];
	uint8_t *conflict = pool->n_groups <= 64 ? conflict_small : kp__calloc(pool->n_groups, 1);
	if (!conflict) {
		s->oom = 1;
		return 0;
	}
	sc_itcompat *x = &s->itc;
	uint64_t allowed = 0;
	if (recheck) {
		if (kp__itcompat_init(x, pool->cat, reqs) != KP_OK) {
			s->oom = 1;
			if (conflict != conflict_small)
				kp__free(conflict);
			return 0;
		}
		allowed = kp__cat_allowed_pairs(pool->cat, reqs);
	}
	for (size_t g = 0; g < pool->n_groups; g++) {
		conflict[g] = 0;
		if (n_ports) {
			conflict[g] = (uint8_t)(kp__ports_conflict(ports, n_ports, pool->groups[g].ports,
								   pool->groups[g].n_ports) ||
						(nc && kp__ports_conflict(ports, n_ports, nc->ports,
									  nc->n_ports)));
		}
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t idx = its[i];
		const sc_it *it = &pool->cat->items[idx];
		uint32_t g = pool->it_group[idx];
		const sc_dgroup *grp = &pool->groups[g];
		if (conflict[g])
			continue;
		st->evaluated = 1;
		int compat = 1, has_off = 1;
		if (recheck) {
			compat = kp__itcompat_ok(x, idx);
			has_off = kp__cat_has_offering(c, pool->cat, idx, allowed, reqs);
		}
		int fit;
		if (grp->overhead) {
			for (size_t r = 0; r < n_res; r++)
				total[r] = kp__sat_add(requests[r], grp->overhead[r]);
			fit = !it->alloc_negative && fits(total, it->alloc, n_res);
		} else {
			fit = !it->alloc_negative && fits(requests, it->alloc, n_res);
		}
		st->req_met |= compat;
		st->fits |= fit;
		st->has_off |= has_off;
		st->req_fits |= compat && fit && !has_off;
		st->req_off |= compat && has_off && !fit;
		st->fits_off |= fit && has_off && !compat;
		if (compat && fit && has_off)
			out[kept++] = idx;
	}
	if (conflict != conflict_small)
		kp__free(conflict);
	return kept;
}

static void filter_message(sc_sim *s, sc_why *w, const struct filter_stats *st,
			   const int64_t *pod_req)
{
	if (!w)
		return;
	if (!st->evaluated) {
		sc_fit f = { .code = SC_FIT_HOST_PORT, .where = SC_FIT_AT_NODECLAIM };
		kp__fit_why(s->c, &f, NULL, 0, NULL, w);
		return;
	}
	const char *what;
	uint32_t code = KP_REASON_NO_INSTANCE_TYPE;
	if (!st->req_met && !st->fits && !st->has_off)
		what = "no instance type met the scheduling requirements or had enough resources "
		       "or had a required offering";
	else if (!st->req_met && !st->fits)
		what = "no instance type met the scheduling requirements or had enough resources";
	else if (!st->req_met && !st->has_off)
		what = "no instance type met the scheduling requirements or had a required offering";
	else if (!st->fits && !st->has_off)
		what = "no instance type had enough resources or had a required offering";
	else if (!st->req_met)
		what = "no instance type met all requirements";
	else if (!st->fits) {
		what = "no instance type has enough resources";
		code = KP_REASON_RESOURCES;
	} else if (!st->has_off)
		what = "no instance type has the required offering";
	else if (st->req_fits)
		what = "no instance type which met the scheduling requirements and had enough "
		       "resources, had a required offering";
	else if (st->fits_off)
		what = "no instance type which had enough resources and the required offering met "
		       "the scheduling requirements";
	else if (st->req_off) {
		what = "no instance type which met the scheduling requirements and the required "
		       "offering had the required resources";
		code = KP_REASON_RESOURCES;
	} else
		what = "no instance type met the requirements/resources/offering tuple";
	char *res = fmt_res(s->c, pod_req);
	kp__why(w, code, NULL, "%s (requests %s)", what, res ? res : "");
	kp__free(res);
}

static int nc_ports_add(sc_nc *nc, const sc_class *cls, uint32_t pod)
{
	return grow_ports(&nc->ports, &nc->n_ports, &nc->cap_ports, cls->ports, cls->n_ports, pod);
}

/* What a successful NodeClaim check hands to the placement. */
struct nc_add {
	kp_requirements *reqs; /* new set, or NULL when unchanged */
	const uint32_t *its;   /* filtered options (the simulation's scratch) */
	size_t n_its;
	int relaxed;           /* minValues were relaxed */
	uint32_t *resv;        /* reservations to hold (kp__resv_offerings) */
	size_t n_resv;
	int resv_error;        /* failed on a reserved offering (strict mode) */
};

static void nc_add_dispose(struct nc_add *a)
{
	kp_requirements_free(a->reqs);
	kp__free(a->resv);
	memset(a, 0, sizeof(*a));
}

/*
 * Instance types, resources and minValues for the pod on @p nc with the
 * requirement set @p reqs (upstream filterInstanceTypesByRequirements and
 * the minValues handling of tryVolumeAlternative). *relaxed_reqs gets a
 * new set when BestEffort lowered minValues.
 */
static int nc_filter(sc_sim *s, sc_nc *nc, uint32_t pod, kp_requirements *reqs, int changed,
		     int relax_mv, sc_why *w, const uint32_t **out_its, size_t *out_n,
		     kp_requirements **relaxed_reqs)
{
	const struct kp_cluster *c = s->c;
	const sc_pool *pool = &c->pools[nc->pool];
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	*out_its = NULL;
	*out_n = 0;
	*relaxed_reqs = NULL;
	if (!changed && !cls->n_ports && nc->minslack && !kp_requirements_has_min_values(reqs)) {
		/* requirements unchanged and the requests below every option's
		 * room: all options still fit */
		int all = 1;
		for (size_t r = 0; r < c->n_res && all; r++)
			all = kp__sat_add(nc->requests[r], p->req[r]) <= nc->minslack[r];
		if (all) {
			*out_its = nc->its;
			*out_n = nc->n_its;
			return KP_OK;
		}
	}
	/* scratch, handed to nc_place without a copy in between */
	if (kp__grow((void **)&s->scratch_its, &s->cap_scratch, nc->n_its + 1, sizeof(uint32_t)) !=
	    KP_OK)
		return KP_ENOMEM;
	uint32_t *out = s->scratch_its;
	int64_t *requests = s->scratch_req;
	for (size_t r = 0; r < c->n_res; r++)
		requests[r] = kp__sat_add(nc->requests[r], p->req[r]);
	struct filter_stats st;
	memset(&st, 0, sizeof(st));
	size_t kept = filter_its(s, pool, nc->its, nc->n_its, reqs, changed, requests, cls->ports,
				 cls->n_ports, nc, out, &st);
	if (s->oom)
		return KP_ENOMEM;
	if (kept && kp_requirements_has_min_values(reqs)) {
		const char *keys[16];
		int32_t counts[16];
		size_t n_bad = 0;
		if (!min_values_check(pool, out, kept, reqs, keys, counts, 16, &n_bad)) {
			if (!relax_mv) {
				if (w) {
					sc_buf b = { 0 };
					for (size_t k = 0; k < n_bad && k < 16; k++)
						kp__buf_printf(&b, "%s%s", k ? " " : "", keys[k]);
					char *names = kp__buf_take(&b, NULL);
					kp__why(w, KP_REASON_MIN_VALUES, keys[0],
						"minValues requirement is not met for label(s) "
						"(label(s)=[%s])", names ? names : "");
					kp__free(names);
				}
				return KP_EINCOMPATIBLE;
			}
			/* BestEffort: lower minValues to what the instance types offer */
			kp_requirements *rr = NULL;
			if (kp_requirements_copy(&rr, reqs, NULL) != KP_OK)
				return KP_ENOMEM;
			for (size_t k = 0; k < n_bad && k < 16; k++) {
				kp_requirement *old = kp_requirements_get(rr, keys[k]);
				kp_requirement *nr = NULL;
				if (!old || with_min_values(old, counts[k], c->wk, &nr) != KP_OK ||
				    replace_req(&rr, nr) != KP_OK) {
					kp_requirement_free(nr);
					kp_requirements_free(rr);
					return KP_ENOMEM;
				}
				kp_requirement_free(nr);
			}
			*relaxed_reqs = rr;
		}
	}
	if (!kept) {
		filter_message(s, w, &st, p->req);
		return KP_EINCOMPATIBLE;
	}
	*out_its = out;
	*out_n = kept;
	return KP_OK;
}

/* The reservations @p nc would hold with the options and requirements a
 * check found (upstream offeringsToReserve, under its feature gate). */
static int nc_reserve(sc_sim *s, const sc_nc *nc, struct nc_add *res, kp_requirements *reqs,
		      sc_why *w)
{
	if (!s->resv_rem)
		return KP_OK;
	int rc = kp__resv_offerings(s, nc, res->its, res->n_its, reqs, &res->resv, &res->n_resv, w);
	res->resv_error = rc == KP_EINCOMPATIBLE;
	return rc;
}

/* Upstream NodeClaim.CanAdd. */
static int nc_can_add(sc_sim *s, sc_nc *nc, uint32_t pod, const sc_variant *v, int relax_mv,
		      sc_why *w, struct nc_add *res)
{
	const struct kp_cluster *c = s->c;
	const sc_pool *pool = &c->pools[nc->pool];
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	memset(res, 0, sizeof(*res));
	if (!w && nc->maxalloc) {
		/* quick rejections, in any order since no reason is wanted: more
		 * than the largest option holds, or a hostname topology says no */
		for (size_t r = 0; r < c->n_res; r++)
			if (p->req[r] && kp__sat_add(nc->requests[r], p->req[r]) > nc->maxalloc[r])
				return KP_EINCOMPATIBLE;
		if (kp__topo_quick_reject(s, pod, v, nc) != SC_REJECT_UNKNOWN)
			return KP_EINCOMPATIBLE;
	}
	sc_fit f;
	if (!kp__fit_taints(pool->taints, pool->n_taints, v->tols, v->n_tols, &f)) {
		kp__fit_why(c, &f, pool->taints, pool->n_taints, v, w);
		return KP_EINCOMPATIBLE;
	}
	int simple = !cls->topo && !cls->n_vol_reqs;
	kp_requirements *base = NULL;
	int rc;
	if (simple && variant_absorbed(nc, v)) {
		/* the pod's requirements change nothing: the options stay
		 * compatible; only resources are checked again */
		rc = nc_filter(s, nc, pod, nc->reqs, 0, relax_mv, w, &res->its, &res->n_its,
			       &res->reqs);
		res->relaxed = res->reqs != NULL;
		if (rc == KP_OK)
			rc = nc_reserve(s, nc, res, res->reqs ? res->reqs : nc->reqs, w);
		if (rc != KP_OK) {
			kp_requirements_free(res->reqs);
			res->reqs = NULL;
		}
		if (rc == KP_ENOMEM)
			s->oom = 1;
		return rc;
	}
	kp_error e = KP_ERROR_INIT;
	if (kp_requirements_compatible(nc->reqs, v->reqs, SC_ALLOW, c->wk, w ? &e : NULL) != KP_OK) {
		kp__why(w, KP_REASON_NODEPOOL_REQUIREMENTS, e.field, "incompatible requirements, %s",
			e.message);
		return KP_EINCOMPATIBLE;
	}
	if (merge_reqs(nc->reqs, v->reqs, &base) != KP_OK) {
		s->oom = 1;
		return KP_ENOMEM;
	}
	kp_requirements *cur = base ? base : nc->reqs;
	size_t nalt = cls->n_vol_reqs ? cls->n_vol_reqs : 1;
	rc = KP_EINCOMPATIBLE;
	for (size_t a = 0; a < nalt; a++) {
		kp_requirements *alt_res = NULL;
		rc = apply_alt_topo(s, pod, v, pool->taints, pool->n_taints, cur,
				    cls->n_vol_reqs ? cls->vol_reqs[a] : NULL, SC_ALLOW, w, &alt_res);
		if (rc == KP_ENOMEM)
			break;
		if (rc != KP_OK)
			continue;
		kp_requirements *reqs = alt_res ? alt_res : cur;
		kp_requirements *relaxed = NULL;
		rc = nc_filter(s, nc, pod, reqs, reqs != nc->reqs, relax_mv, w, &res->its,
			       &res->n_its, &relaxed);
		res->resv_error = 0;
		if (rc == KP_OK)
			rc = nc_reserve(s, nc, res, relaxed ? relaxed : reqs, w);
		if (rc != KP_OK) {
			kp_requirements_free(relaxed);
			kp_requirements_free(alt_res);
			if (rc == KP_ENOMEM)
				break;
			continue;
		}
		/* the final set, owned, or NULL when nc->reqs is unchanged */
		if (relaxed) {
			kp_requirements_free(alt_res);
			kp_requirements_free(base);
			res->reqs = relaxed;
			res->relaxed = 1;
		} else if (alt_res) {
			kp_requirements_free(base);
			res->reqs = alt_res;
		} else {
			res->reqs = base;
		}
		return KP_OK;
	}
	kp_requirements_free(base);
	if (rc == KP_ENOMEM)
		s->oom = 1;
	return rc;
}

static int nc_place(sc_sim *s, sc_nc *nc, uint32_t pod, const sc_variant *v, struct nc_add *a)
{
	const struct kp_cluster *c = s->c;
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	if (kp__grow((void **)&nc->pods, &nc->cap_pods, nc->n_pods + 1, sizeof(uint32_t)) != KP_OK)
		return KP_ENOMEM;
	nc->pods[nc->n_pods++] = pod;
	if (a->its != nc->its || !nc->maxalloc) {
		/* options only shrink: nc->its has room */
		if (a->its != nc->its)
			memmove(nc->its, a->its, a->n_its * sizeof(uint32_t));
		nc->n_its = a->n_its;
		if (!nc->maxalloc && !(nc->maxalloc = kp__malloc(c->n_res * sizeof(int64_t) + 1)))
			return KP_ENOMEM;
		if (!nc->minslack && !(nc->minslack = kp__malloc(c->n_res * sizeof(int64_t) + 1)))
			return KP_ENOMEM;
		/* the largest allocatable (quick rejection) and the smallest room
		 * left by daemons (when requests stay below it, every option fits) */
		const sc_pool *pool = &c->pools[nc->pool];
		for (size_t r = 0; r < c->n_res; r++) {
			nc->maxalloc[r] = INT64_MIN;
			nc->minslack[r] = INT64_MAX;
		}
		for (size_t i = 0; i < nc->n_its; i++) {
			const int64_t *al = pool->cat->items[nc->its[i]].alloc;
			const int64_t *ov = pool->groups[pool->it_group[nc->its[i]]].overhead;
			for (size_t r = 0; r < c->n_res; r++) {
				if (al[r] > nc->maxalloc[r])
					nc->maxalloc[r] = al[r];
				int64_t slack = ov ? kp__sat_add(al[r], -ov[r]) : al[r];
				if (slack < nc->minslack[r])
					nc->minslack[r] = slack;
			}
		}
	}
	a->its = NULL;
	for (size_t r = 0; r < c->n_res; r++)
		nc->requests[r] = kp__sat_add(nc->requests[r], p->req[r]);
	int simple = !cls->topo && !cls->n_vol_reqs;
	if (a->reqs) {
		kp_requirements_free(nc->reqs);
		nc->reqs = a->reqs;
		a->reqs = NULL;
		nc->n_absorbed = 0;
		nc->reqs_ver++;
	} else if (simple && !variant_absorbed(nc, v)) {
		if (kp__grow((void **)&nc->absorbed, &nc->cap_absorbed, nc->n_absorbed + 1,
			     sizeof(*nc->absorbed)) == KP_OK)
			nc->absorbed[nc->n_absorbed++] = v;
	}
	if (nc_ports_add(nc, cls, pod) != KP_OK)
		return KP_ENOMEM;
	/* upstream Reserve, then release what the pod's requirements ruled out */
	kp__resv_commit(s, nc, a->resv, a->n_resv);
	a->resv = NULL;
	a->n_resv = 0;
	kp__psim(s, pod)->placed_nc = (int32_t)nc->id;
	int rc = kp__topo_register_hostname(s, nc->hostname);
	if (rc == KP_OK)
		rc = kp__topo_record(s, pod, v, c->pools[nc->pool].taints, c->pools[nc->pool].n_taints,
				     nc->reqs, SC_ALLOW);
	return rc;
}

static void nc_free(sc_nc *nc)
{
	if (!nc)
		return;
	kp_requirements_free(nc->reqs);
	kp__free(nc->its);
	kp__free(nc->requests);
	kp__free(nc->pods);
	kp__free(nc->ports);
	kp__free(nc->absorbed);
	kp__free(nc->final_its);
	kp__free(nc->resv);
	kp__free(nc->maxalloc);
	kp__free(nc->minslack);
	kp__topo_nc_dispose(&nc->topo);
	kp__free(nc);
}

/* A fresh NodeClaim of @p pool (upstream NewNodeClaim), with the
 * instance types left by the NodePool's limits. */
static sc_nc *nc_new(sc_sim *s, uint32_t pool, const uint32_t *its, size_t n_its)
{
	const struct kp_cluster *c = s->c;
	sc_nc *nc = kp__calloc(1, sizeof(*nc));
	if (!nc)
		return NULL;
	nc->pool = pool;
	nc->id = UINT32_MAX;
	kp__topo_nc_init(&nc->topo);
	snprintf(nc->hostname, sizeof(nc->hostname), "hostname-placeholder-%04u",
		 s->next_hostname + 1);
	nc->requests = kp__calloc(c->n_res + 1, sizeof(int64_t));
	nc->its = kp__malloc((n_its + 1) * sizeof(uint32_t));
	if (!nc->requests || !nc->its ||
	    kp_requirements_copy(&nc->reqs, c->pools[pool].reqs, NULL) != KP_OK)
		goto fail;
	memcpy(nc->its, its, n_its * sizeof(uint32_t));
	nc->n_its = n_its;
	const char *hv[1] = { nc->hostname };
	kp_node_selector_requirement hs = KP_NODE_SELECTOR_REQUIREMENT_INIT;
	hs.key = KP_LABEL_HOSTNAME;
	hs.op = KP_SELECTOR_OP_IN;
	hs.values = hv;
	hs.n_values = 1;
	if (kp_requirements_add_selector(nc->reqs, &hs, c->wk, NULL) != KP_OK)
		goto fail;
	return nc;
fail:
	nc_free(nc);
	return NULL;
}

/* Instance types of a pool within its remaining limits (upstream
 * filterByRemainingResources). */
static size_t limited_its(sc_sim *s, uint32_t pool, uint32_t *out, sc_why *w)
{
	const struct kp_cluster *c = s->c;
	const sc_pool *p = &c->pools[pool];
	const int64_t *rem = s->pool_rem[pool];
	if (!rem) {
		memcpy(out, p->opts, p->n_opts * sizeof(uint32_t));
		return p->n_opts;
	}
	uint32_t nodes_id;
	if (kp__strtab_find(&c->res, KP_RESOURCE_NODES, &nodes_id) && p->limited[nodes_id] &&
	    rem[nodes_id] == 0) {
		kp__why(w, KP_REASON_NODEPOOL_LIMITS, KP_RESOURCE_NODES,
			"node limits have been exhausted for nodepool");
		return 0;
	}
	size_t k = 0;
	for (size_t i = 0; i < p->n_opts; i++) {
		const sc_it *it = &p->cat->items[p->opts[i]];
		int ok = 1;
		for (size_t r = 0; r < c->n_res && ok; r++)
			if (p->limited[r] && it->capacity[r] > rem[r])
				ok = 0;
		if (ok)
			out[k++] = p->opts[i];
	}
	if (!k && w) {
		char *buf = NULL;
		int64_t *show = kp__calloc(c->n_res + 1, sizeof(int64_t));
		if (show) {
			for (size_t r = 0; r < c->n_res; r++)
				if (p->limited[r])
					show[r] = rem[r] ? rem[r] : 0;
			buf = fmt_res(c, show);
			kp__free(show);
		}
		kp__why(w, KP_REASON_NODEPOOL_LIMITS, NULL,
			"all available instance types exceed limits for nodepool (remaining %s)",
			buf && buf[0] ? buf : "none");
		kp__free(buf);
	}
	return k;
}

/* The pool is usable in this simulation (minValues of the template under
 * Strict are checked on its options). */
static int pool_usable(sc_sim *s, uint32_t pool, sc_why *w)
{
	const sc_pool *p = &s->c->pools[pool];
	if (!p->usable) {
		kp__why(w, p->unusable_code, NULL, "%s", p->unusable_msg ? p->unusable_msg : "");
		return 0;
	}
	if (!s->min_values_best_effort && kp_requirements_has_min_values(p->reqs)) {
		const char *keys[4];
		int32_t counts[4];
		size_t n_bad;
		if (!min_values_check(p, p->opts, p->n_opts, p->reqs, keys, counts, 4, &n_bad)) {
			kp__why(w, KP_REASON_MIN_VALUES, keys[0],
				"the NodePool's requirements filtered out all instance types: "
				"minValues requirement is not met for label(s) (label(s)=[%s%s])",
				keys[0], n_bad > 1 ? " ..." : "");
			return 0;
		}
	}
	return 1;
}

/* Try a new NodeClaim of one pool for the pod; on success *out is it. */
int kp__sched_nc_try_pool(sc_sim *s, uint32_t pool, uint32_t pod, const sc_variant *v,
			  sc_why *w)
{
	if (!pool_usable(s, pool, w))
		return KP_EINCOMPATIBLE;
	const sc_pool *p = &s->c->pools[pool];
	uint32_t *its = kp__malloc((p->n_opts + 1) * sizeof(uint32_t));
	if (!its)
		return KP_ENOMEM;
	size_t n = limited_its(s, pool, its, w);
	if (!n) {
		kp__free(its);
		return KP_EINCOMPATIBLE;
	}
	sc_nc *nc = nc_new(s, pool, its, n);
	kp__free(its);
	if (!nc)
		return KP_ENOMEM;
	struct nc_add a;
	int rc = nc_can_add(s, nc, pod, v, s->min_values_best_effort, w, &a);
	nc_add_dispose(&a);
	nc_free(nc);
	return rc;
}

/*
 * The in-flight order. Upstream sorts the NodeClaims by pod count
 * ascending with a stable sort before each pod; between two sorts only one
 * NodeClaim changes, gaining one pod (or a new one arrives with one pod).
 * A NodeClaim going from n-1 to n pods passes the others with n-1 pods and
 * stops before the first with n: it becomes the head of the list of count
 * n. A new NodeClaim goes after every NodeClaim with one pod: the tail of
 * the list of count 1. Keeping one list per count makes both O(1), where
 * shifting one sorted array cost O(NodeClaims) per placement.
 */
#define NONE UINT32_MAX

static struct sc_order_list *olist(sc_sim *s, uint32_t cnt)
{
	if (cnt >= s->cap_olists) {
		size_t old = s->cap_olists;
		if (kp__grow((void **)&s->olists, &s->cap_olists, (size_t)cnt + 1,
			     sizeof(*s->olists)) != KP_OK)
			return NULL;
		for (size_t i = old; i < s->cap_olists; i++) {
			struct sc_order_list *l = &s->olists[i];
			l->head = l->tail = l->next = l->prev = NONE;
			l->front = -1;
			l->back = 0;
		}
	}
	return &s->olists[cnt];
}

/* Chain count @p cnt (its list just got its first NodeClaim) after count
 * @p prev (NONE: first). */
static void olist_link(sc_sim *s, uint32_t prev, uint32_t cnt)
{
	struct sc_order_list *l = &s->olists[cnt];
	l->prev = prev;
	l->next = prev == NONE ? s->ofirst : s->olists[prev].next;
	if (l->next != NONE)
		s->olists[l->next].prev = cnt;
	if (prev == NONE)
		s->ofirst = cnt;
	else
		s->olists[prev].next = cnt;
}

/* Unchain count @p cnt, whose list just became empty. */
static void olist_unlink(sc_sim *s, uint32_t cnt)
{
	struct sc_order_list *l = &s->olists[cnt];
	if (l->prev == NONE)
		s->ofirst = l->next;
	else
		s->olists[l->prev].next = l->next;
	if (l->next != NONE)
		s->olists[l->next].prev = l->prev;
	l->next = l->prev = NONE;
}

/* Tests only (verify_order): the in-flight order as upstream gets it,
 * a stable sort of all the NodeClaims by pod count, after NodeClaim @p id
 * changed (or arrived: @p added); then compare it with the lists. */
static void order_verify(sc_sim *s, uint32_t id, int added)
{
	if (added) {
		if (kp__grow((void **)&s->order_ref, &s->cap_order_ref, s->n_ncs,
			     sizeof(uint32_t)) != KP_OK) {
			s->oom = 1;
			return;
		}
		s->order_ref[s->n_ncs - 1] = id;
	}
	/* insertion sort: stable, and the array is sorted but for id */
	for (size_t i = 1; i < s->n_ncs; i++) {
		uint32_t x = s->order_ref[i];
		size_t j = i;
		while (j > 0 && s->ncs[s->order_ref[j - 1]]->n_pods > s->ncs[x]->n_pods) {
			s->order_ref[j] = s->order_ref[j - 1];
			j--;
		}
		s->order_ref[j] = x;
	}
	size_t i = 0;
	int same = 1;
	for (uint32_t k = s->ofirst; k != NONE; k = s->olists[k].next)
		for (uint32_t x = s->olists[k].head; x != NONE; x = s->ncs[x]->onext)
			same &= i < s->n_ncs && s->order_ref[i++] == x;
	s->order_checked++;
	s->order_mismatched += !(same && i == s->n_ncs);
}

/* A new NodeClaim with one pod: the tail of count 1 (the smallest count:
 * first in the chain). */
static int order_add(sc_sim *s, sc_nc *nc)
{
	struct sc_order_list *l = olist(s, 1);
	if (!l)
		return KP_ENOMEM;
	if (l->head == NONE)
		olist_link(s, NONE, 1);
	nc->oprev = l->tail;
	nc->onext = NONE;
	nc->oseq = l->back++;
	if (l->tail != NONE)
		s->ncs[l->tail]->onext = nc->id;
	else
		l->head = nc->id;
	l->tail = nc->id;
	return KP_OK;
}

/* @p nc went from n-1 to n pods: from its list to the head of count n. */
static int order_fix(sc_sim *s, sc_nc *nc)
{
	uint32_t cnt = (uint32_t)nc->n_pods, from = cnt - 1;
	if (!olist(s, cnt))
		return KP_ENOMEM;
	struct sc_order_list *lf = &s->olists[from], *lt = &s->olists[cnt];
	if (nc->oprev != NONE)
		s->ncs[nc->oprev]->onext = nc->onext;
	else
		lf->head = nc->onext;
	if (nc->onext != NONE)
		s->ncs[nc->onext]->oprev = nc->oprev;
	else
		lf->tail = nc->oprev;
	if (lt->head == NONE)
		olist_link(s, from, cnt); /* no count lies between n-1 and n */
	if (lf->head == NONE)
		olist_unlink(s, from);
	nc->oprev = NONE;
	nc->onext = lt->head;
	nc->oseq = lt->front--;
	if (lt->head != NONE)
		s->ncs[lt->head]->oprev = nc->id;
	else
		lt->tail = nc->id;
	lt->head = nc->id;
	if (s->verify_order)
		order_verify(s, nc->id, 0);
	return KP_OK;
}


int kp__sched_node_closed(const sc_sim *s, uint32_t i, uint32_t pod)
{
	if (!s->nodes[i].closed)
		return 0;
	int32_t from = s->c->pods[pod].node;
	return from >= 0 && s->nodes[from].fate == SC_NODE_REMOVED;
}

/* Whether no node of block @p b can have room for @p req (blk_max). */
static int block_full(const struct kp_cluster *c, size_t b, const int64_t *req)
{
	const int64_t *m = &c->blk_max[b * c->n_res];
	for (size_t r = 0; r < c->n_res; r++)
		if (req[r] > m[r])
			return 1;
	return 0;
}

static int try_existing(sc_sim *s, uint32_t pod, const sc_variant *v)
{
	const struct kp_cluster *c = s->c;
	const int64_t *req = c->pods[pod].req;
	for (size_t i = 0; i < c->n_nodes; i++) {
		/* the first node that fits, in order: whole blocks that cannot
		 * hold the pod's requests are passed over */
		if (i % SC_NODE_BLOCK == 0 && block_full(c, i / SC_NODE_BLOCK, req)) {
			i += SC_NODE_BLOCK - 1;
			continue;
		}
		if (s->nodes[i].fate != SC_NODE_KEPT || kp__sched_node_closed(s, (uint32_t)i, pod))
			continue;
		kp_requirements *reqs = NULL;
		int rc = kp__sched_nc_fits_existing(s, (uint32_t)i, pod, v, NULL, &reqs);
		if (rc == KP_ENOMEM)
			return rc;
		if (rc == KP_OK)
			return place_existing(s, (uint32_t)i, pod, v, reqs) == KP_OK ? KP_OK
										 : KP_ENOMEM;
	}
	return KP_EINCOMPATIBLE;
}

/* NodeClaims a variant can never join again: hostname topology counts
 * only grow, so a NodeClaim blocked once stays blocked. */
static void vblock_set(sc_sim *s, const sc_variant *v, uint32_t id)
{
	size_t need = id / 64 + 1;
	if (s->variants[v->id].blocked_words < need) {
		size_t words = need < 16 ? 16 : need * 2;
		uint64_t *b = kp__realloc(s->variants[v->id].blocked, words * sizeof(uint64_t));
		if (!b)
			return; /* only an optimization */
		memset(b + s->variants[v->id].blocked_words, 0,
		       (words - s->variants[v->id].blocked_words) * sizeof(uint64_t));
		s->variants[v->id].blocked = b;
		s->variants[v->id].blocked_words = words;
	}
	uint64_t bit = 1ull << (id % 64);
	if (!(s->variants[v->id].blocked[id / 64] & bit))
		s->variants[v->id].n_blocked++;
	s->variants[v->id].blocked[id / 64] |= bit;
}

static void amemo_set(sc_sim *s, const sc_variant *v, uint32_t id, uint32_t stamp)
{
	if (s->variants[v->id].amemo_cap <= id) {
		size_t cap = id < 64 ? 128 : (size_t)id * 2;
		uint32_t *m = kp__realloc(s->variants[v->id].amemo, cap * sizeof(uint32_t));
		if (!m)
			return; /* only an optimization */
		memset(m + s->variants[v->id].amemo_cap, 0, (cap - s->variants[v->id].amemo_cap) * sizeof(uint32_t));
		s->variants[v->id].amemo = m;
		s->variants[v->id].amemo_cap = cap;
	}
	s->variants[v->id].amemo[id] = stamp;
}

/* One in-flight NodeClaim (at position k of the order) for the pod:
 * KP_OK when placed there. */
/* Tests only (verify_quick): run the full check (with a reason wanted,
 * so without the quick path) on a pair the quick check rejected, and count
 * it when the full check would have accepted. */
static void verify_reject(sc_sim *s, sc_nc *nc, uint32_t pod, const sc_variant *v)
{
	sc_why w = { 0 };
	struct nc_add a;
	s->quick_checked++;
	if (nc_can_add(s, nc, pod, v, 0, &w, &a) == KP_OK) {
		s->quick_contradicted++;
		nc_add_dispose(&a);
	}
	kp__why_dispose(&w);
}

static int try_one(sc_sim *s, uint32_t pod, const sc_variant *v, uint32_t id, uint32_t stamp)
{
	const struct kp_cluster *c = s->c;
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	sc_nc *nc = s->ncs[id];
	if (nc->maxalloc)
		for (size_t r = 0; r < c->n_res; r++)
			if (p->req[r] && kp__sat_add(nc->requests[r], p->req[r]) > nc->maxalloc[r])
				return KP_EINCOMPATIBLE;
	if (cls->topo) {
		sc_reject q = kp__topo_quick_reject(s, pod, v, nc);
		if (q != SC_REJECT_UNKNOWN && s->verify_quick)
			verify_reject(s, nc, pod, v);
		if (q == SC_REJECT_FOREVER)
			vblock_set(s, v, nc->id);
		else if (q == SC_REJECT_UNTIL_AFFINITY)
			amemo_set(s, v, nc->id, stamp);
		if (q != SC_REJECT_UNKNOWN)
			return KP_EINCOMPATIBLE;
	}
	struct nc_add a;
	int rc = nc_can_add(s, nc, pod, v, 0, NULL, &a);
	if (rc != KP_OK)
		return rc;
	rc = nc_place(s, nc, pod, v, &a);
	nc_add_dispose(&a);
	if (rc != KP_OK)
		return KP_ENOMEM;
	return order_fix(s, nc);
}

/* A NodeClaim's place in the in-flight order: pod count, then rank. */
struct order_cand {
	uint32_t cnt;
	uint32_t id;
	int64_t seq;
};

static int cmp_cand(const void *a, const void *b)
{
	const struct order_cand *x = a, *y = b;
	if (x->cnt != y->cnt)
		return x->cnt < y->cnt ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Index of the lowest set bit of x (x != 0). */
static unsigned lowest_bit(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_ctzll(x);
#else
	unsigned i = 0;
	while (!(x & 1)) {
		x >>= 1;
		i++;
	}
	return i;
#endif
}

/* Most NodeClaims are ruled out for good for this variant: visit the
 * others only, in order. The clear bits are read a word at a time, so the
 * cost follows the NodeClaims left, not all the NodeClaims open. */
static int try_unblocked(sc_sim *s, uint32_t pod, const sc_variant *v, uint32_t stamp)
{
	const sc_variant_sim *vs = &s->variants[v->id];
	size_t vbw = vs->blocked_words, n = 0;
	struct order_cand *cand = kp__malloc((s->n_ncs - vs->n_blocked + 1) * sizeof(*cand));
	if (!cand)
		return KP_ENOMEM;
	for (size_t wi = 0; wi * 64 < s->n_ncs; wi++) {
		uint64_t open = wi < vbw ? ~vs->blocked[wi] : ~0ull;
		if (s->n_ncs - wi * 64 < 64)
			open &= (1ull << (s->n_ncs - wi * 64)) - 1;
		while (open) {
			uint32_t id = (uint32_t)(wi * 64 + lowest_bit(open));
			open &= open - 1;
			if (id < vs->amemo_cap && vs->amemo[id] == stamp)
				continue;
			const sc_nc *nc = s->ncs[id];
			cand[n].cnt = (uint32_t)nc->n_pods;
			cand[n].id = id;
			cand[n++].seq = nc->oseq;
		}
	}
	qsort(cand, n, sizeof(*cand), cmp_cand);
	int rc = KP_EINCOMPATIBLE;
	for (size_t i = 0; i < n && rc == KP_EINCOMPATIBLE; i++) {
		rc = try_one(s, pod, v, cand[i].id, stamp);
	}
	kp__free(cand);
	return rc;
}

static int try_inflight(sc_sim *s, uint32_t pod, const sc_variant *v)
{
	const sc_class *cls = &s->c->classes[s->c->pods[pod].cls];
	uint32_t stamp = cls->topo ? kp__topo_affinity_stamp(s, v) : 0;
	if (cls->topo && s->variants[v->id].blocked && s->n_ncs >= 128 &&
	    s->variants[v->id].n_blocked * 2 > s->n_ncs)
		return try_unblocked(s, pod, v, stamp);
	for (uint32_t k = s->ofirst; k != NONE; k = s->olists[k].next) {
		for (uint32_t id = s->olists[k].head; id != NONE; id = s->ncs[id]->onext) {
			if (cls->topo) {
				const sc_variant_sim *vs = &s->variants[v->id];
				if (vs->blocked && (size_t)(id / 64) < vs->blocked_words &&
				    (vs->blocked[id / 64] >> (id % 64) & 1))
					continue;
				if (id < vs->amemo_cap && vs->amemo[id] == stamp)
					continue;
			}
			int rc = try_one(s, pod, v, id, stamp);
			if (rc != KP_EINCOMPATIBLE)
				return rc;
		}
	}
	return KP_EINCOMPATIBLE;
}

/* upstream subtractMax */
static void subtract_max(sc_sim *s, uint32_t pool, const sc_nc *nc)
{
	const struct kp_cluster *c = s->c;
	int64_t *rem = s->pool_rem[pool];
	if (!rem || !nc->n_its)
		return;
	const sc_pool *p = &c->pools[pool];
	for (size_t r = 0; r < c->n_res; r++) {
		if (!p->limited[r])
			continue;
		int64_t mx = INT64_MIN;
		for (size_t i = 0; i < nc->n_its; i++) {
			int64_t v = p->cat->items[nc->its[i]].capacity[r];
			if (v > mx)
				mx = v;
		}
		/* upstream MaxResources has no entry when every capacity lacks it */
		rem[r] = kp__sat_add(rem[r], -mx);
	}
}

static int try_new(sc_sim *s, uint32_t pod, const sc_variant *v)
{
	const struct kp_cluster *c = s->c;
	uint32_t *its = NULL;
	size_t cap = 0;
	int rc = KP_EINCOMPATIBLE;
	for (size_t k = 0; k < c->n_pools; k++) {
		uint32_t pool = c->pool_order[k];
		if (!pool_usable(s, pool, NULL))
			continue;
		const sc_pool *p = &c->pools[pool];
		if (kp__grow((void **)&its, &cap, p->n_opts + 1, sizeof(uint32_t)) != KP_OK) {
			rc = KP_ENOMEM;
			break;
		}
		size_t n = limited_its(s, pool, its, NULL);
		if (!n)
			continue;
		sc_nc *nc = nc_new(s, pool, its, n);
		if (!nc) {
			rc = KP_ENOMEM;
			break;
		}
		struct nc_add a;
		rc = nc_can_add(s, nc, pod, v, s->min_values_best_effort, NULL, &a);
		if (rc == KP_ENOMEM) {
			nc_free(nc);
			break;
		}
		if (rc != KP_OK) {
			int blocked = a.resv_error;
			nc_add_dispose(&a);
			nc_free(nc);
			/* a reserved offering it could not reserve: no fallback to
			 * lower-weight NodePools (upstream addToNewNodeClaim) */
			if (blocked) {
				s->resv_blocked = 1;
				break;
			}
			continue;
		}
		/* keep it */
		s->next_hostname++;
		if (kp__grow((void **)&s->ncs, &s->cap_ncs, s->n_ncs + 1, sizeof(*s->ncs)) != KP_OK) {
			nc_add_dispose(&a);
			nc_free(nc);
			rc = KP_ENOMEM;
			break;
		}
		nc->id = (uint32_t)s->n_ncs;
		nc->min_values_relaxed = a.relaxed;
		s->ncs[s->n_ncs++] = nc;
		/* a new NodeClaim has one pod: it goes after the NodeClaims with one
		 * pod (what the next stable sort would do) */
		if (order_add(s, nc) != KP_OK) {
			nc_add_dispose(&a);
			rc = KP_ENOMEM;
			break;
		}
		rc = nc_place(s, nc, pod, v, &a);
		nc_add_dispose(&a);
		if (rc != KP_OK) {
			rc = KP_ENOMEM;
			break;
		}
		subtract_max(s, pool, nc);
		if (s->verify_order)
			order_verify(s, nc->id, 1);
		rc = KP_OK;
		break;
	}
	kp__free(its);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The loop (upstream Solve, trySchedule, add)                         */

static int sched_add(sc_sim *s, uint32_t pod, const sc_variant *v)
{
	int rc = try_existing(s, pod, v);
	if (rc != KP_EINCOMPATIBLE)
		return rc;
	rc = try_inflight(s, pod, v);
	if (rc != KP_EINCOMPATIBLE)
		return rc;
	return try_new(s, pod, v);
}

static int try_schedule(sc_sim *s, uint32_t pod)
{
	const sc_class *cls = &s->c->classes[s->c->pods[pod].cls];
	for (size_t k = 0; k < cls->n_variants; k++) {
		const sc_variant *v = &cls->variants[k];
		int rc = kp__topo_update(s, pod, v);
		if (rc != KP_OK)
			return rc;
		s->resv_blocked = 0;
		rc = sched_add(s, pod, v);
		if (rc == KP_OK) {
			kp__psim(s, pod)->placed_variant = (uint32_t)k;
			return KP_OK;
		}
		if (rc == KP_ENOMEM || s->oom)
			return KP_ENOMEM;
		if (s->resv_blocked) {
			/* upstream does not relax a pod refused for a reserved
			 * offering: it may fit once reservations are released */
			kp__psim(s, pod)->placed_variant = (uint32_t)k;
			return kp__topo_update(s, pod, &cls->variants[0]) != KP_OK ? KP_ENOMEM
										: KP_EINCOMPATIBLE;
		}
	}
	/* upstream keeps the unrelaxed pod in the queue */
	kp__psim(s, pod)->placed_variant = (uint32_t)(cls->n_variants ? cls->n_variants - 1 : 0);
	if (cls->n_variants && kp__topo_update(s, pod, &cls->variants[0]) != KP_OK)
		return KP_ENOMEM;
	return KP_EINCOMPATIBLE;
}

struct qkey {
	const sc_pod *p;
	uint32_t idx;
	int64_t cpu, mem;
};

static int queue_cmp(const void *a, const void *b)
{
	const struct qkey *x = a, *y = b;
	if (x->cpu != y->cpu)
		return x->cpu > y->cpu ? -1 : 1;
	if (x->mem != y->mem)
		return x->mem > y->mem ? -1 : 1;
	if (x->p->created_ms != y->p->created_ms)
		return x->p->created_ms < y->p->created_ms ? -1 : 1;
	int u = strcmp(x->p->uid, y->p->uid);
	if (u)
		return u;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int queue_build(sc_sim *s)
{
	const struct kp_cluster *c = s->c;
	size_t n = 0;
	for (size_t k = 0; k < s->n_act; k++)
		n += s->pods[k].role == SC_SIM_SCHEDULE;
	struct qkey *keys = kp__calloc(n + 1, sizeof(*keys));
	s->queue = kp__calloc(n + 1, sizeof(uint32_t));
	if (!keys || !s->queue) {
		kp__free(keys);
		return KP_ENOMEM;
	}
	uint32_t cpu = UINT32_MAX, mem = UINT32_MAX;
	kp__strtab_find(&c->res, KP_RESOURCE_CPU, &cpu);
	kp__strtab_find(&c->res, KP_RESOURCE_MEMORY, &mem);
	size_t k = 0;
	for (size_t a = 0; a < s->n_act; a++) {
		uint32_t i = s->act[a];
		if (s->pods[a].role != SC_SIM_SCHEDULE)
			continue;
		keys[k].p = &c->pods[i];
		keys[k].idx = (uint32_t)i;
		keys[k].cpu = cpu != UINT32_MAX ? c->pods[i].req[cpu] : 0;
		keys[k].mem = mem != UINT32_MAX ? c->pods[i].req[mem] : 0;
		k++;
	}
	qsort(keys, n, sizeof(*keys), queue_cmp);
	for (size_t i = 0; i < n; i++)
		s->queue[i] = keys[i].idx;
	kp__free(keys);
	s->q_cap = n + 1;
	s->q_head = 0;
	s->q_len = n;
	return KP_OK;
}

static int solve(sc_sim *s)
{
	int rc = queue_build(s);
	if (rc != KP_OK)
		return rc;
	for (;;) {
		if (!s->q_len)
			break;
		uint32_t pod = s->queue[s->q_head];
		/* a full pass without progress: stop (upstream Queue.Pop) */
		if (kp__psim(s, pod)->last_len == (int64_t)s->q_len)
			break;
		s->q_head = (s->q_head + 1) % s->q_cap;
		s->q_len--;
		rc = try_schedule(s, pod);
		if (rc == KP_OK)
			continue;
		if (rc != KP_EINCOMPATIBLE)
			return rc;
		size_t tail = (s->q_head + s->q_len) % s->q_cap;
		s->queue[tail] = pod;
		s->q_len++;
		kp__psim(s, pod)->last_len = (int64_t)s->q_len;
	}
	return KP_OK;
}

void kp__sched_sim_free(sc_sim *s)
{
	if (!s)
		return;
	const struct kp_cluster *c = s->c;
	/* only nodes with an overlay own anything (kp__sched_node_rem comes
	 * first) */
	for (size_t k = 0; s->nodes && k < s->n_touched; k++) {
		sc_node_sim *n = &s->nodes[s->touched[k]];
		kp__free(n->rem);
		kp_requirements_free(n->reqs);
		kp__free(n->ports);
		kp__free(n->vols);
	}
	kp__free(s->nodes);
	kp__free(s->pods);
	kp__free(s->act);
	kp__free(s->gone);
	kp__free(s->touched);
	kp__map_free(&s->pslot);
	for (size_t i = 0; i < s->n_ncs; i++)
		nc_free(s->ncs[i]);
	kp__free(s->ncs);
	kp__free(s->olists);
	kp__free(s->order_ref);
	for (size_t i = 0; c && s->pool_rem && i < c->n_pools; i++)
		kp__free(s->pool_rem[i]);
	kp__free(s->pool_rem);
	kp__free(s->queue);
	kp__free(s->scratch_res);
	kp__free(s->scratch_req);
	kp__free(s->scratch_its);
	kp__free(s->resv_rem);
	for (size_t i = 0; c && s->variants && i < c->n_variants; i++) {
		kp__free(s->variants[i].blocked);
		kp__free(s->variants[i].amemo);
	}
	kp__free(s->variants);
	kp__itcompat_dispose(&s->itc);
	kp__topo_sim_free(s);
	kp__free(s);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Which nodes this simulation removes (removed_nodes) or finds deleting,
 * listed in s->gone (index order), and which take no moved pod
 * (exclude_nodes). */
static int sim_node_fates(sc_sim *s, const kp_sched_options *o, kp_error *err)
{
	const struct kp_cluster *c = s->c;
	const kp__sched_sets *x = s->sets;
	s->gone = kp__calloc(c->n_deleting + o->n_removed_nodes + (x ? x->n_removed : 0) + 1,
			     sizeof(uint32_t));
	if (!s->gone)
		return KP_ENOMEM;
	for (size_t k = 0; k < c->n_deleting; k++) {
		s->nodes[c->deleting[k]].fate = SC_NODE_DELETING;
		s->gone[s->n_gone++] = c->deleting[k];
	}
	for (size_t k = 0; k < o->n_removed_nodes; k++) {
		const char *name = o->removed_nodes[k];
		uint32_t idx;
		if (!name || !kp__map_gets(&c->node_by_name, name, &idx))
			return kp__error(err, KP_EINVAL, "removed_nodes",
					 "removed_nodes[%zu]: no node or NodeClaim named \"%s\" in the "
					 "cluster", k, name ? name : "");
		if (s->nodes[idx].fate == SC_NODE_KEPT) {
			s->nodes[idx].fate = SC_NODE_REMOVED;
			s->gone[s->n_gone++] = idx;
		}
	}
	for (size_t k = 0; x && k < x->n_removed; k++) {
		uint32_t idx = x->removed[k];
		if (idx < c->n_nodes && s->nodes[idx].fate == SC_NODE_KEPT) {
			s->nodes[idx].fate = SC_NODE_REMOVED;
			s->gone[s->n_gone++] = idx;
		}
	}
	for (size_t k = 0; x && k < x->n_closed; k++)
		if (x->closed[k] < c->n_nodes)
			s->nodes[x->closed[k]].closed = 1;
	qsort(s->gone, s->n_gone, sizeof(uint32_t), cmp_u32);
	for (size_t k = 0; k < o->n_exclude_nodes; k++) {
		uint32_t idx;
		if (!o->exclude_nodes[k])
			return kp__error(err, KP_EINVAL, "exclude_nodes",
					 "exclude_nodes[%zu] is NULL", k);
		if (kp__map_gets(&c->node_by_name, o->exclude_nodes[k], &idx))
			s->nodes[idx].closed = 1;
	}
	return KP_OK;
}

/* A set of snapshot pod indices named "namespace/name" by an option;
 * with @p strict a NULL or unknown name is an error, else only NULL is. */
static int pod_set(const struct kp_cluster *c, const char *const *names, size_t n,
		   const char *field, int strict, kp__map *set, kp_error *err)
{
	for (size_t k = 0; k < n; k++) {
		uint32_t idx;
		if (!names[k])
			return kp__error(err, KP_EINVAL, field, "%s[%zu] is NULL", field, k);
		if (!kp__map_gets(&c->pod_by_key, names[k], &idx)) {
			if (strict)
				return kp__error(err, KP_EINVAL, field,
						 "%s[%zu]: no pod \"%s\" in the cluster", field, k,
						 names[k]);
			continue;
		}
		if (kp__map_put_u32(set, idx, 1, NULL, NULL) != KP_OK)
			return KP_ENOMEM;
	}
	return KP_OK;
}

/* The pods to schedule: pending ones (only some with only_pods), and those
 * of removed or deleting nodes that would move (less kept_pods), found
 * from the snapshot's lists and the gone nodes: nothing here visits every
 * pod of the snapshot. */
static int sim_pod_roles(sc_sim *s, const kp_sched_options *o, kp_error *err)
{
	const struct kp_cluster *c = s->c;
	kp__map only = { 0 }, kept = { 0 };
	int rc = KP_OK;
	if (o->only_pods)
		rc = pod_set(c, o->only_pods, o->n_only_pods, "only_pods", 1, &only, err);
	if (rc == KP_OK && o->n_kept_pods)
		rc = pod_set(c, o->kept_pods, o->n_kept_pods, "kept_pods", 0, &kept, err);
	for (size_t k = 0; rc == KP_OK && s->sets && k < s->sets->n_kept; k++)
		if (s->sets->kept[k] < c->n_pods &&
		    kp__map_put_u32(&kept, s->sets->kept[k], 1, NULL, NULL) != KP_OK)
			rc = KP_ENOMEM;
	size_t cap = c->n_pending;
	for (size_t k = 0; rc == KP_OK && k < s->n_gone; k++)
		cap += c->nodes[s->gone[k]].n_pods;
	if (rc == KP_OK && !(s->act = kp__calloc(cap + 1, sizeof(uint32_t))))
		rc = KP_ENOMEM;
	uint32_t dummy;
	/* s->act was sized for every pod these loops can add */
	for (size_t k = 0; rc == KP_OK && k < c->n_pending; k++)
		if (!o->only_pods || kp__map_get_u32(&only, c->pending[k], &dummy))
			s->act[s->n_act++] = c->pending[k];
	for (size_t k = 0; rc == KP_OK && k < s->n_gone; k++) {
		const sc_node *n = &c->nodes[s->gone[k]];
		for (size_t j = 0; j < n->n_pods; j++) {
			uint32_t i = n->pods[j];
			if ((c->pods[i].state & SC_POD_RESCHEDULABLE) && !(c->pods[i].state & SC_POD_PENDING) &&
			    !kp__map_get_u32(&kept, i, &dummy))
				s->act[s->n_act++] = i;
		}
	}
	kp__map_free(&only);
	kp__map_free(&kept);
	if (rc != KP_OK)
		return rc;
	qsort(s->act, s->n_act, sizeof(uint32_t), cmp_u32);
	s->pods = kp__calloc(s->n_act + 1, sizeof(*s->pods));
	if (!s->pods)
		return KP_ENOMEM;
	for (size_t k = 0; k < s->n_act; k++) {
		uint32_t i = s->act[k];
		sc_pod_sim *ps = &s->pods[k];
		if (kp__map_put_u32(&s->pslot, i, (uint32_t)k, NULL, NULL) != KP_OK)
			return KP_ENOMEM;
		ps->placed_node = -1;
		ps->placed_nc = -1;
		ps->last_len = -1;
		if (c->pods[i].state & SC_POD_PENDING) {
			/* upstream drops pods that fail Validate; they are
			 * reported here but never scheduled */
			const sc_class *cls = &c->classes[c->pods[i].cls];
			ps->role = cls->bad || !cls->n_variants ? SC_SIM_REPORT : SC_SIM_SCHEDULE;
		} else {
			ps->role = SC_SIM_SCHEDULE;
		}
	}
	return KP_OK;
}

/* NodePool limits: limits minus the capacity of the active nodes. */
static int sim_pool_limits(sc_sim *s)
{
	const struct kp_cluster *c = s->c;
	for (size_t p = 0; p < c->n_pools; p++) {
		const sc_pool *pool = &c->pools[p];
		if (!pool->has_limits)
			continue;
		int64_t *rem = kp__calloc(c->n_res + 1, sizeof(int64_t));
		if (!rem)
			return KP_ENOMEM;
		s->pool_rem[p] = rem;
		for (size_t r = 0; r < c->n_res; r++)
			rem[r] = pool->limited[r] ? kp__sat_add(pool->limits[r], -pool->usage[r]) : 0;
		for (size_t k = 0; k < s->n_gone; k++) {
			uint32_t i = s->gone[k];
			if (s->nodes[i].fate == SC_NODE_REMOVED && c->nodes[i].pool == (int32_t)p)
				for (size_t r = 0; r < c->n_res; r++)
					if (pool->limited[r])
						rem[r] = kp__sat_add(rem[r], c->nodes[i].capacity[r]);
		}
	}
	return KP_OK;
}

static int sim_init(sc_sim *s, const kp_sched_options *o, kp_error *err)
{
	const struct kp_cluster *c = s->c;
	s->nodes = kp__calloc(c->n_nodes + 1, sizeof(*s->nodes));
	s->variants = kp__calloc(c->n_variants + 1, sizeof(*s->variants));
	s->ofirst = NONE;
	s->pool_rem = kp__calloc(c->n_pools + 1, sizeof(*s->pool_rem));
	s->scratch_res = kp__calloc(c->n_res + 1, sizeof(int64_t));
	s->scratch_req = kp__calloc(c->n_res + 1, sizeof(int64_t));
	if (!s->nodes || !s->variants || !s->pool_rem || !s->scratch_res ||
	    !s->scratch_req)
		return KP_ENOMEM;
	int rc = sim_node_fates(s, o, err);
	if (rc == KP_OK)
		rc = sim_pod_roles(s, o, err);
	if (rc == KP_OK)
		rc = sim_pool_limits(s);
	s->resv_mode = o->reserved_offering_mode;
	if (rc == KP_OK)
		rc = kp__resv_sim_init(s);
	return rc == KP_OK ? kp__topo_sim_new(s) : rc;
}

int kp__sched_run(sc_sim *s, const kp_sched_options *o, kp_error *err)
{
	int rc = sim_init(s, o, err);
	if (rc == KP_OK)
		rc = solve(s);
	if (rc == KP_OK && s->oom)
		rc = KP_ENOMEM;
	return rc;
}
