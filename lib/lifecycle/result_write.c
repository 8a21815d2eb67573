/*
 * The lifecycle result as a document (kp_lifecycle_result_write): the one
 * `kubectl-karpenter reconcile -o json|yaml` prints. Written through the
 * emitter as the result is walked (each action's object straight from its
 * struct): no tree of the whole output.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdio.h>

#include <karpenter/codec.h>
#include <karpenter/emitter.h>
#include <karpenter/lifecycle.h>
#include <karpenter/timestamp.h>

#include "kp_internal.h"
#include "document/members.h"
#include "grouping.h"

/* kind, namespace ("" when none) and name of the object concerned. */
static void member_ref(kp_emitter *em, uint32_t kind, const char *ns, const char *name)
{
	kp__emit_member_string(em, "kind", kp_kind_name(kind));
	kp__emit_member_string(em, "namespace", ns ? ns : "");
	kp__emit_member_string(em, "name", name);
}

static void write_metric(kp_emitter *em, const kp_lifecycle_action *a)
{
	kp_emitter_key(em, "metric");
	kp_emitter_begin_object(em);
	kp__emit_member_string(em, "name", a->metric);
	kp_emitter_key(em, "labels");
	kp_emitter_begin_object(em);
	for (size_t i = 0; i < a->metric_labels.count; i++)
		kp__emit_member_string(em, a->metric_labels.items[i].key, a->metric_labels.items[i].value);
	kp_emitter_end_object(em);
	kp_emitter_end_object(em);
}

static int write_action(kp_emitter *em, const kp_lifecycle_action *a, size_t index, kp_error *err)
{
	kp_emitter_begin_object(em);
	kp__emit_member_string(em, "controller", a->controller);
	kp__emit_member_string(em, "verb", kp_lifecycle_verb_name(a->verb));
	member_ref(em, a->kind, a->namespace_, a->name);
	kp__emit_member_string(em, "reason", a->reason);
	kp__emit_member_string(em, "message", a->message);
	if (a->has_grace_period_seconds) {
		kp__emit_member_number(em, "gracePeriodSeconds", (double)a->grace_period_seconds);
	}
	if (a->metric)
		write_metric(em, a);
	if (a->object) {
		kp_emitter_key(em, "object");
		int rc = kp_encode_emit(em, NULL, a->kind, a->object);
		if (rc != KP_OK) {
			char field[64];
			snprintf(field, sizeof(field), "actions[%zu].object", index);
			return kp__error(err, rc, field, "the %s cannot be encoded (%s)",
					 kp_kind_name(a->kind), kp_strerror(rc));
		}
	}
	kp_emitter_end_object(em);
	return KP_OK;
}

static void write_requeues(kp_emitter *em, const kp_lifecycle_requeue *const *rq, size_t n)
{
	kp_emitter_key(em, "requeue");
	kp_emitter_begin_array(em);
	for (size_t i = 0; i < n; i++) {
		char after[KP__LC_AFTER_MAX];
		kp__lc_requeue_after(rq[i]->after_ms, after);
		kp_emitter_begin_object(em);
		member_ref(em, rq[i]->kind, rq[i]->namespace_, rq[i]->name);
		kp__emit_member_string(em, "controller", rq[i]->controller);
		kp__emit_member_string(em, "after", after);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

static void write_events(kp_emitter *em, const kp_lifecycle_result *r)
{
	kp_emitter_key(em, "events");
	kp_emitter_begin_array(em);
	size_t n = kp_lifecycle_result_event_count(r);
	for (size_t i = 0; i < n; i++) {
		const kp_lifecycle_event *e = kp_lifecycle_result_event_at(r, i);
		kp_emitter_begin_object(em);
		member_ref(em, e->kind, e->namespace_, e->name);
		kp__emit_member_string(em, "type", e->type);
		kp__emit_member_string(em, "reason", e->reason);
		kp__emit_member_string(em, "message", e->message);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

KP_EXPORT int kp_lifecycle_result_write(kp_emitter *em, const kp_lifecycle_result *result,
					int64_t now_ms, kp_error *err)
{
	if (!em || !result)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	size_t n_rq = kp_lifecycle_result_requeue_count(result);
	const kp_lifecycle_requeue **rq = kp__calloc(n_rq + 1, sizeof(*rq));
	if (!rq || kp__lc_requeues_earliest(result, rq, &n_rq) != KP_OK) {
		kp__free(rq);
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	char now[KP_TIME_BUF_SIZE]; /* always large enough: no failure */
	kp_time_format_rfc3339(now_ms, now, sizeof(now));
	kp_emitter_begin_object(em);
	kp__emit_member_string(em, "now", now);
	kp_emitter_key(em, "actions");
	kp_emitter_begin_array(em);
	size_t n = kp_lifecycle_result_action_count(result);
	int rc = KP_OK;
	for (size_t i = 0; rc == KP_OK && i < n; i++)
		rc = write_action(em, kp_lifecycle_result_action_at(result, i), i, err);
	if (rc == KP_OK) {
		kp_emitter_end_array(em);
		write_requeues(em, rq, n_rq);
		write_events(em, result);
		rc = kp_emitter_end_object(em);
		if (rc != KP_OK)
			kp__error(err, rc, NULL, "cannot write the result (%s)", kp_strerror(rc));
	}
	kp__free(rq);
	return rc;
}
