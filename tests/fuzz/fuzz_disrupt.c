/*
 * libFuzzer target: a manifest stream to kp_disruption_run, as
 * `kubectl-karpenter disrupt` takes it. The input is decoded, sorted by
 * kind and admitted as by fuzz-simulate (fuzz_cluster.c); its last byte
 * (dropped from the text: seeds end in a newline) picks the options:
 *   bit 0   until convergence (KP_DISRUPTION_F_CONVERGE) rather than passes
 *   bits 4-5  passes: 1 + the value, or with bit 0 at most that many (0: no
 *           bound)
 *   bit 1   `--apply`: the text after the last "\n---\n" is decoded on its
 *           own and its objects replace (same kind, namespace and name) or
 *           join those before it
 *   bit 2   the SpotToSpotConsolidation gate
 *   bit 3   KP_DISRUPTION_F_NO_EXPLAIN
 *   bits 6-7  the clock: 2025-01-01T00:00:00Z plus 0, 1 h, 30 d or 3 years
 * Every result is read, written as its document (kp_disruption_result_write,
 * as the CLI prints it) in kubectl's JSON, compact JSON and YAML, each
 * read back with the library's readers to the same tree holding every
 * command, node and budget, and freed. Any input must give a result or an
 * error that says why: never a crash, a leak, undefined behaviour or
 * unbounded memory.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_cluster.h"
#include "fuzz_doc.h"

#include <string.h>

#include <karpenter/disruption.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_result(const kp_disruption_result *res)
{
	for (size_t i = 0; i < kp_disruption_result_command_count(res); i++) {
		const kp_disruption_command *c = kp_disruption_result_command_at(res, i);
		FUZZ_REQUIRE(c != NULL);
		fuzz_touch(c->reason);
		fuzz_touch(kp_disruption_method_name(c->method));
		fuzz_touch(kp_disruption_decision_name(c->decision));
		for (size_t j = 0; j < c->n_candidates; j++) {
			fuzz_touch(c->candidates[j]->nodeclaim);
			fuzz_touch(c->candidates[j]->node);
			fuzz_touch(c->candidates[j]->nodepool);
			fuzz_touch(c->candidates[j]->instance_type);
		}
		for (size_t j = 0; j < c->n_replacements; j++) {
			const kp_disruption_replacement *r = c->replacements[j];
			fuzz_touch(r->nodepool);
			fuzz_touch(r->instance_type);
			fuzz_touch(r->zone);
			char *text = NULL;
			if (r->nodeclaim &&
			    kp_encode(&text, NULL, KP_KIND_NODECLAIM, r->nodeclaim, KP_FORMAT_JSON, 0,
				      NULL) == KP_OK)
				fuzz_touch(text);
			kp_encoded_free(text);
		}
		for (size_t j = 0; j < c->n_moves; j++) {
			fuzz_touch(c->moves[j]->name);
			fuzz_touch(c->moves[j]->from);
		}
	}
	for (size_t i = 0; i < kp_disruption_result_node_count(res); i++) {
		const kp_disruption_node *n = kp_disruption_result_node_at(res, i);
		FUZZ_REQUIRE(n != NULL);
		fuzz_touch(n->nodeclaim);
		fuzz_touch(n->node);
		fuzz_touch(n->drift_message);
		for (size_t j = 0; j < n->n_reasons; j++) {
			fuzz_touch(n->reasons[j]->message);
			fuzz_touch(kp_disruption_block_code_name(n->reasons[j]->code));
		}
	}
	for (size_t i = 0; i < kp_disruption_result_budget_count(res); i++) {
		const kp_disruption_budget_status *b = kp_disruption_result_budget_at(res, i);
		FUZZ_REQUIRE(b != NULL);
		fuzz_touch(b->nodepool);
		fuzz_touch(b->error);
	}
	double before = 0, after = 0;
	kp_disruption_result_cost(res, &before, &after);
}

typedef struct doc_ctx {
	const kp_disruption_result *res;
	int64_t now_ms;
} doc_ctx;

static int write_doc(kp_emitter *em, const void *ctx, kp_error *err)
{
	const doc_ctx *d = ctx;
	return kp_disruption_result_write(em, d->res, d->now_ms, err);
}

/* The document reads back in every format, with every command, node and
 * budget (or is refused, naming a number that is not finite). */
static void check_document(const kp_disruption_result *res, int64_t now_ms)
{
	doc_ctx d = { res, now_ms };
	kp__node *docs = fuzz_doc_check(write_doc, &d);
	if (!docs)
		return;
	const kp__node *doc = docs->items[0];
	const kp__node *commands = kp__node_get(doc, "commands");
	const kp__node *nodes = kp__node_get(doc, "nodes");
	const kp__node *budgets = kp__node_get(doc, "budgets");
	FUZZ_REQUIRE(doc->type == KP__N_OBJECT && doc->n == 5);
	FUZZ_REQUIRE(commands && commands->n == kp_disruption_result_command_count(res));
	FUZZ_REQUIRE(nodes && nodes->n == kp_disruption_result_node_count(res));
	FUZZ_REQUIRE(budgets && budgets->n == kp_disruption_result_budget_count(res));
	kp__node_free(docs);
}

/* Where the --apply text starts: after the last "\n---\n", or size. */
static size_t apply_split(const uint8_t *data, size_t size)
{
	for (size_t i = size; i >= 5; i--)
		if (memcmp(data + i - 5, "\n---\n", 5) == 0)
			return i;
	return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t opt = data[size - 1];
	size--;
	kp_disruption_options o = KP_DISRUPTION_OPTIONS_INIT;
	uint32_t passes = (opt >> 4) & 3u;
	if (opt & 1u) {
		o.flags |= KP_DISRUPTION_F_CONVERGE;
		o.max_passes = passes;
	} else {
		o.max_passes = 1 + passes;
	}
	if (opt & 4u)
		o.feature_gates |= KP_FEATURE_GATE_SPOT_TO_SPOT_CONSOLIDATION;
	if (opt & 8u)
		o.flags |= KP_DISRUPTION_F_NO_EXPLAIN;
	static const int64_t later_ms[] = { 0, 3600000LL, 30LL * 86400000, 3LL * 365 * 86400000 };
	int64_t now_ms = 1735689600000LL + later_ms[opt >> 6];

	size_t split = opt & 2u ? apply_split(data, size) : size;
	fuzz_cluster c;
	if (fuzz_cluster_load(&c, data, split))
		return 0;
	if (split < size && fuzz_cluster_apply(&c, data + split, size - split))
		return 0;
	kp_cluster_spec spec;
	if (fuzz_cluster_spec(&c, &spec, now_ms))
		goto done;
	kp_disruption_result *res = NULL;
	kp_error err = KP_ERROR_INIT;
	if (kp_disruption_run(&res, &spec, &o, &err) == KP_OK) {
		read_result(res);
		check_document(res, now_ms);
	} else
		FUZZ_REQUIRE(err.message[0] != '\0');
	kp_disruption_result_free(res);
done:
	fuzz_cluster_free(&c);
	return 0;
}
