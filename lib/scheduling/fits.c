/*
 * Scheduling simulation: feasibility checks that give a structured
 * verdict (sc_fit, sched_private.h) instead of text.
 *
 * The simulation loop (simulate.c) decides on sc_fit::code alone; the
 * reason text a result shows (kp_sched_result reasons, through result.c's
 * replay of the same checks) is written from the verdict's fields by
 * kp__fit_why, never parsed back from another message.
 *
 * The pure checks (kp__fit_taints, kp__fit_resources, kp__fit_ports) need
 * no simulation and are what consolidation calls per candidate node;
 * kp__fit_node_cheap reads a simulation's overlay of an existing node.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>
#include <string.h>

#include "sched_private.h"

/* ------------------------------------------------------------------ */
/* Pure checks                                                         */

int kp__fit_taints(const kp_taint *taints, size_t n_taints, const kp_toleration *tols,
		   size_t n_tols, sc_fit *f)
{
	for (size_t i = 0; i < n_taints; i++) {
		size_t j = 0;
		while (j < n_tols && !kp_toleration_tolerates(&tols[j], &taints[i]))
			j++;
		if (j == n_tols) {
			memset(f, 0, sizeof(*f));
			f->code = SC_FIT_TAINT;
			f->taint = (uint32_t)i;
			return 0;
		}
	}
	return 1;
}

int kp__fit_resources(const int64_t *req, const int64_t *avail, size_t n_res, sc_fit *f)
{
	size_t bad = n_res;
	/* a negative remainder (a node over-committed already) is named first */
	for (size_t r = 0; r < n_res && bad == n_res; r++)
		if (avail[r] < 0)
			bad = r;
	for (size_t r = 0; r < n_res && bad == n_res; r++)
		if (req[r] > avail[r])
			bad = r;
	if (bad == n_res)
		return 1;
	memset(f, 0, sizeof(*f));
	f->code = SC_FIT_RESOURCES;
	f->res = (uint32_t)bad;
	f->need = req[bad];
	f->have = avail[bad];
	return 0;
}

int kp__fit_ports(const sc_port *pod, size_t n_pod, const sc_port *used, size_t n_used,
		  sc_fit *f)
{
	if (!n_pod || !kp__ports_conflict(pod, n_pod, used, n_used))
		return 1;
	memset(f, 0, sizeof(*f));
	f->code = SC_FIT_HOST_PORT;
	return 0;
}

/* ------------------------------------------------------------------ */
/* An existing node in a simulation                                    */

/* The node's remaining resources in this simulation, copied from the
 * snapshot on first use; NULL when out of memory (s->oom set). */
const int64_t *kp__sched_node_rem(sc_sim *s, uint32_t i)
{
	if (s->nodes[i].rem)
		return s->nodes[i].rem;
	const struct kp_cluster *c = s->c;
	int64_t *v = kp__malloc(c->n_res * sizeof(int64_t) + 1);
	if (!v || kp__grow((void **)&s->touched, &s->cap_touched, s->n_touched + 1,
			   sizeof(uint32_t)) != KP_OK) {
		kp__free(v);
		s->oom = 1;
		return NULL;
	}
	s->touched[s->n_touched++] = i;
	memcpy(v, &c->base_rem[(size_t)i * c->n_res], c->n_res * sizeof(int64_t));
	s->nodes[i].rem = v;
	return v;
}

/* Distinct PVCs of driver @p drv over the node's bound volumes, the ones
 * placed by the simulation and the pod's. -1 when out of memory. */
static int64_t node_driver_volumes(const sc_node *n, const sc_node_sim *ns, const sc_class *cls,
				   uint32_t drv)
{
	size_t total = n->n_vols + ns->n_vols + cls->n_vols, count = 0;
	uint32_t *seen = kp__calloc(total + 1, sizeof(uint32_t));
	if (!seen)
		return -1;
	const sc_vol *lists[3] = { n->vols, ns->vols, cls->vols };
	size_t lens[3] = { n->n_vols, ns->n_vols, cls->n_vols };
	for (int k = 0; k < 3; k++)
		for (size_t j = 0; j < lens[k]; j++) {
			if (lists[k][j].driver != drv)
				continue;
			size_t q = 0;
			while (q < count && seen[q] != lists[k][j].pvc)
				q++;
			if (q == count)
				seen[count++] = lists[k][j].pvc;
		}
	kp__free(seen);
	return (int64_t)count;
}

static int fit_node_volumes(sc_sim *s, uint32_t node, const sc_class *cls, sc_fit *f)
{
	const sc_node *n = &s->c->nodes[node];
	if (n->vol_over) {
		memset(f, 0, sizeof(*f));
		f->code = SC_FIT_VOLUMES_OVER;
		return KP_EINCOMPATIBLE;
	}
	if (!cls->n_vols)
		return KP_OK;
	for (size_t l = 0; l < n->n_vol_limits; l++) {
		uint32_t drv = n->vol_limit_driver[l];
		int64_t count = node_driver_volumes(n, &s->nodes[node], cls, drv);
		if (count < 0) {
			s->oom = 1;
			return KP_ENOMEM;
		}
		if (count > n->vol_limit[l]) {
			memset(f, 0, sizeof(*f));
			f->code = SC_FIT_VOLUME_LIMIT;
			f->driver = drv;
			f->need = count;
			f->have = n->vol_limit[l];
			return KP_EINCOMPATIBLE;
		}
	}
	return KP_OK;
}

