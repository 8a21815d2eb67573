/*
 * The disruption result as a document (kp_disruption_result_write): the
 * one `kubectl-karpenter disrupt -o json|yaml` prints, whose members the
 * README lists as a contract ("disrupt JSON output": members only ever
 * added). Written through the emitter as the result is walked, in one
 * pass after a check of the numbers: no tree of the whole output.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <math.h>
#include <stdio.h>

#include <karpenter/codec.h>
#include <karpenter/disruption.h>
#include <karpenter/emitter.h>
#include <karpenter/timestamp.h>

#include "kp_internal.h"
#include "document/members.h"

/* Before any output: the first number of the document that is not finite
 * (a custom catalogue's prices), named by its path in the document; the
 * document is then not written at all. */
static int check_numbers(const kp_disruption_result *r, kp_error *err)
{
	static const char nonfinite[] = "not a finite number";
	size_t n = kp_disruption_result_command_count(r);
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_command *c = kp_disruption_result_command_at(r, i);
		char field[96];
		for (size_t k = 0; k < c->n_candidates; k++)
			if (!isfinite(c->candidates[k]->price)) {
				snprintf(field, sizeof(field), "commands[%zu].candidates[%zu].price", i, k);
				return kp__error(err, KP_EINVAL, field, nonfinite);
			}
		for (size_t k = 0; k < c->n_replacements; k++)
			if (!isfinite(c->replacements[k]->price)) {
				snprintf(field, sizeof(field), "commands[%zu].replacements[%zu].price", i,
					 k);
				return kp__error(err, KP_EINVAL, field, nonfinite);
			}
		if (!isfinite(c->savings)) {
			snprintf(field, sizeof(field), "commands[%zu].savings", i);
			return kp__error(err, KP_EINVAL, field, nonfinite);
		}
	}
	double before, after;
	kp_disruption_result_cost(r, &before, &after);
	if (!isfinite(before))
		return kp__error(err, KP_EINVAL, "cost.before", nonfinite);
	if (!isfinite(after))
		return kp__error(err, KP_EINVAL, "cost.after", nonfinite);
	return KP_OK;
}

