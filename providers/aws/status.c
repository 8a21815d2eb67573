/*
 * libkarpenter-aws: an EC2NodeClass's readiness as upstream's status
 * controller derives it (aws/karpenter-provider-aws pkg/apis/v1
 * ec2nodeclass_status.go StatusConditions(), and operatorpkg's condition
 * set: dependents absent are added Unknown, the root Ready follows them).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/scheduling.h>

#include "aws_private.h"

/* StatusConditions()'s dependents, in upstream's order; the last only with
 * the capacity-reservation feature. */
static const char *const dependents[] = {
	"AMIsReady", "SubnetsReady", "SecurityGroupsReady", "InstanceProfileReady",
	"ValidationSucceeded", "CapacityReservationsReady",
};
#define N_DEPENDENTS (sizeof(dependents) / sizeof(dependents[0]))

static void condition_free(kp_condition *c)
{
	if (!c)
		return;
	kp_free((void *)(uintptr_t)c->type);
	kp_free((void *)(uintptr_t)c->status);
	kp_free((void *)(uintptr_t)c->reason);
	kp_free((void *)(uintptr_t)c->message);
	kp_free(c);
}

static kp_condition *condition_new(const char *type, const char *status, const char *reason,
				   const char *message, int64_t generation, int64_t now_ms)
{
	kp_condition *c = kp_calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	kp_condition init = KP_CONDITION_INIT;
	*c = init;
	c->type = kp__aws_object_strdup(type);
	c->status = kp__aws_object_strdup(status);
	c->reason = kp__aws_object_strdup(reason);
	c->message = kp__aws_object_strdup(message);
	c->observed_generation = generation;
	c->last_transition_time_ms = now_ms;
	if (!c->type || !c->status || !c->reason || !c->message) {
		condition_free(c);
		return NULL;
	}
	return c;
}

static size_t find(kp_condition *const *conds, size_t n, const char *type)
{
	for (size_t i = 0; i < n; i++)
		if (conds[i] && conds[i]->type && !strcmp(conds[i]->type, type))
			return i;
	return n;
}

static int is(const kp_condition *c, const char *status)
{
	return c->status && !strcmp(c->status, status);
}

static int by_type(const void *a, const void *b)
{
	const kp_condition *x = *(kp_condition *const *)a, *y = *(kp_condition *const *)b;
	return strcmp(x && x->type ? x->type : "", y && y->type ? y->type : "");
}

/* The unhealthy dependents, newest transition first (ties: in the
 * conditions' order, which upstream keeps sorted by type). */
static size_t unhealthy(const kp_condition **out, kp_condition *const *conds, size_t n,
			size_t n_deps, int64_t generation)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const kp_condition *c = conds[i];
		if (!c || !c->type ||
		    !(is(c, "False") || is(c, "Unknown") || c->observed_generation != generation))
			continue;
		int dep = 0;
		for (size_t d = 0; d < n_deps && !dep; d++)
			dep = !strcmp(c->type, dependents[d]);
		if (!dep)
			continue;
		size_t at = k++;
		while (at > 0 && out[at - 1]->last_transition_time_ms < c->last_transition_time_ms) {
			out[at] = out[at - 1];
			at--;
		}
		out[at] = c;
	}
	return k;
}

/* The root condition: True with every dependent True at this generation,
 * else False (a dependent False at this generation) or Unknown, its message
 * naming the unhealthy ones ("Type=Status, ..."); *message is allocated. */
static int root_of(const kp_condition **bad, kp_condition *const *conds, size_t m, size_t n_deps,
		   int64_t gen, const char **status, const char **reason, char **message)
{
	size_t k = unhealthy(bad, conds, m, n_deps, gen);
	size_t len = 1;
	*status = "True";
	*reason = "Ready";
	for (size_t i = 0; i < k; i++) {
		len += strlen(bad[i]->type) + 1 + strlen(bad[i]->status ? bad[i]->status : "") + 2;
		if (is(bad[i], "False") && bad[i]->observed_generation == gen)
			*status = "False";
	}
	if (k && strcmp(*status, "False"))
		*status = "Unknown";
	if (k)
		*reason = !strcmp(*status, "False") ? "UnhealthyDependents" : "ReconcilingDependents";
	char *msg = kp_malloc(len);
	if (!msg)
		return KP_ENOMEM;
	size_t w = 0;
	for (size_t i = 0; i < k; i++) {
		const char *parts[] = { i ? ", " : "", bad[i]->type, "=",
					bad[i]->status ? bad[i]->status : "" };
		for (size_t p = 0; p < 4; p++) {
			size_t l = strlen(parts[p]);
			memcpy(msg + w, parts[p], l);
			w += l;
		}
	}
	msg[w] = '\0';
	*message = msg;
	return KP_OK;
}

