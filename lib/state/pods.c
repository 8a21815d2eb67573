/*
 * The pod rules every decision shares (state.h; upstream pkg/utils/pod).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include <karpenter/duration.h>
#include <karpenter/labels.h>
#include <karpenter/wellknown.h>

#include "state.h"

int kp__pod_owned_by(const kp_pod *p, const char *api_version, const char *kind)
{
	const kp_object_meta *m = p->metadata;
	for (size_t i = 0; m && i < m->n_owner_references; i++) {
		const kp_owner_reference *o = m->owner_references[i];
		if (o && o->kind && o->api_version && strcmp(o->kind, kind) == 0 &&
		    strcmp(o->api_version, api_version) == 0)
			return 1;
	}
	return 0;
}

int kp__pod_terminal(const kp_pod *p)
{
	uint32_t ph = p->status ? p->status->phase_code : 0;
	return ph == KP_POD_PHASE_SUCCEEDED || ph == KP_POD_PHASE_FAILED;
}

int kp__pod_terminating(const kp_pod *p)
{
	return p->metadata && p->metadata->deletion_timestamp_ms != 0;
}

int kp__pod_daemon(const kp_pod *p)
{
	return kp__pod_owned_by(p, "apps/v1", "DaemonSet");
}

int kp__pod_mirror(const kp_pod *p)
{
	return kp__pod_owned_by(p, "v1", "Node");
}

int kp__pod_reschedulable(const kp_pod *p)
{
	int active = !kp__pod_terminal(p) && !kp__pod_terminating(p);
	int sts_leaving = kp__pod_owned_by(p, "apps/v1", "StatefulSet") && kp__pod_terminating(p);
	return (active || sts_leaving) && !kp__pod_daemon(p) && !kp__pod_mirror(p);
}

int kp__pod_do_not_disrupt(const kp_pod *p, int64_t now_ms)
{
	const char *v = p->metadata ? kp_labels_get(&p->metadata->annotations,
						    KP_ANNOTATION_DO_NOT_DISRUPT)
				    : NULL;
	if (!v)
		return 0;
	if (strcmp(v, "true") == 0)
		return 1;
	int64_t ns = 0;
	if (kp_duration_parse_ns(&ns, v, NULL) != KP_OK || ns <= 0)
		return 0;
	if (!p->status || !p->status->start_time_ms)
		return 1;
	/* time.Since(start) < d, in nanoseconds: a pod started exactly d ago
	 * (to the millisecond) is still protected while d has a fraction of
	 * a millisecond left. Saturated: any age past int64 ns is past d. */
	int64_t age_ms = now_ms - p->status->start_time_ms;
	if (now_ms < p->status->start_time_ms)
		return 1;
	int64_t d_ms = ns / 1000000;
	return age_ms < d_ms || (age_ms == d_ms && ns % 1000000 != 0);
}