static void write_candidates(kp_emitter *em, const kp_disruption_command *c)
{
	kp_emitter_key(em, "candidates");
	kp_emitter_begin_array(em);
	for (size_t i = 0; i < c->n_candidates; i++) {
		const kp_disruption_candidate *k = c->candidates[i];
		kp_emitter_begin_object(em);
		kp__emit_member_string(em, "nodeClaim", k->nodeclaim);
		kp__emit_member_string(em, "node", k->node);
		kp__emit_member_string(em, "nodePool", k->nodepool);
		kp__emit_member_string(em, "instanceType", k->instance_type);
		kp__emit_member_string(em, "zone", k->zone);
		kp__emit_member_string(em, "capacityType", k->capacity_type);
		kp__emit_member_number(em, "price", k->price);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

/* Each replacement's NodeClaim straight from its struct. */
static int write_replacements(kp_emitter *em, const kp_disruption_command *c, size_t ci,
			      kp_error *err)
{
	kp_emitter_key(em, "replacements");
	kp_emitter_begin_array(em);
	for (size_t i = 0; i < c->n_replacements; i++) {
		const kp_disruption_replacement *x = c->replacements[i];
		kp_emitter_begin_object(em);
		kp_emitter_key(em, "nodeClaim");
		int rc = kp_encode_emit(em, NULL, KP_KIND_NODECLAIM, x->nodeclaim);
		if (rc != KP_OK) {
			char field[96];
			snprintf(field, sizeof(field), "commands[%zu].replacements[%zu].nodeClaim", ci, i);
			return kp__error(err, rc, field, "cannot write the replacement NodeClaim (%s)",
					 kp_strerror(rc));
		}
		kp__emit_member_number(em, "price", x->price);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
	return KP_OK;
}

static void write_moves(kp_emitter *em, const kp_disruption_command *c)
{
	kp_emitter_key(em, "pods");
	kp_emitter_begin_array(em);
	for (size_t i = 0; i < c->n_moves; i++) {
		const kp_disruption_move *m = c->moves[i];
		kp_emitter_begin_object(em);
		kp__emit_member_string(em, "namespace", m->namespace_);
		kp__emit_member_string(em, "name", m->name);
		kp__emit_member_string(em, "from", m->from);
		kp__emit_member_string(em, "nodeClaim", m->nodeclaim);
		kp__emit_member_string(em, "node", m->node);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

static int write_commands(kp_emitter *em, const kp_disruption_result *r, kp_error *err)
{
	kp_emitter_key(em, "commands");
	kp_emitter_begin_array(em);
	size_t n = kp_disruption_result_command_count(r);
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_command *c = kp_disruption_result_command_at(r, i);
		kp_emitter_begin_object(em);
		kp__emit_member_number(em, "pass", c->pass);
		kp__emit_member_string(em, "method", kp_disruption_method_name(c->method));
		kp__emit_member_string(em, "reason", c->reason);
		kp__emit_member_string(em, "decision", kp_disruption_decision_name(c->decision));
		write_candidates(em, c);
		int rc = write_replacements(em, c, i, err);
		if (rc != KP_OK)
			return rc;
		write_moves(em, c);
		kp__emit_member_number(em, "savings", c->savings);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
	return KP_OK;
}

static void write_reasons(kp_emitter *em, const kp_disruption_node *n)
{
	kp_emitter_key(em, "reasons");
	kp_emitter_begin_array(em);
	for (size_t k = 0; k < n->n_reasons; k++) {
		const kp_disruption_why *y = n->reasons[k];
		kp_emitter_begin_object(em);
		kp__emit_member_string(em, "code", kp_disruption_block_code_name(y->code));
		kp__emit_member_string(em, "method",
				       y->method ? kp_disruption_method_name(y->method) : NULL);
		kp__emit_member_string(em, "message", y->message);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

static void write_nodes(kp_emitter *em, const kp_disruption_result *r)
{
	kp_emitter_key(em, "nodes");
	kp_emitter_begin_array(em);
	size_t n = kp_disruption_result_node_count(r);
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_node *x = kp_disruption_result_node_at(r, i);
		kp_emitter_begin_object(em);
		kp__emit_member_string(em, "nodeClaim", x->nodeclaim);
		kp__emit_member_string(em, "node", x->node);
		kp__emit_member_string(em, "nodePool", x->nodepool);
		kp__emit_member_bool(em, "candidate", x->candidate);
		kp__emit_member_bool(em, "empty", x->empty);
		kp_emitter_key(em, "drifted");
		if (x->drifted) {
			kp_emitter_begin_object(em);
			kp__emit_member_string(em, "reason", x->drift_reason);
			kp__emit_member_string(em, "message", x->drift_message);
			kp_emitter_end_object(em);
		} else {
			kp_emitter_null(em);
		}
		kp__emit_member_bool(em, "consolidatable", x->consolidatable);
		write_reasons(em, x);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

static void write_budgets(kp_emitter *em, const kp_disruption_result *r)
{
	kp_emitter_key(em, "budgets");
	kp_emitter_begin_array(em);
	size_t n = kp_disruption_result_budget_count(r);
	for (size_t i = 0; i < n; i++) {
		const kp_disruption_budget_status *b = kp_disruption_result_budget_at(r, i);
		kp_emitter_begin_object(em);
		kp__emit_member_string(em, "nodePool", b->nodepool);
		kp__emit_member_string(em, "reason", b->reason);
		kp_emitter_key(em, "allowed");
		if (b->limited)
			kp_emitter_number(em, (double)b->allowed);
		else
			kp_emitter_null(em);
		kp__emit_member_number(em, "disrupting", (double)b->disrupting);
		kp__emit_member_number(em, "remaining",
				       b->limited ? (double)b->remaining : (double)KP_DISRUPTION_UNLIMITED);
		kp_emitter_end_object(em);
	}
	kp_emitter_end_array(em);
}

KP_EXPORT int kp_disruption_result_write(kp_emitter *em, const kp_disruption_result *result,
					 int64_t now_ms, kp_error *err)
{
	if (!em || !result)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	char now[KP_TIME_BUF_SIZE]; /* always large enough: no failure */
	kp_time_format_rfc3339(now_ms, now, sizeof(now));
	int rc = check_numbers(result, err);
	if (rc != KP_OK)
		return rc;
	kp_emitter_begin_object(em);
	kp__emit_member_string(em, "now", now);
	if ((rc = write_commands(em, result, err)) != KP_OK)
		return rc;
	write_nodes(em, result);
	write_budgets(em, result);
	double before, after;
	kp_disruption_result_cost(result, &before, &after);
	kp_emitter_key(em, "cost");
	kp_emitter_begin_object(em);
	kp__emit_member_number(em, "before", before);
	kp__emit_member_number(em, "after", after);
	kp_emitter_end_object(em);
	rc = kp_emitter_end_object(em);
	if (rc != KP_OK)
		kp__error(err, rc, NULL, "cannot write the result (%s)", kp_strerror(rc));
	return rc;
}
