/*
 * libFuzzer target: a manifest stream to one lifecycle round
 * (kp_lifecycle_reconcile: every NodeClaim, Node and NodePool controller),
 * as `kubectl-karpenter reconcile` takes it, then a pod event for every
 * pod. The input is decoded, sorted by kind and admitted as by
 * fuzz-simulate (fuzz_cluster.c); its last byte (dropped from the text:
 * seeds end in a newline) picks the options:
 *   bit 0   the KWOK provider (a fresh one per input, with the input's
 *           KWOKNodeClasses), else none (launch, instance termination and
 *           garbage collection are skipped)
 *   bit 1   the NodeRepair feature gate
 *   bit 2   node class readiness not modelled (nodeclasses NULL)
 *   bit 3   VolumeAttachments not modelled (NULL)
 *   bits 4-7  the clock: 2025-01-01T00:00:00Z plus one of 16 steps from 0
 *           to 10 years (the timeouts: 5 m launch, 15 m registration, ...)
 * Every action, event and requeue is read (an action's object encoded),
 * the result written as its document (kp_lifecycle_result_write, as the
 * CLI prints it) in kubectl's JSON, compact JSON and YAML, each read back
 * with the library's readers to the same tree holding every action and
 * event and at most as many requeues, and freed. Any input must give a result or an error
 * that says why: never a crash, a leak, undefined behaviour or unbounded
 * memory.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_cluster.h"
#include "fuzz_doc.h"

#include <string.h>

#include <karpenter/lifecycle.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_result(const kp_lifecycle_result *r)
{
	for (size_t i = 0; i < kp_lifecycle_result_action_count(r); i++) {
		const kp_lifecycle_action *a = kp_lifecycle_result_action_at(r, i);
		FUZZ_REQUIRE(a != NULL);
		fuzz_touch(kp_lifecycle_verb_name(a->verb));
		fuzz_touch(a->controller);
		fuzz_touch(a->namespace_);
		fuzz_touch(a->name);
		fuzz_touch(a->reason);
		fuzz_touch(a->message);
		fuzz_touch(a->event_message);
		fuzz_touch(a->metric);
		if (a->object) {
			char *text = NULL;
			kp_error err = KP_ERROR_INIT;
			int rc = kp_registry_encode(&text, NULL, fuzz_registry, a->kind, a->object,
						    KP_FORMAT_YAML, 0, &err);
			FUZZ_REQUIRE(rc == KP_OK || err.message[0] != '\0');
			kp_encoded_free(text);
		}
	}
	for (size_t i = 0; i < kp_lifecycle_result_event_count(r); i++) {
		const kp_lifecycle_event *e = kp_lifecycle_result_event_at(r, i);
		FUZZ_REQUIRE(e != NULL);
		fuzz_touch(e->name);
		fuzz_touch(e->reason);
		fuzz_touch(e->message);
	}
	for (size_t i = 0; i < kp_lifecycle_result_requeue_count(r); i++) {
		const kp_lifecycle_requeue *q = kp_lifecycle_result_requeue_at(r, i);
		FUZZ_REQUIRE(q != NULL);
		fuzz_touch(q->controller);
		fuzz_touch(q->name);
	}
}

typedef struct doc_ctx {
	const kp_lifecycle_result *r;
	int64_t now_ms;
} doc_ctx;

static int write_doc(kp_emitter *em, const void *ctx, kp_error *err)
{
	const doc_ctx *d = ctx;
	return kp_lifecycle_result_write(em, d->r, d->now_ms, err);
}

/* The document reads back in every format, with every action and event,
 * and one requeue per object and controller (no more than requeues). */
