/*
 * Static and requirements drift of a NodeClaim against its NodePool
 * (upstream pkg/controllers/nodeclaim/disruption/drift.go).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/hash.h>
#include <karpenter/requirements.h>

#include "common/sized.h"
#include "hash_private.h"

KP_EXPORT void kp_drift_options_init(kp_drift_options *opts)
{
	if (!opts)
		return;
	kp_drift_options o = KP_DRIFT_OPTIONS_INIT;
	*opts = o;
}

static int check_args(const kp_nodepool *np, const kp_nodeclaim *nc, const kp_drift_options *opts,
		      const kp_drift_options **resolved, kp_error *err)
{
	static const kp_drift_options defaults = KP_DRIFT_OPTIONS_INIT;
	if (!np || !nc)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = KP__CHECK_SIZED(np, kp_nodepool, err);
	if (!rc)
		rc = KP__CHECK_SIZED(nc, kp_nodeclaim, err);
	if (!rc && opts)
		rc = KP__CHECK_SIZED(opts, kp_drift_options, err);
	if (rc)
		return rc;
	if (!opts)
		opts = &defaults;
	if (opts->flags & ~(uint32_t)(KP_DRIFT_HASH_FROM_SPEC | KP_DRIFT_IGNORE_LAUNCHED))
		return kp__error(err, KP_EINVAL, "flags", "unknown flags 0x%x", (unsigned)opts->flags);
	*resolved = opts;
	return KP_OK;
}

/* ------------------------------------------------------------------------ */
/* Static drift                                                             */

/* Evaluate static drift; *why (why may be NULL) receives an explanation,
 * allocated (the caller frees it with kp__free). */
static int static_eval(const kp_nodepool *np, const kp_nodeclaim *nc, const kp_drift_options *o,
		       uint32_t *drifted, char **why, kp_error *err)
{
	char computed[KP_HASH_STRING_MAX]; /* a uint64_t in decimal: always fits */
	const char *np_hash, *np_version;
	const char *np_src = "NodePool";
	if (o->flags & KP_DRIFT_HASH_FROM_SPEC) {
		int rc = kp_nodepool_hash_string(np, o->hash, computed, sizeof(computed), err);
		if (rc)
			return rc;
		np_hash = computed;
		np_version = KP_NODEPOOL_HASH_VERSION;
	} else {
		np_hash = kp__annotation(np->metadata, KP_ANNOTATION_NODEPOOL_HASH);
		np_version = kp__annotation(np->metadata, KP_ANNOTATION_NODEPOOL_HASH_VERSION);
	}
	const char *nc_hash = kp__annotation(nc->metadata, KP_ANNOTATION_NODEPOOL_HASH);
	const char *nc_version = kp__annotation(nc->metadata, KP_ANNOTATION_NODEPOOL_HASH_VERSION);
	const char *missing_what = NULL, *missing_on = NULL;
	if (!np_hash) {
		missing_what = KP_ANNOTATION_NODEPOOL_HASH;
		missing_on = np_src;
	} else if (!np_version) {
		missing_what = KP_ANNOTATION_NODEPOOL_HASH_VERSION;
		missing_on = np_src;
	} else if (!nc_hash) {
		missing_what = KP_ANNOTATION_NODEPOOL_HASH;
		missing_on = "NodeClaim";
	} else if (!nc_version) {
		missing_what = KP_ANNOTATION_NODEPOOL_HASH_VERSION;
		missing_on = "NodeClaim";
	}
	*drifted = 0;
	char *text = NULL;
	if (missing_what) {
		if (why)
			text = kp__strdup_printf("static drift not evaluated: the %s has no %s annotation",
					      missing_on, missing_what);
	} else if (strcmp(np_version, nc_version) != 0) {
		if (why)
			text = kp__strdup_printf("static drift not evaluated: hash versions differ "
					      "(NodePool %s, NodeClaim %s)", np_version, nc_version);
	} else if (strcmp(np_hash, nc_hash) != 0) {
		*drifted = 1;
		if (why)
			text = kp__strdup_printf("NodePool hash %s differs from the NodeClaim's %s (hash "
					      "version %s): a static field of spec.template changed",
					      np_hash, nc_hash, np_version);
	} else if (why) {
		text = kp__strdup_printf("static fields match (hash %s, version %s)", np_hash,
				      np_version);
	}
	if (why) {
		if (!text)
			return kp__error(err, KP_ENOMEM, NULL, "out of memory");
		*why = text;
	}
	return KP_OK;
}