KP_EXPORT int kp_aws_ec2nodeclass_status_ready(kp_aws_ec2nodeclass *nc, uint32_t flags,
					       int64_t now_ms, kp_error *err)
{
	if (!nc)
		return kp_error_set(err, KP_EINVAL, NULL, "kp_aws_ec2nodeclass_status_ready: NULL "
				    "argument");
	if (flags & ~(uint32_t)KP_AWS_STATUS_CAPACITY_RESERVATIONS)
		return kp_error_set(err, KP_EINVAL, "flags", "unknown flags");
	if (nc->struct_size < sizeof(*nc) ||
	    (nc->status && nc->status->struct_size < sizeof(*nc->status)))
		return kp_error_set(err, KP_EVERSION, "struct_size",
				    "kp_aws_ec2nodeclass older than this library");
	size_t n_deps = N_DEPENDENTS - ((flags & KP_AWS_STATUS_CAPACITY_RESERVATIONS) ? 0 : 1);
	int64_t gen = nc->metadata ? nc->metadata->generation : 0;
	kp_aws_ec2nodeclass_status *st = nc->status, *made = NULL;
	if (!st) {
		if (!(made = kp_calloc(1, sizeof(*made))))
			return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
		made->struct_size = sizeof(*made);
		st = made;
	}
	size_t n = st->conditions ? st->n_conditions : 0;
	/* room for every dependent and Ready added, then the new array */
	kp_condition **conds = kp_calloc(n + N_DEPENDENTS + 1, sizeof(*conds));
	const kp_condition **bad = kp_calloc(n + N_DEPENDENTS + 1, sizeof(*bad));
	kp_condition *ready = NULL;
	int rc = conds && bad ? KP_OK : KP_ENOMEM;
	size_t m = n, added = 0;
	if (rc == KP_OK && n)
		memcpy(conds, st->conditions, n * sizeof(*conds));
	/* For(): a dependent not written yet is Unknown */
	for (size_t d = 0; rc == KP_OK && d < n_deps; d++) {
		if (find(conds, m, dependents[d]) < m)
			continue;
		conds[m] = condition_new(dependents[d], "Unknown", "AwaitingReconciliation",
					 "object is awaiting reconciliation", gen, now_ms);
		if (!conds[m])
			rc = KP_ENOMEM;
		else
			m++, added++;
	}
	/* the root */
	const char *status = "True", *reason = "Ready";
	char *message = NULL;
	if (rc == KP_OK)
		rc = root_of(bad, conds, m, n_deps, gen, &status, &reason, &message);
	size_t at = rc == KP_OK ? find(conds, m, "Ready") : m;
	int changed = added != 0;
	if (rc == KP_OK) {
		const kp_condition *old = at < m ? conds[at] : NULL;
		if (!old || !is(old, status) || strcmp(old->reason ? old->reason : "", reason) ||
		    strcmp(old->message ? old->message : "", message) ||
		    old->observed_generation != gen) {
			if (!(ready = condition_new("Ready", status, reason, message, gen, now_ms)))
				rc = KP_ENOMEM;
			changed = 1;
		}
	}
	kp_free(message);
	kp_free(bad);
	if (rc) {
		for (size_t i = n; i < m; i++)
			condition_free(conds[i]);
		kp_free(conds);
		kp_free(made);
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	}
	if (!changed) {
		kp_free(conds);
		kp_free(made);
		return KP_OK;
	}
	if (ready) {
		if (at < m) {
			condition_free(conds[at]);
			conds[at] = ready;
		} else {
			conds[m++] = ready;
		}
	}
	/* kept sorted by type, as upstream stores them */
	qsort(conds, m, sizeof(*conds), by_type);
	kp_free(st->conditions);
	st->conditions = conds;
	st->n_conditions = m;
	nc->status = st;
	return KP_OK;
}

KP_EXPORT int kp_aws_ec2nodeclass_nodeclass_status(kp_nodeclass_status *out,
						   const kp_aws_ec2nodeclass *nc, kp_error *err)
{
	if (!out || !nc)
		return kp_error_set(err, KP_EINVAL, NULL, "kp_aws_ec2nodeclass_nodeclass_status: "
				    "NULL argument");
	if (out->struct_size < sizeof(*out))
		return kp_error_set(err, KP_EVERSION, "struct_size",
				    "kp_nodeclass_status older than this library");
	const kp_aws_ec2nodeclass_status *st =
		nc->struct_size >= sizeof(*nc) ? nc->status : NULL;
	kp_nodeclass_status_from(out, nc->metadata, st ? st->conditions : NULL,
				 st ? st->n_conditions : 0);
	out->group = "karpenter.k8s.aws";
	out->kind = "EC2NodeClass";
	return KP_OK;
}