static void check_document(const kp_lifecycle_result *r, int64_t now_ms)
{
	doc_ctx d = { r, now_ms };
	kp__node *docs = fuzz_doc_check(write_doc, &d);
	if (!docs)
		return;
	const kp__node *doc = docs->items[0];
	const kp__node *actions = kp__node_get(doc, "actions");
	const kp__node *requeue = kp__node_get(doc, "requeue");
	const kp__node *events = kp__node_get(doc, "events");
	FUZZ_REQUIRE(doc->type == KP__N_OBJECT && doc->n == 4);
	FUZZ_REQUIRE(actions && actions->n == kp_lifecycle_result_action_count(r));
	FUZZ_REQUIRE(events && events->n == kp_lifecycle_result_event_count(r));
	size_t n_rq = kp_lifecycle_result_requeue_count(r);
	FUZZ_REQUIRE(requeue && requeue->n <= n_rq && (requeue->n > 0) == (n_rq > 0));
	kp__node_free(docs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t opt = data[size - 1];
	size--;
	static const int64_t min = 60000;
	static const int64_t later_ms[16] = {
		0,           10000,       4 * min,      5 * min + 1,   10 * min,     15 * min + 1,
		60 * min,    6 * 60 * min, 24 * 60 * min, 7 * 24 * 60 * min, 30 * 24 * 60 * min,
		90 * 24 * 60 * min, 365 * 24 * 60 * min, 2 * 365 * 24 * 60 * min,
		5 * 365 * 24 * 60 * min, 10 * 365 * 24 * 60 * min,
	};
	int64_t now_ms = 1735689600000LL + later_ms[opt >> 4];

	fuzz_cluster c;
	if (fuzz_cluster_load(&c, data, size))
		return 0;
	kp_cloudprovider *cp = NULL;
	kp_lifecycle_result *r = NULL;
	kp_cluster_spec spec;
	if (fuzz_cluster_spec(&c, &spec, now_ms))
		goto done;
	if (opt & 1u) {
		kp_kwok_provider_options ko = KP_KWOK_PROVIDER_OPTIONS_INIT;
		ko.instance_types = fuzz_catalogue;
		ko.nodeclasses = c.l[L_NODECLASS].n ? (const kp_kwok_nodeclass *const *)c.l[L_NODECLASS].items
						    : NULL;
		ko.n_nodeclasses = c.l[L_NODECLASS].n;
		kp_error err = KP_ERROR_INIT;
		if (kp_kwok_provider_new(&cp, &ko, &err) != KP_OK) {
			FUZZ_REQUIRE(err.message[0] != '\0');
			goto done;
		}
	}
	kp_lifecycle_options lo = KP_LIFECYCLE_OPTIONS_INIT;
	lo.feature_gates = opt & 2u ? KP_FEATURE_GATE_NODE_REPAIR : 0;
	lo.cloudprovider = cp;
	if (!(opt & 4u) && !spec.nodeclasses) {
		/* Non-NULL with 0: no node class exists. */
		static const kp_nodeclass_status *const none[1] = { NULL };
		spec.nodeclasses = none;
	}
	if (opt & 4u) {
		spec.nodeclasses = NULL; /* not modelled */
		spec.n_nodeclasses = 0;
	}
	/* VolumeAttachments modelled or not */
	spec.volume_attachments = opt & 8u ? NULL : (const kp_volume_attachment *const *)c.l[L_VA].items;
	spec.n_volume_attachments = opt & 8u ? 0 : c.l[L_VA].n;
	kp_error err = KP_ERROR_INIT;
	if (kp_lifecycle_reconcile(&r, &spec, &lo, &err) != KP_OK) {
		FUZZ_REQUIRE(err.message[0] != '\0');
		FUZZ_REQUIRE(r == NULL);
		goto done;
	}
	read_result(r);
	check_document(r, now_ms);
	for (size_t i = 0; i < spec.n_pods; i++) {
		kp_lifecycle_result *one = NULL;
		err = (kp_error)KP_ERROR_INIT;
		if (kp_lifecycle_pod_event(&one, &spec, &lo, spec.pods[i], &err) != KP_OK) {
			FUZZ_REQUIRE(err.message[0] != '\0');
			FUZZ_REQUIRE(one == NULL);
			goto done;
		}
		read_result(one);
		kp_lifecycle_result_free(one);
	}
done:
	kp_lifecycle_result_free(r);
	kp_cloudprovider_free(cp);
	fuzz_cluster_free(&c);
	return 0;
}