KP_EXPORT int kp_drift_static(const kp_nodepool *nodepool, const kp_nodeclaim *nodeclaim,
			      const kp_drift_options *opts, uint32_t *out_drifted, kp_error *err)
{
	const kp_drift_options *o = NULL;
	if (!out_drifted)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = check_args(nodepool, nodeclaim, opts, &o, err);
	if (rc)
		return rc;
	uint32_t d;
	rc = static_eval(nodepool, nodeclaim, o, &d, NULL, err);
	if (rc == KP_OK)
		*out_drifted = d;
	return rc;
}

/* ------------------------------------------------------------------------ */
/* Requirements drift                                                       */

/* The NodePool's template requirements as a set. */
static int nodepool_requirements(const kp_nodepool *np, kp_wellknown *wk, kp_requirements **out,
				 kp_error *err)
{
	const kp_nodeclaim_spec *spec = NULL;
	const kp_nodepool_spec *nps = np->spec;
	if (nps && KP__HAS_MEMBER(nps, kp_nodepool_spec, template_) && nps->template_)
		spec = nps->template_->spec;
	size_t n = 0;
	kp_nodeclaim_requirement *const *reqs = NULL;
	if (spec && KP__HAS_MEMBER(spec, kp_nodeclaim_spec, n_requirements)) {
		reqs = spec->requirements;
		n = spec->n_requirements;
		if (!reqs && n)
			return kp__error(err, KP_EINVAL, "spec.template.spec.requirements",
					 "NULL items with a non-zero count");
	}
	kp_node_selector_requirement *views = kp__calloc(n ? n : 1, sizeof(*views));
	const kp_node_selector_requirement **ptrs = kp__calloc(n ? n : 1, sizeof(*ptrs));
	int rc = KP_OK;
	if (!views || !ptrs) {
		rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		kp_node_selector_requirement v = KP_NODE_SELECTOR_REQUIREMENT_INIT;
		views[i] = v;
		ptrs[i] = &views[i];
		if (!reqs[i]) {
			rc = kp__error(err, KP_EINVAL, NULL, "NULL requirement");
		} else {
			rc = kp_nodeclaim_requirement_view(reqs[i], &views[i], err);
		}
		if (rc) {
			char idx[32];
			snprintf(idx, sizeof(idx), "[%zu]", i);
			kp__error_prefix(err, idx);
			break;
		}
	}
	if (!rc)
		rc = kp_requirements_from_selectors(out, ptrs, n, wk, err);
	if (rc)
		kp__error_prefix(err, "spec.template.spec.requirements");
done:
	kp__free(views);
	kp__free(ptrs);
	return rc;
}

/* Evaluate requirements drift; detail (may be NULL) receives the
 * incompatibility. */
static int requirements_eval(const kp_nodepool *np, const kp_nodeclaim *nc, kp_wellknown *wk,
			     uint32_t *drifted, kp_error *detail, kp_error *err)
{
	kp_requirements *npreq = NULL, *ncreq = NULL;
	int rc = nodepool_requirements(np, wk, &npreq, err);
	if (rc)
		return rc;
	static const kp_labels none = KP_LABELS_INIT;
	const kp_labels *labels = &none;
	const kp_object_meta *meta = nc->metadata;
	if (meta && KP__HAS_MEMBER(meta, kp_object_meta, labels))
		labels = &meta->labels;
	rc = kp_requirements_from_labels(&ncreq, labels, wk, err);
	if (rc) {
		kp__error_prefix(err, "metadata.labels");
		kp_requirements_free(npreq);
		return rc;
	}
	kp_error e;
	memset(&e, 0, sizeof(e));
	rc = kp_requirements_compatible(ncreq, npreq, 0, wk, &e);
	kp_requirements_free(npreq);
	kp_requirements_free(ncreq);
	if (rc == KP_EINCOMPATIBLE) {
		*drifted = 1;
		if (detail)
			*detail = e;
		return KP_OK;
	}
	if (rc) {
		if (err)
			*err = e;
		return rc;
	}
	*drifted = 0;
	return KP_OK;
}

