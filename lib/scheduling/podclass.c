/*
 * Scheduling simulation: pods.
 *
 * Which pods a simulation considers (upstream pod utils IsProvisionable,
 * IsReschedulable, provisioner Validate), their requests (Karpenter's
 * RequestsForPods: effective requests plus pods: 1), and pod classes: pods
 * with identical scheduling constraints (namespace, labels, node selector,
 * affinities, tolerations, topology spread, host ports, volumes) share one
 * class, so that everything derived from the constraints is computed once.
 * A class carries its relaxation chain (upstream Preferences.Relax): variant
 * k is the pod after k relaxation steps, in upstream's order.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_private.h"
#include "state/state.h"

/* ------------------------------------------------------------------ */
/* Pod predicates (upstream pkg/utils/pod)                             */

/* ownership, terminal, terminating, reschedulable: lib/state (state.h) */

static const char *pod_node_name(const kp_pod *p)
{
	return p->spec && p->spec->node_name && p->spec->node_name[0] ? p->spec->node_name : NULL;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */

static int pod_requests(const kp_pod *p, kp_resource_list *out, kp_error *err)
{
	const kp_pod_spec *s = p->spec;
	size_t nc = s ? s->n_containers : 0, ni = s ? s->n_init_containers : 0;
	kp_container_resources *cr = kp__calloc(nc + ni + 1, sizeof(*cr));
	const kp_container_resources **cp = kp__calloc(nc + ni + 1, sizeof(*cp));
	if (!cr || !cp) {
		kp__free(cr);
		kp__free(cp);
		return KP_ENOMEM;
	}
	const kp_pod_status *st = p->status;
	for (size_t i = 0; i < nc + ni; i++) {
		int init = i >= nc;
		const kp_container *k = init ? s->init_containers[i - nc] : s->containers[i];
		kp_container_resources *r = &cr[i];
		kp_container_resources_init(r);
		cp[i] = r;
		if (!k)
			continue;
		if (k->resources) {
			r->requests = &k->resources->requests;
			r->limits = &k->resources->limits;
		}
		if (init)
			r->restartable = k->restart_policy && strcmp(k->restart_policy, "Always") == 0;
		if (!st || !k->name)
			continue;
		kp_container_status *const *sts = init ? st->init_container_statuses
						       : st->container_statuses;
		size_t nst = init ? st->n_init_container_statuses : st->n_container_statuses;
		for (size_t j = 0; j < nst; j++) {
			const kp_container_status *cs = sts[j];
			if (!cs || !cs->name || strcmp(cs->name, k->name) != 0)
				continue;
			if (cs->allocated_resources.items)
				r->allocated = &cs->allocated_resources;
			if (cs->resources && cs->resources->requests.items)
				r->status_requests = &cs->resources->requests;
			break;
		}
	}
	kp_pod_resources pr = KP_POD_RESOURCES_INIT;
	pr.containers = cp;
	pr.n_containers = nc;
	pr.init_containers = cp + nc;
	pr.n_init_containers = ni;
	if (s && s->overhead.count)
		pr.overhead = &s->overhead;
	if (s && s->resources) {
		pr.pod_requests = &s->resources->requests;
		pr.pod_limits = &s->resources->limits;
	}
	const kp_condition *rc_pending =
		st ? kp_condition_find(st->conditions, st->n_conditions, "PodResizePending") : NULL;
	if (rc_pending && rc_pending->reason && strcmp(rc_pending->reason, "Infeasible") == 0)
		pr.resize_infeasible = 1;
	int rc = kp_resources_pod_requests(out, &pr, err);
	kp__free(cr);
	kp__free(cp);
	return rc;
}

static int res_format_note(struct kp_cluster *c, uint32_t id, uint32_t fmt)
{
	if (id < c->cap_res_fmt && c->res_fmt[id] != UINT32_MAX)
		return KP_OK;
	size_t old = c->cap_res_fmt;
	if (id >= old) {
		if (kp__grow((void **)&c->res_fmt, &c->cap_res_fmt, id + 1, sizeof(uint32_t)) != KP_OK)
			return KP_ENOMEM;
		for (size_t i = old; i < c->cap_res_fmt; i++)
			c->res_fmt[i] = UINT32_MAX;
	}
	c->res_fmt[id] = fmt;
	return KP_OK;
}

/* Requests of one pod as (id, value) pairs, "pods" included. */
static int pod_pairs(struct kp_cluster *c, const kp_pod *p, kp_resource_list *scratch,
		     uint32_t **res, int64_t **val, size_t *n, kp_error *err)
{
	int rc = pod_requests(p, scratch, err);
	if (rc != KP_OK)
		return rc;
	*n = 0;
	*res = kp__arena_alloc(&c->arena, (scratch->count + 1) * sizeof(uint32_t));
	*val = kp__arena_alloc(&c->arena, (scratch->count + 1) * sizeof(int64_t));
	if (!*res || !*val)
		return KP_ENOMEM;
	(*res)[0] = 0; /* pods */
	(*val)[0] = 1000;
	*n = 1;
	for (size_t i = 0; i < scratch->count; i++) {
		uint32_t id;
		if (kp__strtab_intern(&c->res, scratch->items[i].name, &id) != KP_OK ||
		    res_format_note(c, id, scratch->items[i].quantity.format) != KP_OK)
			return KP_ENOMEM;
		if (id == 0)
			continue;
		(*res)[*n] = id;
		(*val)[*n] = kp__res_value(scratch->items[i].name, &scratch->items[i].quantity);
		(*n)++;
	}
	return KP_OK;
}

/* Per-pod (resource, value) pairs, until vectors can be built. */
struct pairs {
	uint32_t *res;
	int64_t *val;
	size_t n;
};

/* ------------------------------------------------------------------ */
/* Host ports (upstream GetHostPorts)                                  */

static void parse_ip(const char *s, sc_port *p)
{
	memset(p->ip, 0, sizeof(p->ip));
	p->unspecified = 0;
	if (!s || !s[0])
		s = "0.0.0.0";
	unsigned char buf[16]; /* binary address: 16 bytes by construction */
	if (inet_pton(AF_INET, s, buf) == 1) {
		p->ip[10] = 0xff;
		p->ip[11] = 0xff;
		memcpy(p->ip + 12, buf, 4);
		p->unspecified = !buf[0] && !buf[1] && !buf[2] && !buf[3];
		return;
	}
	if (inet_pton(AF_INET6, s, buf) == 1) {
		memcpy(p->ip, buf, 16);
		int zero = 1;
		for (int i = 0; i < 16; i++)
			zero &= buf[i] == 0;
		/* ::ffff:0.0.0.0 is unspecified too (Go's IsUnspecified compares with To16) */
		int v4zero = 1;
		for (int i = 0; i < 10; i++)
			v4zero &= buf[i] == 0;
		v4zero &= buf[10] == 0xff && buf[11] == 0xff && !buf[12] && !buf[13] && !buf[14] &&
			  !buf[15];
		p->unspecified = zero || v4zero;
		return;
	}
	/* not an IP: Go's ParseIP gives nil, equal only to other nils */
	memset(p->ip, 0xee, sizeof(p->ip));
}

static int pod_ports(struct kp_cluster *c, const kp_pod *p, sc_port **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	const kp_pod_spec *s = p->spec;
	if (!s)
		return KP_OK;
	size_t total = 0;
	for (size_t i = 0; i < s->n_containers; i++)
		if (s->containers[i])
			for (size_t j = 0; j < s->containers[i]->n_ports; j++)
				if (s->containers[i]->ports[j] && s->containers[i]->ports[j]->host_port)
					total++;
	if (!total)
		return KP_OK;
	sc_port *ports = kp__arena_alloc(&c->arena, total * sizeof(*ports));
	if (!ports)
		return KP_ENOMEM;
	for (size_t i = 0; i < s->n_containers; i++) {
		if (!s->containers[i])
			continue;
		for (size_t j = 0; j < s->containers[i]->n_ports; j++) {
			const kp_container_port *cp = s->containers[i]->ports[j];
			if (!cp || !cp->host_port)
				continue;
			sc_port *pt = &ports[(*n)++];
			parse_ip(cp->host_ip, pt);
			pt->port = cp->host_port;
			/* the API server defaults the protocol to TCP */
			if (kp__strtab_intern(&c->str, cp->protocol && cp->protocol[0] ? cp->protocol
										: "TCP",
					      &pt->proto) != KP_OK)
				return KP_ENOMEM;
		}
	}
	*out = ports;
	return KP_OK;
}

int kp__ports_conflict(const sc_port *a, size_t na, const sc_port *b, size_t nb)
{
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			if (a[i].proto != b[j].proto || a[i].port != b[j].port)
				continue;
			if (memcmp(a[i].ip, b[j].ip, 16) != 0 && !a[i].unspecified &&
			    !b[j].unspecified)
				continue;
			return 1;
		}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Requirements from a pod (upstream NewPodRequirements)               */

static int add_term(kp_requirements *reqs, const kp_node_selector_term *t, kp_wellknown *wk,
		    kp_error *err)
{
	if (!t)
		return KP_OK;
	for (size_t i = 0; i < t->n_match_expressions; i++) {
		const kp_node_selector_requirement *e = t->match_expressions[i];
		if (!e)
			continue;
		kp_node_selector_requirement s = *e;
		s.struct_size = sizeof(s);
		s.min_values = 0;
		s.reserved = 0;
		int rc = kp_requirements_add_selector(reqs, &s, wk, err);
		if (rc != KP_OK)
			return rc;
	}
	return KP_OK;
}

static int relax_requirements(kp_wellknown *wk, const sc_relax *st, int strict,
			      kp_requirements **out, kp_error *err)
{
	kp_requirements *r = NULL;
	const kp_pod_spec *s = st->pod->spec;
	int rc = kp_requirements_from_labels(&r, s ? &s->node_selector : NULL, wk, err);
	if (rc != KP_OK && s)
		return rc;
	if (rc != KP_OK && (rc = kp_requirements_new(&r, err)) != KP_OK)
		return rc;
	if (!strict && st->n_pref_node && st->pref_node[0]->preference)
		rc = add_term(r, st->pref_node[0]->preference, wk, err);
	if (rc == KP_OK && st->n_req)
		rc = add_term(r, st->req_terms[0], wk, err);
	if (rc != KP_OK) {
		kp_requirements_free(r);
		return rc;
	}
	*out = r;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Validation (upstream Provisioner.Validate)                          */

static const char *valid_ct[] = { KP_CAPACITY_TYPE_ON_DEMAND, KP_CAPACITY_TYPE_SPOT,
				  KP_CAPACITY_TYPE_RESERVED };

/* One requirement as upstream ValidateRequirement; returns a message or NULL. */
static const char *validate_requirement(struct kp_cluster *c, const char *key, uint32_t op,
					const char *const *values, size_t n_values)
{
	key = kp_wellknown_normalize_key(c->wk, key ? key : "");
	kp_error e = KP_ERROR_INIT;
	if (op < KP_SELECTOR_OP_IN || op > KP_SELECTOR_OP_LTE)
		return kp__arena_printf(&c->arena, "key %s has an unsupported operator", key);
	if (kp_wellknown_check_restricted(c->wk, key, &e) != KP_OK) {
		/* the whole message, however long the provider's label list */
		size_t n = kp_wellknown_restricted_message(c->wk, key, NULL, 0);
		char *buf = kp__arena_alloc(&c->arena, n + 1);
		if (buf)
			kp_wellknown_restricted_message(c->wk, key, buf, n + 1);
		return buf;
	}
	if (strcmp(key, KP_LABEL_CAPACITY_TYPE) == 0 && op == KP_SELECTOR_OP_IN) {
		size_t ok = 0;
		for (size_t i = 0; i < n_values; i++)
			for (size_t k = 0; k < 3; k++)
				if (values[i] && strcmp(values[i], valid_ct[k]) == 0)
					ok++;
		if (!ok && n_values)
			return kp__arena_printf(&c->arena,
						"no valid values found in requirement for %s, expected "
						"one of: [on-demand reserved spot]", key);
	}
	if (kp_label_key_validate(key, &e) != KP_OK)
		return kp__arena_printf(&c->arena, "key %s is not a qualified name, %s", key,
					e.message);
	for (size_t i = 0; i < n_values; i++)
		if (kp_label_value_validate(values[i] ? values[i] : "", &e) != KP_OK)
			return kp__arena_printf(&c->arena, "invalid value %s for key %s, %s",
						values[i] ? values[i] : "", key, e.message);
	if (op == KP_SELECTOR_OP_IN && !n_values)
		return kp__arena_printf(&c->arena,
					"key %s with operator In must have a value defined", key);
	if (op >= KP_SELECTOR_OP_GT) {
		int bad = n_values != 1 || !values[0] || !values[0][0];
		for (const char *p = !bad ? values[0] : ""; *p; p++)
			if (*p < '0' || *p > '9')
				bad = 1;
		if (bad)
			return kp__arena_printf(&c->arena,
						"key %s with operator %s must have a single positive "
						"integer value", key, kp_selector_op_name(op));
	}
	return NULL;
}

static void validate_class(struct kp_cluster *c, sc_class *cls, kp_requirements *full)
{
	const kp_pod_spec *s = cls->rep->spec;
	/* validateKarpenterManagedLabelCanExist */
	kp_requirement *np = kp_requirements_get(full, KP_LABEL_NODEPOOL);
	if (np && kp_requirement_operator(np) == KP_SELECTOR_OP_DOES_NOT_EXIST) {
		cls->bad = "configured to not run on a Karpenter provisioned node";
		cls->bad_field = "karpenter.sh/nodepool DoesNotExist";
		return;
	}
	if (!s)
		return;
	for (size_t i = 0; i < s->node_selector.count; i++) {
		const char *v = s->node_selector.items[i].value;
		const char *msg = validate_requirement(c, s->node_selector.items[i].key,
						       KP_SELECTOR_OP_IN, &v, 1);
		if (msg) {
			cls->bad = msg;
			cls->bad_field = kp__arena_printf(&c->arena, "spec.nodeSelector[%s]",
							  s->node_selector.items[i].key);
			return;
		}
	}
	const kp_node_selector *req = s->affinity && s->affinity->node_affinity
					      ? s->affinity->node_affinity->required : NULL;
	for (size_t t = 0; req && t < req->n_terms; t++) {
		const kp_node_selector_term *term = req->terms[t];
		if (!term)
			continue;
		if (term->match_fields) {
			cls->bad = "node selector term with matchFields is not supported";
			cls->bad_field = kp__arena_printf(
				&c->arena,
				"spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
				"nodeSelectorTerms[%zu].matchFields", t);
			return;
		}
		for (size_t e = 0; e < term->n_match_expressions; e++) {
			const kp_node_selector_requirement *x = term->match_expressions[e];
			if (!x)
				continue;
			const char *msg = validate_requirement(c, x->key, x->op, x->values,
							       x->n_values);
			if (msg) {
				cls->bad = msg;
				cls->bad_field = kp__arena_printf(
					&c->arena,
					"spec.affinity.nodeAffinity."
					"requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[%zu]."
					"matchExpressions[%zu]", t, e);
				return;
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* Relaxation chain (upstream Preferences.Relax)                       */

static void sort_weighted(const kp_weighted_pod_affinity_term **a, size_t n)
{
	/* stable insertion sort, heaviest first */
	for (size_t i = 1; i < n; i++) {
		const kp_weighted_pod_affinity_term *x = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1]->weight < x->weight) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

static void sort_preferred(const kp_preferred_scheduling_term **a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		const kp_preferred_scheduling_term *x = a[i];
		size_t j = i;
		while (j > 0 && a[j - 1]->weight < x->weight) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}

static int has_pns_toleration(const kp_toleration *t, size_t n)
{
	/* upstream MatchToleration: key, operator, value and effect all equal */
	for (size_t i = 0; i < n; i++)
		if ((!t[i].key || !t[i].key[0]) && t[i].op == KP_TOLERATION_OP_EXISTS &&
		    (!t[i].value || !t[i].value[0]) &&
		    t[i].effect == KP_TAINT_EFFECT_PREFER_NO_SCHEDULE)
			return 1;
	return 0;
}

/* One relaxation step; returns the message, or NULL when nothing is left. */
static const char *relax_step(struct kp_cluster *c, sc_relax *st)
{
	if (st->n_req > 1) {
		st->req_terms++;
		st->n_req--;
		return "removed spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
		       ".nodeSelectorTerms[0]";
	}
	if (st->n_pref_aff) {
		st->pref_aff++;
		st->n_pref_aff--;
		return "removed the heaviest spec.affinity.podAffinity."
		       "preferredDuringSchedulingIgnoredDuringExecution term";
	}
	if (st->n_pref_anti) {
		st->pref_anti++;
		st->n_pref_anti--;
		return "removed the heaviest spec.affinity.podAntiAffinity."
		       "preferredDuringSchedulingIgnoredDuringExecution term";
	}
	if (st->n_pref_node) {
		st->pref_node++;
		st->n_pref_node--;
		return "removed the heaviest spec.affinity.nodeAffinity."
		       "preferredDuringSchedulingIgnoredDuringExecution term";
	}
	for (size_t i = 0; i < st->n_tsc; i++) {
		if (st->tsc[i]->when_unsatisfiable_code == KP_WHEN_UNSATISFIABLE_SCHEDULE_ANYWAY) {
			/* upstream moves the last constraint into the hole */
			st->tsc[i] = st->tsc[st->n_tsc - 1];
			st->n_tsc--;
			return "removed a ScheduleAnyway spec.topologySpreadConstraints entry";
		}
	}
	const kp_pod_spec *s = st->pod->spec;
	if (c->tolerate_pns && !st->pns &&
	    !has_pns_toleration(s ? s->tolerations : NULL, s ? s->n_tolerations : 0)) {
		st->pns = 1;
		return "added a toleration for PreferNoSchedule taints";
	}
	return NULL;
}

static int build_variant(struct kp_cluster *c, sc_class *cls, const sc_relax *st,
			 sc_variant *v, kp_error *err)
{
	int rc = relax_requirements(c->wk, st, 0, &v->reqs, err);
	if (rc != KP_OK)
		return rc;
	if ((rc = kp__cluster_keep_reqs(c, v->reqs)) != KP_OK)
		return rc;
	if ((rc = relax_requirements(c->wk, st, 1, &v->strict, err)) != KP_OK)
		return rc;
	if ((rc = kp__cluster_keep_reqs(c, v->strict)) != KP_OK)
		return rc;
	const kp_pod_spec *s = st->pod->spec;
	size_t nt = s ? s->n_tolerations : 0;
	if (st->pns) {
		kp_toleration *t = kp__arena_alloc(&c->arena, (nt + 1) * sizeof(*t));
		if (!t)
			return KP_ENOMEM;
		if (nt)
			memcpy(t, s->tolerations, nt * sizeof(*t));
		kp_toleration pns = { "", "", KP_TOLERATION_OP_EXISTS,
				      KP_TAINT_EFFECT_PREFER_NO_SCHEDULE, 0, 0, 0 };
		t[nt++] = pns;
		v->tols = t;
	} else {
		v->tols = s ? s->tolerations : NULL;
	}
	v->n_tols = nt;
	return kp__topo_variant_groups(c, cls, st, v->tols, v->n_tols, &v->groups, &v->n_groups);
}

static int build_variants(struct kp_cluster *c, sc_class *cls, kp_error *err)
{
	const kp_pod_spec *s = cls->rep->spec;
	sc_relax st;
	memset(&st, 0, sizeof(st));
	st.pod = cls->rep;
	const kp_affinity *a = s ? s->affinity : NULL;
	const kp_node_affinity *na = a ? a->node_affinity : NULL;
	if (na && na->required && na->required->n_terms) {
		st.req_terms = na->required->terms;
		st.n_req = na->required->n_terms;
	}
	size_t npn = na ? na->n_preferred : 0;
	size_t npa = a && a->pod_affinity ? a->pod_affinity->n_preferred : 0;
	size_t npaa = a && a->pod_anti_affinity ? a->pod_anti_affinity->n_preferred : 0;
	size_t ntsc = s ? s->n_topology_spread_constraints : 0;
	st.pref_node = kp__arena_alloc(&c->arena, (npn + 1) * sizeof(*st.pref_node));
	st.pref_aff = kp__arena_alloc(&c->arena, (npa + 1) * sizeof(*st.pref_aff));
	st.pref_anti = kp__arena_alloc(&c->arena, (npaa + 1) * sizeof(*st.pref_anti));
	st.tsc = kp__arena_alloc(&c->arena, (ntsc + 1) * sizeof(*st.tsc));
	if (!st.pref_node || !st.pref_aff || !st.pref_anti || !st.tsc)
		return KP_ENOMEM;
	for (size_t i = 0; i < npn; i++)
		if (na->preferred[i])
			st.pref_node[st.n_pref_node++] = na->preferred[i];
	for (size_t i = 0; i < npa; i++)
		if (a->pod_affinity->preferred[i] && a->pod_affinity->preferred[i]->term)
			st.pref_aff[st.n_pref_aff++] = a->pod_affinity->preferred[i];
	for (size_t i = 0; i < npaa; i++)
		if (a->pod_anti_affinity->preferred[i] && a->pod_anti_affinity->preferred[i]->term)
			st.pref_anti[st.n_pref_anti++] = a->pod_anti_affinity->preferred[i];
	for (size_t i = 0; i < ntsc; i++)
		if (s->topology_spread_constraints[i])
			st.tsc[st.n_tsc++] = s->topology_spread_constraints[i];
	sort_preferred(st.pref_node, st.n_pref_node);
	sort_weighted(st.pref_aff, st.n_pref_aff);
	sort_weighted(st.pref_anti, st.n_pref_anti);

	/* at most one step per relaxable item, plus the first */
	size_t max = 2 + st.n_req + st.n_pref_node + st.n_pref_aff + st.n_pref_anti + st.n_tsc;
	cls->variants = kp__arena_alloc(&c->arena, max * sizeof(sc_variant));
	if (!cls->variants)
		return KP_ENOMEM;
	const char *msg = NULL;
	for (;;) {
		sc_variant *v = &cls->variants[cls->n_variants++];
		v->relaxed = msg;
		v->id = (uint32_t)c->n_variants++;
		/* each variant owns its arrays: copy the relax state's current lists */
		sc_relax snap = st;
		const kp_topology_spread_constraint **tsc =
			kp__arena_alloc(&c->arena, (st.n_tsc + 1) * sizeof(*tsc));
		if (!tsc)
			return KP_ENOMEM;
		memcpy(tsc, st.tsc, st.n_tsc * sizeof(*tsc));
		snap.tsc = tsc;
		int rc = build_variant(c, cls, &snap, v, err);
		if (rc != KP_OK)
			return rc;
		if (cls->n_variants >= max)
			break;
		if (!(msg = relax_step(c, &st)))
			break;
	}
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Class keys                                                          */

static int cmp_label_ptr(const void *a, const void *b)
{
	const kp_label *x = *(const kp_label *const *)a, *y = *(const kp_label *const *)b;
	return strcmp(x->key ? x->key : "", y->key ? y->key : "");
}

static void key_labels(sc_buf *b, const kp_labels *l)
{
	size_t n = l ? l->count : 0;
	kp__buf_u32(b, (uint32_t)n);
	if (!n)
		return;
	const kp_label **tmp = kp__calloc(n, sizeof(*tmp));
	if (!tmp) {
		b->failed = 1;
		return;
	}
	for (size_t i = 0; i < n; i++)
		tmp[i] = &l->items[i];
	qsort(tmp, n, sizeof(*tmp), cmp_label_ptr);
	for (size_t i = 0; i < n; i++) {
		kp__buf_str(b, tmp[i]->key);
		kp__buf_str(b, tmp[i]->value);
	}
	kp__free(tmp);
}

static void key_strs(sc_buf *b, const char *const *v, size_t n)
{
	kp__buf_u32(b, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		kp__buf_str(b, v ? v[i] : NULL);
}

static void key_nsr(sc_buf *b, const kp_node_selector_requirement *r)
{
	if (!r) {
		kp__buf_u32(b, 0);
		return;
	}
	kp__buf_u32(b, 1);
	kp__buf_str(b, r->key);
	kp__buf_u32(b, r->op);
	key_strs(b, r->values, r->n_values);
}

static void key_term(sc_buf *b, const kp_node_selector_term *t)
{
	if (!t) {
		kp__buf_u32(b, UINT32_MAX);
		return;
	}
	kp__buf_u32(b, (uint32_t)t->n_match_expressions);
	for (size_t i = 0; i < t->n_match_expressions; i++)
		key_nsr(b, t->match_expressions[i]);
	kp__buf_u32(b, t->match_fields ? (uint32_t)t->n_match_fields : UINT32_MAX);
	for (size_t i = 0; t->match_fields && i < t->n_match_fields; i++)
		key_nsr(b, t->match_fields[i]);
}

static void key_selector(sc_buf *b, const kp_label_selector *s)
{
	if (!s) {
		kp__buf_u32(b, 0);
		return;
	}
	kp__buf_u32(b, 1);
	key_labels(b, &s->match_labels);
	kp__buf_u32(b, (uint32_t)s->n_match_expressions);
	for (size_t i = 0; i < s->n_match_expressions; i++) {
		const kp_label_selector_requirement *e = &s->match_expressions[i];
		kp__buf_str(b, e->key);
		kp__buf_u32(b, e->op);
		key_strs(b, e->values, e->n_values);
	}
}

static void key_pat(sc_buf *b, const kp_pod_affinity_term *t)
{
	if (!t) {
		kp__buf_u32(b, 0);
		return;
	}
	kp__buf_u32(b, 1);
	key_selector(b, t->label_selector);
	key_strs(b, t->namespaces, t->n_namespaces);
	key_selector(b, t->namespace_selector);
	kp__buf_str(b, t->topology_key);
	key_strs(b, t->match_label_keys, t->n_match_label_keys);
	key_strs(b, t->mismatch_label_keys, t->n_mismatch_label_keys);
}

static void key_pod_affinity(sc_buf *b, const kp_pod_affinity *a)
{
	if (!a) {
		kp__buf_u32(b, 0);
		return;
	}
	kp__buf_u32(b, 1);
	kp__buf_u32(b, (uint32_t)a->n_required);
	for (size_t i = 0; i < a->n_required; i++)
		key_pat(b, a->required[i]);
	kp__buf_u32(b, (uint32_t)a->n_preferred);
	for (size_t i = 0; i < a->n_preferred; i++) {
		const kp_weighted_pod_affinity_term *w = a->preferred[i];
		kp__buf_u32(b, w ? (uint32_t)w->weight : 0);
		key_pat(b, w ? w->term : NULL);
	}
}

static void class_key(sc_buf *b, const kp_pod *p, const char *const *vol_keys, size_t n_vol_keys)
{
	const kp_pod_spec *s = p->spec;
	kp__buf_str(b, p->metadata ? p->metadata->namespace_ : NULL);
	key_labels(b, p->metadata ? &p->metadata->labels : NULL);
	if (!s) {
		kp__buf_u32(b, 0);
		return;
	}
	kp__buf_u32(b, 1);
	key_labels(b, &s->node_selector);
	const kp_affinity *a = s->affinity;
	kp__buf_u32(b, a ? 1 : 0);
	if (a) {
		const kp_node_affinity *na = a->node_affinity;
		kp__buf_u32(b, na ? 1 : 0);
		if (na) {
			kp__buf_u32(b, na->required ? (uint32_t)na->required->n_terms : UINT32_MAX);
			for (size_t i = 0; na->required && i < na->required->n_terms; i++)
				key_term(b, na->required->terms[i]);
			kp__buf_u32(b, (uint32_t)na->n_preferred);
			for (size_t i = 0; i < na->n_preferred; i++) {
				const kp_preferred_scheduling_term *t = na->preferred[i];
				kp__buf_u32(b, t ? (uint32_t)t->weight : 0);
				key_term(b, t ? t->preference : NULL);
			}
		}
		key_pod_affinity(b, a->pod_affinity);
		key_pod_affinity(b, a->pod_anti_affinity);
	}
	kp__buf_u32(b, (uint32_t)s->n_tolerations);
	for (size_t i = 0; i < s->n_tolerations; i++) {
		const kp_toleration *t = &s->tolerations[i];
		kp__buf_str(b, t->key ? t->key : "");
		kp__buf_str(b, t->value ? t->value : "");
		kp__buf_u32(b, t->op);
		kp__buf_u32(b, t->effect);
	}
	kp__buf_u32(b, (uint32_t)s->n_topology_spread_constraints);
	for (size_t i = 0; i < s->n_topology_spread_constraints; i++) {
		const kp_topology_spread_constraint *t = s->topology_spread_constraints[i];
		if (!t) {
			kp__buf_u32(b, 0);
			continue;
		}
		kp__buf_u32(b, 1);
		kp__buf_u32(b, (uint32_t)t->max_skew);
		kp__buf_u32(b, t->when_unsatisfiable_code);
		kp__buf_u32(b, t->has_min_domains ? (uint32_t)t->min_domains : UINT32_MAX);
		kp__buf_u32(b, t->node_affinity_policy_code);
		kp__buf_u32(b, t->node_taints_policy_code);
		kp__buf_str(b, t->topology_key);
		key_selector(b, t->label_selector);
		key_strs(b, t->match_label_keys, t->n_match_label_keys);
	}
	/* host ports */
	for (size_t i = 0; i < s->n_containers; i++) {
		const kp_container *k = s->containers[i];
		for (size_t j = 0; k && j < k->n_ports; j++) {
			const kp_container_port *cp = k->ports[j];
			if (!cp || !cp->host_port)
				continue;
			kp__buf_u32(b, (uint32_t)cp->host_port);
			kp__buf_str(b, cp->protocol);
			kp__buf_str(b, cp->host_ip);
		}
	}
	kp__buf_u32(b, UINT32_MAX);
	key_strs(b, vol_keys, n_vol_keys);
}

/* ------------------------------------------------------------------ */
/* Volumes (CSI drivers for attach limits; topology alternatives)      */

/* ------------------------------------------------------------------ */
/* Entry points from cluster.c                                         */

static const char *or_empty(const char *s, const char *dflt)
{
	return s ? s : dflt;
}

/* The snapshot's record of each pod, its requests as (resource, value)
 * pairs in @p pairs. */
static int pods_snapshot(struct kp_cluster *c, const kp_cluster_spec *spec, struct pairs *pairs,
			 kp_resource_list *scratch, kp_error *err)
{
	for (size_t i = 0; i < spec->n_pods; i++) {
		const kp_pod *p = spec->pods[i];
		if (!p)
			return kp__error(err, KP_EINVAL, "pods", "pods[%zu] is NULL", i);
		const kp_object_meta *m = p->metadata;
		sc_pod *sp = &c->pods[i];
		sp->pod = p;
		sp->ns = kp__arena_strdup(&c->arena, or_empty(m ? m->namespace_ : NULL, "default"));
		sp->name = kp__arena_strdup(&c->arena, or_empty(m ? m->name : NULL, ""));
		sp->uid = kp__arena_strdup(&c->arena, or_empty(m ? m->uid : NULL, ""));
		sp->created_ms = m ? m->creation_timestamp_ms : 0;
		if (!sp->ns || !sp->name || !sp->uid)
			return KP_ENOMEM;
		int rc = pod_pairs(c, p, scratch, &pairs[i].res, &pairs[i].val, &pairs[i].n, err);
		if (rc != KP_OK) {
			char f[64]; /* a fixed path and a size_t index: fits by construction */
			snprintf(f, sizeof(f), "pods[%zu]", (size_t)c->pod_spec_index[i]);
			kp__error_prefix(err, f);
			return rc;
		}
	}
	return KP_OK;
}

/* An existing pod of the DaemonSet (upstream GetDaemonSetPod), or NULL. */
static const kp_pod *daemonset_pod(const struct kp_cluster *c, const kp_cluster_spec *spec,
				   const char *dsns, const char *dsname)
{
	for (size_t i = 0; i < spec->n_pods; i++) {
		const kp_pod *p = spec->pods[i];
		const kp_object_meta *m = p->metadata;
		if (!m || strcmp(c->pods[i].ns, dsns) != 0)
			continue;
		for (size_t o = 0; o < m->n_owner_references; o++) {
			const kp_owner_reference *ref = m->owner_references[o];
			if (ref && ref->kind && ref->name && strcmp(ref->kind, "DaemonSet") == 0 &&
			    strcmp(ref->name, dsname) == 0)
				return p;
		}
	}
	return NULL;
}

/* @p pod with the required node affinity @p req (a new copy). */
static int pod_with_required_affinity(const kp_pod *pod, const kp_node_selector *req,
				      kp_pod **out, kp_error *err)
{
	kp_pod tmp = *pod;
	kp_pod_spec sp = *pod->spec;
	kp_affinity aff = KP_AFFINITY_INIT;
	kp_node_affinity na = KP_NODE_AFFINITY_INIT;
	if (sp.affinity)
		aff = *sp.affinity;
	if (aff.node_affinity)
		na = *aff.node_affinity;
	kp_node_selector sel = *req;
	na.required = &sel;
	aff.node_affinity = &na;
	sp.affinity = &aff;
	tmp.spec = &sp;
	return kp_pod_copy(out, &tmp, err);
}

/* The daemon pod of a DaemonSet: an existing pod of it when there is one,
 * else its template, with the template's required node affinity either
 * way (the DaemonSet controller sets it). *out is NULL for a DaemonSet
 * without a pod template. */
static int daemon_pod(const struct kp_cluster *c, const kp_cluster_spec *spec,
		      const kp_daemonset *ds, kp_pod **out, kp_error *err)
{
	*out = NULL;
	if (!ds || !ds->spec || !ds->spec->template_ || !ds->spec->template_->spec)
		return KP_OK;
	const char *dsns = or_empty(ds->metadata ? ds->metadata->namespace_ : NULL, "default");
	const char *dsname = or_empty(ds->metadata ? ds->metadata->name : NULL, "");
	const kp_pod *found = daemonset_pod(c, spec, dsns, dsname);
	const kp_pod_spec *tspec = ds->spec->template_->spec;
	if (!found) {
		kp_pod tmp = KP_POD_INIT;
		kp_object_meta meta = KP_OBJECT_META_INIT;
		meta.namespace_ = dsns;
		meta.name = dsname;
		if (ds->spec->template_->metadata)
			meta.labels = ds->spec->template_->metadata->labels;
		tmp.metadata = &meta;
		tmp.spec = ds->spec->template_->spec;
		return kp_pod_copy(out, &tmp, err);
	}
	const kp_node_selector *treq = tspec->affinity && tspec->affinity->node_affinity
					       ? tspec->affinity->node_affinity->required : NULL;
	kp_pod *copy = NULL;
	int rc = kp_pod_copy(&copy, found, err);
	if (rc != KP_OK || !treq) {
		*out = copy;
		return rc;
	}
	/* rebuild the copy with the template's required terms */
	rc = pod_with_required_affinity(copy, treq, out, err);
	kp_pod_free(copy);
	return rc;
}

/* Resource names of every pod and daemon pod are interned before the
 * resource table is frozen; the (id, value) pairs are kept in the arena. */
int kp__sched_pods_intern(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err)
{
	c->n_pods = spec->n_pods;
	c->pods = kp__arena_alloc(&c->arena, (c->n_pods + 1) * sizeof(*c->pods));
	struct pairs *pairs = kp__arena_alloc(&c->arena, (c->n_pods + 1) * sizeof(*pairs));
	if (!c->pods || !pairs)
		return KP_ENOMEM;
	kp_resource_list scratch = KP_RESOURCE_LIST_INIT;
	int rc = pods_snapshot(c, spec, pairs, &scratch, err);
	/* daemon pods: one per DaemonSet with a pod template */
	c->n_daemons = 0;
	c->daemons = kp__calloc(spec->n_daemonsets + 1, sizeof(*c->daemons));
	struct pairs *dpairs = kp__arena_alloc(&c->arena, (spec->n_daemonsets + 1) * sizeof(*dpairs));
	if (rc == KP_OK && (!c->daemons || !dpairs))
		rc = KP_ENOMEM;
	for (size_t d = 0; rc == KP_OK && d < spec->n_daemonsets; d++) {
		kp_pod *copy = NULL;
		rc = daemon_pod(c, spec, spec->daemonsets[d], &copy, err);
		if (rc != KP_OK || !copy)
			continue;
		struct pairs *dp = &dpairs[c->n_daemons];
		c->daemons[c->n_daemons++] = copy;
		rc = pod_pairs(c, copy, &scratch, &dp->res, &dp->val, &dp->n, err);
	}
	kp_resources_dispose(&scratch);
	if (rc != KP_OK)
		return rc;
	/* pods_bind and kp__sched_daemons expand them once n_res is final */
	c->tmp_dpairs = dpairs;
	c->tmp_pairs = pairs;
	return KP_OK;
}

static int64_t *expand(struct kp_cluster *c, const struct pairs *p)
{
	int64_t *v = kp__arena_alloc(&c->arena, c->n_res * sizeof(int64_t));
	if (!v)
		return NULL;
	for (size_t i = 0; i < p->n; i++)
		v[p->res[i]] = kp__sat_add(v[p->res[i]], p->val[i]);
	return v;
}

/* Compatible daemons of an existing node (upstream getCompatibleDaemonPods):
 * tolerates its taints and its labels are compatible with the daemon's
 * strict requirements. */
int kp__sched_daemon_compatible_node(const struct kp_cluster *c, size_t d, const sc_node *n)
{
	const kp_pod *p = c->daemons[d];
	const kp_pod_spec *s = p->spec;
	if (kp_taints_tolerates(n->taints, n->n_taints, s ? s->tolerations : NULL,
				s ? s->n_tolerations : 0, NULL) != KP_OK)
		return 0;
	kp_requirements *lr = NULL, *pr = NULL;
	if (kp_requirements_from_labels(&lr, &n->labels, c->wk, NULL) != KP_OK)
		return 0;
	sc_relax st;
	memset(&st, 0, sizeof(st));
	st.pod = p;
	const kp_node_selector *req = s && s->affinity && s->affinity->node_affinity
					      ? s->affinity->node_affinity->required : NULL;
	if (req && req->n_terms) {
		st.req_terms = req->terms;
		st.n_req = req->n_terms;
	}
	int ok = 0;
	if (relax_requirements(c->wk, &st, 1, &pr, NULL) == KP_OK)
		ok = kp_requirements_compatible(lr, pr, 0, c->wk, NULL) == KP_OK;
	kp_requirements_free(lr);
	kp_requirements_free(pr);
	return ok;
}

/* The strict requirements of a daemon pod for each required term, in the
 * order relaxation would try them (upstream isDaemonPodCompatible). */
int kp__sched_daemon_terms(const struct kp_cluster *c, const kp_pod *pod,
			   kp_requirements ***out, size_t *n_out)
{
	const kp_pod_spec *s = pod->spec;
	const kp_node_selector *req = s && s->affinity && s->affinity->node_affinity
					      ? s->affinity->node_affinity->required : NULL;
	size_t nt = req && req->n_terms ? req->n_terms : 1;
	kp_requirements **terms = kp__calloc(nt, sizeof(*terms));
	if (!terms)
		return KP_ENOMEM;
	sc_relax st;
	memset(&st, 0, sizeof(st));
	st.pod = pod;
	if (req && req->n_terms) {
		st.req_terms = req->terms;
		st.n_req = req->n_terms;
	}
	for (size_t t = 0; t < nt; t++) {
		int rc = relax_requirements(c->wk, &st, 1, &terms[t], NULL);
		if (rc != KP_OK) {
			/* an invalid term never matches: an empty requirement set that
			 * cannot intersect is not expressible, so skip it */
			terms[t] = NULL;
		}
		if (st.n_req > 1) {
			st.req_terms++;
			st.n_req--;
		}
	}
	/* compact */
	size_t k = 0;
	for (size_t t = 0; t < nt; t++)
		if (terms[t])
			terms[k++] = terms[t];
	*out = terms;
	*n_out = k;
	return KP_OK;
}

/* Daemon vectors and ports, and each node's daemon resources still to come. */
int kp__sched_daemons(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err)
{
	(void)spec;
	(void)err;
	struct pairs *dpairs = c->tmp_dpairs;
	c->daemon_req = kp__arena_alloc(&c->arena, (c->n_daemons + 1) * sizeof(int64_t *));
	c->daemon_ports = kp__arena_alloc(&c->arena, (c->n_daemons + 1) * sizeof(sc_port *));
	c->daemon_n_ports = kp__arena_alloc(&c->arena, (c->n_daemons + 1) * sizeof(size_t));
	if (!c->daemon_req || !c->daemon_ports || !c->daemon_n_ports)
		return KP_ENOMEM;
	for (size_t d = 0; d < c->n_daemons; d++) {
		if (!(c->daemon_req[d] = expand(c, &dpairs[d])))
			return KP_ENOMEM;
		if (pod_ports(c, c->daemons[d], &c->daemon_ports[d], &c->daemon_n_ports[d]) != KP_OK)
			return KP_ENOMEM;
	}
	for (size_t i = 0; i < c->n_nodes; i++) {
		sc_node *n = &c->nodes[i];
		for (size_t d = 0; d < c->n_daemons; d++)
			if (kp__sched_daemon_compatible_node(c, d, n))
				for (size_t r = 0; r < c->n_res; r++)
					n->ds_pending[r] = kp__sat_add(n->ds_pending[r],
								       c->daemon_req[d][r]);
	}
	return KP_OK;
}

static int pod_class(struct kp_cluster *c, const kp_cluster_spec *spec, size_t i, kp__map *classes,
		     size_t *cap_classes, sc_buf *key, kp_error *err)
{
	sc_pod *sp = &c->pods[i];
	const kp_pod *p = sp->pod;
	const char **vkeys = NULL;
	size_t n_vkeys = 0;
	int rc = kp__vol_pod(c, spec, p, &vkeys, &n_vkeys);
	if (rc != KP_OK)
		return rc;
	key->len = 0;
	class_key(key, p, vkeys, n_vkeys);
	if (key->failed)
		return KP_ENOMEM;
	uint32_t id;
	int inserted = 0;
	if ((rc = kp__map_put(classes, key->data, key->len, (uint32_t)c->n_classes, &id,
			      &inserted)) != KP_OK)
		return rc;
	sp->cls = id;
	if (!inserted)
		return KP_OK;
	if (kp__grow((void **)&c->classes, cap_classes, c->n_classes + 1, sizeof(*c->classes)) !=
	    KP_OK)
		return KP_ENOMEM;
	sc_class *cls = &c->classes[c->n_classes++];
	memset(cls, 0, sizeof(*cls));
	kp_pod *copy = NULL;
	if ((rc = kp_pod_copy(&copy, p, err)) != KP_OK)
		return rc;
	if (kp__grow((void **)&c->owned_pods, &c->cap_owned_pods, c->n_owned_pods + 1,
		     sizeof(*c->owned_pods)) != KP_OK) {
		kp_pod_free(copy);
		return KP_ENOMEM;
	}
	c->owned_pods[c->n_owned_pods++] = copy;
	cls->rep = copy;
	if (kp__strtab_intern(&c->str, sp->ns, &cls->ns) != KP_OK)
		return KP_ENOMEM;
	if ((rc = pod_ports(c, copy, &cls->ports, &cls->n_ports)) != KP_OK)
		return rc;
	if ((rc = build_variants(c, cls, err)) != KP_OK) {
		if (rc != KP_ENOMEM) {
			/* a requirement that cannot be built (bad operator, value) makes
			 * the pod unprovisionable rather than the snapshot invalid */
			cls->bad = kp__arena_strdup(&c->arena, err ? err->message : "invalid requirement");
			cls->bad_field = kp__arena_strdup(&c->arena, err ? err->field : "");
			cls->n_variants = 0;
			return KP_OK;
		}
		return rc;
	}
	validate_class(c, cls, cls->variants[0].reqs);
	if ((rc = kp__topo_inverse_groups(c, cls, &cls->inverse, &cls->n_inverse)) != KP_OK)
		return rc;
	return kp__vol_class(c, spec, cls, err);
}

/* Classify pods, build classes, bind pods to their nodes. */
int kp__sched_pods_bind(struct kp_cluster *c, const kp_cluster_spec *spec, kp_error *err)
{
	kp__map classes = { 0 };
	sc_buf key = { 0 };
	size_t cap_classes = 0;
	int rc = KP_OK;
	int64_t **ds_bound = kp__calloc(c->n_nodes + 1, sizeof(*ds_bound));
	if (!ds_bound)
		return KP_ENOMEM;
	for (size_t i = 0; i < c->n_pods && rc == KP_OK; i++) {
		sc_pod *sp = &c->pods[i];
		const kp_pod *p = sp->pod;
		struct pairs *pp = &((struct pairs *)c->tmp_pairs)[i];
		if (!(sp->req = expand(c, pp))) {
			rc = KP_ENOMEM;
			break;
		}
		/* "namespace/name" at full length (a cut key would merge pods) */
		const char *pk = kp__arena_printf(&c->arena, "%s/%s", sp->ns, sp->name);
		if (!pk) {
			rc = KP_ENOMEM;
			break;
		}
		if ((rc = kp__map_put(&c->pod_by_key, pk, strlen(pk), (uint32_t)i, NULL, NULL)) !=
		    KP_OK)
			break;
		sp->node = -1;
		int daemon = kp__pod_daemon(p);
		int mirror = kp__pod_mirror(p);
		if (daemon)
			sp->state |= SC_POD_DAEMON;
		if (kp__pod_terminal(p)) {
			sp->state |= SC_POD_IGNORED;
			sp->ignored_why = SC_IGNORED_TERMINAL;
			continue;
		}
		const char *nn = pod_node_name(p);
		if (nn) {
			uint32_t ni;
			if (!kp__map_gets(&c->node_by_node_name, nn, &ni)) {
				sp->state |= SC_POD_IGNORED;
				sp->ignored_why = SC_IGNORED_UNKNOWN_NODE;
				continue;
			}
			sp->node = (int32_t)ni;
			sp->state |= SC_POD_BOUND;
			if (!kp__pod_terminating(p))
				sp->state |= SC_POD_TOPOLOGY;
			if (kp__pod_reschedulable(p))
				sp->state |= SC_POD_RESCHEDULABLE;
		} else {
			int preempting = p->status && p->status->nominated_node_name &&
					 p->status->nominated_node_name[0];
			if (daemon || mirror || preempting) {
				sp->state |= SC_POD_IGNORED;
				sp->ignored_why = daemon ? SC_IGNORED_DAEMON
					 : mirror ? SC_IGNORED_MIRROR : SC_IGNORED_PREEMPTING;
				continue;
			}
			sp->state |= SC_POD_PENDING;
		}
		if ((rc = pod_class(c, spec, i, &classes, &cap_classes, &key, err)) != KP_OK) {
			char f[64]; /* a fixed path and a size_t index: fits by construction */
			snprintf(f, sizeof(f), "pods[%zu]", (size_t)c->pod_spec_index[i]);
			kp__error_prefix(err, f);
			break;
		}
		if (sp->node >= 0) {
			sc_node *n = &c->nodes[sp->node];
			for (size_t r = 0; r < c->n_res; r++)
				n->avail[r] = kp__sat_add(n->avail[r], -sp->req[r]);
			if (daemon) {
				if (!ds_bound[sp->node] &&
				    !(ds_bound[sp->node] = kp__calloc(c->n_res + 1, sizeof(int64_t)))) {
					rc = KP_ENOMEM;
					break;
				}
				for (size_t r = 0; r < c->n_res; r++)
					ds_bound[sp->node][r] += sp->req[r];
			}
		}
	}
	if (rc == KP_OK) {
		/* node-side pod lists, ports and volumes */
		size_t *counts = kp__calloc(c->n_nodes + 1, sizeof(size_t));
		size_t *nports = kp__calloc(c->n_nodes + 1, sizeof(size_t));
		if (!counts || !nports)
			rc = KP_ENOMEM;
		for (size_t i = 0; rc == KP_OK && i < c->n_pods; i++)
			if (c->pods[i].node >= 0) {
				counts[c->pods[i].node]++;
				nports[c->pods[i].node] += c->classes[c->pods[i].cls].n_ports;
			}
		for (size_t k = 0; rc == KP_OK && k < c->n_nodes; k++) {
			sc_node *n = &c->nodes[k];
			n->pods = kp__arena_alloc(&c->arena, (counts[k] + 1) * sizeof(uint32_t));
			n->ports = kp__arena_alloc(&c->arena, (nports[k] + 1) * sizeof(sc_port));
			if (!n->pods || !n->ports)
				rc = KP_ENOMEM;
		}
		for (size_t i = 0; rc == KP_OK && i < c->n_pods; i++) {
			if (c->pods[i].node < 0)
				continue;
			sc_node *n = &c->nodes[c->pods[i].node];
			n->pods[n->n_pods++] = (uint32_t)i;
			const sc_class *cls = &c->classes[c->pods[i].cls];
			for (size_t q = 0; q < cls->n_ports; q++) {
				sc_port pt = cls->ports[q];
				pt.owner = (uint32_t)i;
				n->ports[n->n_ports++] = pt;
			}
		}
		kp__free(counts);
		kp__free(nports);
		/* daemon resources still to come: compatible daemons minus bound
		 * DaemonSet pods, clamped at zero (upstream NewExistingNode) */
		for (size_t k = 0; rc == KP_OK && k < c->n_nodes; k++) {
			sc_node *n = &c->nodes[k];
			for (size_t r = 0; r < c->n_res; r++) {
				int64_t v = n->ds_pending[r] - (ds_bound[k] ? ds_bound[k][r] : 0);
				n->ds_pending[r] = v < 0 ? 0 : v;
			}
		}
	}
	for (size_t k = 0; k < c->n_nodes; k++)
		kp__free(ds_bound[k]);
	kp__free(ds_bound);
	kp__map_free(&classes);
	kp__buf_dispose(&key);
	return rc;
}