int kp__fit_node_cheap(sc_sim *s, uint32_t node, uint32_t pod, const sc_variant *v, sc_fit *f)
{
	const struct kp_cluster *c = s->c;
	const sc_node *n = &c->nodes[node];
	const sc_node_sim *ns = &s->nodes[node];
	const sc_pod *p = &c->pods[pod];
	const sc_class *cls = &c->classes[p->cls];
	if (!kp__fit_taints(n->taints, n->n_taints, v->tols, v->n_tols, f))
		return KP_EINCOMPATIBLE;
	int rc = fit_node_volumes(s, node, cls, f);
	if (rc != KP_OK)
		return rc;
	if (!kp__fit_ports(cls->ports, cls->n_ports, n->ports, n->n_ports, f) ||
	    !kp__fit_ports(cls->ports, cls->n_ports, ns->ports, ns->n_ports, f)) {
		f->where = SC_FIT_AT_NODE;
		return KP_EINCOMPATIBLE;
	}
	/* read, not copied: an overlay is made by the first placement */
	const int64_t *rem = ns->rem ? ns->rem : &c->base_rem[(size_t)node * c->n_res];
	if (!kp__fit_resources(p->req, rem, c->n_res, f))
		return KP_EINCOMPATIBLE;
	return KP_OK;
}

/* ------------------------------------------------------------------ */
/* Reasons                                                             */

/* A resource value as a quantity in the format its requests used. */
void kp__fit_fmt_value(char *buf, size_t size, const struct kp_cluster *c, size_t r, int64_t v)
{
	kp_quantity q;
	uint32_t fmt = r < c->cap_res_fmt && c->res_fmt[r] != UINT32_MAX ? c->res_fmt[r]
									  : KP_QUANTITY_DECIMAL_SI;
	if (r == SC_RES_PODS)
		fmt = KP_QUANTITY_DECIMAL_SI;
	if (kp_quantity_from_scaled(&q, v, kp__res_exponent(c->res.strs[r]), fmt) != KP_OK ||
	    kp_quantity_format(&q, buf, size) != KP_OK)
		snprintf(buf, size, "%lld%s", (long long)v,
			 kp__res_exponent(c->res.strs[r]) ? "m" : "");
}

static void taint_why(sc_why *w, const sc_fit *f, const kp_taint *taints, size_t n_taints,
		      const sc_variant *v)
{
	/* the message lists every taint not tolerated, as kp_taints_tolerates
	 * words it; the field is the first one, f->taint */
	kp_error e = KP_ERROR_INIT;
	kp_taints_tolerates(taints, n_taints, v->tols, v->n_tols, &e);
	uint32_t code = KP_REASON_TAINTS;
	char *field = NULL; /* the taint as text, at full length */
	if (f->taint < n_taints) {
		const kp_taint *t = &taints[f->taint];
		size_t size = (t->key ? strlen(t->key) : 0) + (t->value ? strlen(t->value) : 0) + 64;
		if ((field = kp__malloc(size)) && kp_taint_format(t, field, size) != KP_OK)
			field[0] = '\0';
		/* a cordoned node says so */
		if (t->key && strcmp(t->key, KP_TAINT_KEY_NODE_UNSCHEDULABLE) == 0)
			code = KP_REASON_NODE_NOT_SCHEDULABLE;
	}
	kp__why(w, code, field, "%s", e.message);
	kp__free(field);
}

void kp__fit_why(const struct kp_cluster *c, const sc_fit *f, const kp_taint *taints,
		 size_t n_taints, const sc_variant *v, sc_why *w)
{
	if (!w)
		return;
	char a[KP_QUANTITY_STRING_MAX], b[KP_QUANTITY_STRING_MAX]; /* bounded by construction */
	switch (f->code) {
	case SC_FIT_OK:
		break;
	case SC_FIT_TAINT:
		taint_why(w, f, taints, n_taints, v);
		break;
	case SC_FIT_VOLUMES_OVER:
		kp__why(w, KP_REASON_VOLUMES, NULL, "the node's volumes already exceed its attach limit");
		break;
	case SC_FIT_VOLUME_LIMIT: {
		const char *drv = c->str.strs[f->driver];
		kp__why(w, KP_REASON_VOLUMES, drv,
			"would exceed the volume limit of driver %s (%lld volumes, limit %lld)", drv,
			(long long)f->need, (long long)f->have);
		break;
	}
	case SC_FIT_HOST_PORT:
		kp__why(w, KP_REASON_HOST_PORTS, NULL,
			f->where == SC_FIT_AT_NODE
				? "a host port of the pod is already in use on the node"
				: "a host port of the pod conflicts with the NodeClaim's daemons or pods");
		break;
	case SC_FIT_RESOURCES: {
		const char *name = c->res.strs[f->res];
		kp__fit_fmt_value(a, sizeof(a), c, f->res, f->need);
		kp__fit_fmt_value(b, sizeof(b), c, f->res, f->have);
		kp__why(w, KP_REASON_RESOURCES, name, "exceeds node resources: %s requests %s, %s remains",
			name, a, b);
		break;
	}
	}
}