KP_EXPORT int kp_drift_requirements(const kp_nodepool *nodepool, const kp_nodeclaim *nodeclaim,
				    const kp_drift_options *opts, uint32_t *out_drifted,
				    kp_error *err)
{
	const kp_drift_options *o = NULL;
	if (!out_drifted)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = check_args(nodepool, nodeclaim, opts, &o, err);
	if (rc)
		return rc;
	uint32_t d;
	rc = requirements_eval(nodepool, nodeclaim, o->wk, &d, NULL, err);
	if (rc == KP_OK)
		*out_drifted = d;
	return rc;
}

/* ------------------------------------------------------------------------ */
/* The decision                                                             */

static int make_drift(kp_drift **out, uint32_t code, const char *message, kp_error *err)
{
	size_t len = strlen(message);
	kp_drift *d = kp__malloc(sizeof(*d) + len + 1);
	if (!d)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	char *text = (char *)(d + 1);
	memcpy(text, message, len + 1);
	d->struct_size = sizeof(*d);
	d->reason_code = code;
	d->reason = code == KP_DRIFT_NODEPOOL       ? KP_DRIFT_REASON_NODEPOOL_DRIFTED
		    : code == KP_DRIFT_REQUIREMENTS ? KP_DRIFT_REASON_REQUIREMENTS_DRIFTED
						    : "";
	d->message = text;
	*out = d;
	return KP_OK;
}

KP_EXPORT int kp_drift_check(kp_drift **out, const kp_nodepool *nodepool,
			     const kp_nodeclaim *nodeclaim, const kp_drift_options *opts,
			     kp_error *err)
{
	const kp_drift_options *o = NULL;
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	*out = NULL;
	int rc = check_args(nodepool, nodeclaim, opts, &o, err);
	if (rc)
		return rc;
	if (!(o->flags & KP_DRIFT_IGNORE_LAUNCHED)) {
		const char *status = NULL;
		int has = kp__nodeclaim_has_condition(nodeclaim, KP_CONDITION_LAUNCHED, &status);
		if (!has || !status || strcmp(status, "True") != 0) {
			if (!has)
				return make_drift(out, KP_DRIFT_NONE,
						  "not evaluated: the NodeClaim is not launched (no "
						  "Launched condition)", err);
			char *msg = kp__strdup_printf("not evaluated: the NodeClaim is not launched "
						   "(condition Launched is \"%s\")",
						   status ? status : "");
			if (!msg)
				return kp__error(err, KP_ENOMEM, NULL, "out of memory");
			rc = make_drift(out, KP_DRIFT_NONE, msg, err);
			kp__free(msg);
			return rc;
		}
	}

	/* Upstream evaluates both, then reports the first in this order. */
	char *why_static = NULL, *msg = NULL;
	uint32_t st = 0, rq = 0;
	rc = static_eval(nodepool, nodeclaim, o, &st, &why_static, err);
	if (rc)
		return rc;
	kp_error detail;
	memset(&detail, 0, sizeof(detail));
	rc = requirements_eval(nodepool, nodeclaim, o->wk, &rq, &detail, err);
	if (rc) {
		kp__free(why_static);
		return rc;
	}
	uint32_t code = KP_DRIFT_NONE;
	if (st) {
		code = KP_DRIFT_NODEPOOL;
		msg = why_static;
		why_static = NULL;
	} else if (rq) {
		code = KP_DRIFT_REQUIREMENTS;
		msg = kp__strdup_printf("the NodeClaim's labels are not compatible with the NodePool's "
				     "requirements: %s", detail.message);
	} else {
		msg = kp__strdup_printf("not drifted: %s; the NodeClaim's labels are compatible with "
				     "the NodePool's requirements", why_static);
	}
	kp__free(why_static);
	if (!msg)
		return kp__error(err, KP_ENOMEM, NULL, "out of memory");
	rc = make_drift(out, code, msg, err);
	kp__free(msg);
	return rc;
}

KP_EXPORT void kp_drift_free(kp_drift *drift)
{
	kp__free(drift);
}
