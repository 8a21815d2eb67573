/*
 * libkarpenter: kp_sched_simulate, the scheduling simulation's entry point.
 *
 * Runs the simulation loop (simulate.c) on a fresh overlay of the snapshot,
 * then turns its final state into the result and its explanations
 * (result.c). Kept apart from both so that each calls only downward:
 * result.c explains with simulate.c's feasibility checks, and this file
 * drives the two.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>
#include <string.h>

#include "common/sized.h"
#include "sched_private.h"

KP_EXPORT void kp_sched_options_init(kp_sched_options *opts)
{
	if (opts) {
		kp_sched_options init = KP_SCHED_OPTIONS_INIT;
		*opts = init;
	}
}

static int simulate(kp_sched_result **out, const kp_cluster *cluster,
		    const kp_sched_options *opts, const kp__sched_sets *sets, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "out is NULL");
	*out = NULL;
	if (!cluster)
		return kp__error(err, KP_EINVAL, NULL, "cluster is NULL");
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	if (opts) {
		int rc = KP__READ_SIZED(&o, opts, kp_sched_options, err);
		if (rc != KP_OK)
			return rc;
	}
	if (o.reserved)
		return kp__error(err, KP_EINVAL, "reserved", "kp_sched_options.reserved must be zero");
	if (o.reserved_2)
		return kp__error(err, KP_EINVAL, "reserved_2",
				 "kp_sched_options.reserved_2 must be zero");
	if (o.min_values_policy > KP_MIN_VALUES_BEST_EFFORT)
		return kp__error(err, KP_EINVAL, "min_values_policy",
				 "unknown min_values_policy %u", o.min_values_policy);
	if (o.reserved_offering_mode > KP_RESERVED_OFFERING_IGNORE)
		return kp__error(err, KP_EINVAL, "reserved_offering_mode",
				 "unknown reserved_offering_mode %u", o.reserved_offering_mode);
	if (o.n_removed_nodes && !o.removed_nodes)
		return kp__error(err, KP_EINVAL, "removed_nodes", "removed_nodes is NULL");
	if (o.n_only_pods && !o.only_pods)
		return kp__error(err, KP_EINVAL, "only_pods", "only_pods is NULL");
	if (o.n_exclude_nodes && !o.exclude_nodes)
		return kp__error(err, KP_EINVAL, "exclude_nodes", "exclude_nodes is NULL");
	if (o.n_kept_pods && !o.kept_pods)
		return kp__error(err, KP_EINVAL, "kept_pods", "kept_pods is NULL");
	sc_sim *s = kp__calloc(1, sizeof(*s));
	if (!s)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	s->c = cluster;
	s->sets = sets;
	s->min_values_best_effort = o.min_values_policy == KP_MIN_VALUES_BEST_EFFORT;
	s->max_its = o.max_instance_types ? o.max_instance_types : KP_SCHED_DEFAULT_MAX_INSTANCE_TYPES;
	int rc = kp__sched_run(s, &o, err);
	if (rc == KP_OK)
		rc = kp__sched_finalize(s);
	if (rc == KP_OK)
		rc = kp__sched_result_build(s, out, err);
	if (rc == KP_ENOMEM)
		kp__error(err, KP_ENOMEM, NULL, "out of memory");
	kp__sched_porders_free(s);
	kp__sched_sim_free(s);
	return rc;
}

KP_EXPORT int kp_sched_simulate(kp_sched_result **out, const kp_cluster *cluster,
				const kp_sched_options *opts, kp_error *err)
{
	return simulate(out, cluster, opts, NULL, err);
}

int kp__sched_simulate_sets(kp_sched_result **out, const kp_cluster *c,
			    const kp_sched_options *opts, const kp__sched_sets *sets,
			    kp_error *err)
{
	return simulate(out, c, opts, sets, err);
}

size_t kp__cluster_node_count(const kp_cluster *c)
{
	return c->n_nodes;
}

uint32_t kp__cluster_node_index(const kp_cluster *c, const char *name)
{
	uint32_t idx;
	return name && kp__map_gets(&c->node_by_name, name, &idx) ? idx : KP__SCHED_NONE;
}

uint32_t kp__cluster_pod_index(const kp_cluster *c, const char *ns, const char *name)
{
	char *key = kp__strdup_printf("%s/%s", ns && *ns ? ns : "default", name ? name : "");
	uint32_t idx;
	int found = key && kp__map_gets(&c->pod_by_key, key, &idx);
	kp__free(key);
	return found ? idx : KP__SCHED_NONE;
}

int kp__sched_simulate_verify(const kp_cluster *cluster, size_t *checked, size_t *contradicted,
			      kp_error *err)
{
	kp_sched_options o = KP_SCHED_OPTIONS_INIT;
	sc_sim *s = kp__calloc(1, sizeof(*s));
	if (!s)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	s->c = cluster;
	s->max_its = KP_SCHED_DEFAULT_MAX_INSTANCE_TYPES;
	s->verify_quick = 1;
	int rc = kp__sched_run(s, &o, err);
	*checked = s->quick_checked;
	*contradicted = s->quick_contradicted;
	kp__sched_porders_free(s);
	kp__sched_sim_free(s);
	return rc;
}
