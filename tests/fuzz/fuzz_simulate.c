/*
 * libFuzzer target: a manifest stream all the way to the scheduler, as
 * `kubectl-karpenter simulate` takes it. The input is decoded (the decoder's
 * limits lowered so that the fuzzer explores them quickly); NodePools,
 * NodeClaims and KWOKNodeClasses get the CRD defaults and must validate, as
 * the CLI requires; then a cluster is built on the built-in KWOK catalogue
 * (every NodePool gets it; KWOKNodeClasses give the node-class readiness;
 * fuzz_cluster.c, shared with fuzz-disrupt and fuzz-lifecycle) and
 * simulated; everything is freed. Any input must give a result or an
 * error: never a crash, a leak, undefined behaviour or unbounded memory.
 *
 * Built with -Dfuzz=true and clang (see .ci/run).
 * SPDX-License-Identifier: Apache-2.0
 */
#include "fuzz_cluster.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void simulate(fuzz_cluster *c)
{
	kp_cluster_spec spec;
	if (fuzz_cluster_spec(c, &spec, 0))
		return;
	kp_cluster *cluster = NULL;
	kp_error err = KP_ERROR_INIT;
	if (kp_cluster_new(&cluster, &spec, &err) == KP_OK) {
		kp_sched_options opts = KP_SCHED_OPTIONS_INIT;
		kp_sched_result *res = NULL;
		if (kp_sched_simulate(&res, cluster, &opts, &err) == KP_OK) {
			/* Read every result, as the CLI prints them. */
			for (size_t i = 0; i < kp_sched_result_nodeclaim_count(res); i++) {
				const kp_sched_nodeclaim *s = kp_sched_result_nodeclaim_at(res, i);
				char *text = NULL;
				size_t len = 0;
				if (s && s->nodeclaim &&
				    kp_encode(&text, &len, KP_KIND_NODECLAIM, s->nodeclaim,
					      KP_FORMAT_JSON, 0, NULL) == KP_OK)
					(void)len;
				kp_encoded_free(text);
			}
			for (size_t i = 0; i < kp_sched_result_pod_count(res); i++) {
				const kp_sched_placement *p = kp_sched_result_pod_at(res, i);
				for (size_t j = 0; p && j < p->n_reasons; j++)
					(void)kp_sched_reason_code_name(p->reasons[j]->code);
			}
		} else if (err.message[0] == '\0') {
			__builtin_trap(); /* every failure must say why */
		}
		kp_sched_result_free(res);
	} else if (err.message[0] == '\0') {
		__builtin_trap();
	}
	kp_cluster_free(cluster);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_cluster c;
	if (fuzz_cluster_load(&c, data, size))
		return 0;
	simulate(&c);
	fuzz_cluster_free(&c);
	return 0;
}
