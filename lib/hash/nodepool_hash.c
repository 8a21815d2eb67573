/*
 * The NodePool drift hash (upstream NodePool.Hash(), hash version v3) and
 * the annotations of the hash controller (pkg/controllers/nodepool/hash).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <karpenter/hash.h>

#include "common/sized.h"
#include "hash_private.h"

KP_EXPORT void kp_hash_options_init(kp_hash_options *opts)
{
	if (!opts)
		return;
	kp_hash_options o = KP_HASH_OPTIONS_INIT;
	*opts = o;
}

int kp__hash_opts(const kp_hash_options *opts, kp__hs_opts *o, kp_error *err)
{
	kp__hs_opts_karpenter(o);
	if (!opts)
		return KP_OK;
	int rc = KP__CHECK_SIZED(opts, kp_hash_options, err);
	if (rc)
		return rc;
	if (opts->time_location > KP_HASH_TIME_UTC)
		return kp__error(err, KP_EINVAL, "time_location", "unknown time location %u",
				 (unsigned)opts->time_location);
	o->time_utc = opts->time_location == KP_HASH_TIME_UTC;
	o->utc_offset_s = opts->utc_offset_s;
	o->offset_fn = opts->utc_offset_fn;
	o->offset_ctx = opts->ctx;
	return KP_OK;
}

/* The template of a NodePool, or NULL (the zero template). */
static int nodepool_template(const kp_nodepool *np, const kp_nodeclaim_template **out,
			     kp_error *err)
{
	*out = NULL;
	int rc = KP__CHECK_SIZED(np, kp_nodepool, err);
	if (rc)
		return rc;
	const kp_nodepool_spec *spec = np->spec;
	if (!spec)
		return KP_OK;
	rc = KP__CHECK_SIZED(spec, kp_nodepool_spec, err);
	if (rc) {
		kp__error_prefix(err, "spec");
		return rc;
	}
	*out = spec->template_;
	return KP_OK;
}

int kp__nodepool_hash(const kp_nodepool *np, const kp__hs_opts *o, uint64_t *out, kp_error *err)
{
	const kp_nodeclaim_template *tmpl;
	int rc = nodepool_template(np, &tmpl, err);
	if (rc)
		return rc;
	rc = kp__hs_struct(o, &kp__type_nodeclaim_template, tmpl, out, err);
	if (rc)
		kp__error_prefix(err, "spec.template");
	return rc;
}

KP_EXPORT int kp_nodepool_hash_ext(const kp_nodepool *nodepool, const kp_hash_options *opts,
				   uint64_t *out, kp_error *err)
{
	if (!nodepool || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp__hs_opts o;
	int rc = kp__hash_opts(opts, &o, err);
	if (rc)
		return rc;
	return kp__nodepool_hash(nodepool, &o, out, err);
}

KP_EXPORT int kp_nodepool_hash(const kp_nodepool *nodepool, uint64_t *out, kp_error *err)
{
	return kp_nodepool_hash_ext(nodepool, NULL, out, err);
}

KP_EXPORT int kp_nodepool_hash_string(const kp_nodepool *nodepool, const kp_hash_options *opts,
				      char *buf, size_t size, kp_error *err)
{
	if (!buf)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	uint64_t h;
	int rc = kp_nodepool_hash_ext(nodepool, opts, &h, err);
	if (rc)
		return rc;
	char tmp[KP_HASH_STRING_MAX];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, h);
	if (n < 0 || (size_t)n >= size)
		return kp__error(err, KP_ERANGE, NULL, "buffer of %zu bytes is too small for \"%s\"",
				 size, tmp);
	memcpy(buf, tmp, (size_t)n + 1);
	return KP_OK;
}

const char *kp__annotation(const kp_object_meta *meta, const char *key)
{
	if (!meta || !KP__HAS_MEMBER(meta, kp_object_meta, annotations))
		return NULL;
	return kp_labels_get(&meta->annotations, key);
}

int kp__nodeclaim_has_condition(const kp_nodeclaim *nc, const char *type, const char **status)
{
	const kp_nodeclaim_status *st = nc->status;
	if (status)
		*status = NULL;
	if (!st || !KP__HAS_MEMBER(st, kp_nodeclaim_status, n_conditions) || !st->conditions)
		return 0;
	const kp_condition *c = kp_condition_find(st->conditions, st->n_conditions, type);
	if (c && status)
		*status = c->status;
	return c != NULL;
}

/* Both annotations, into a new map (*out untouched on failure). */
static int set_pair(kp_labels *out, const char *hash, const char *version, kp_error *err)
{
	kp_labels m = KP_LABELS_INIT;
	int rc = KP_OK;
	if (hash)
		rc = kp_labels_set(&m, KP_ANNOTATION_NODEPOOL_HASH, hash, err);
	if (!rc && version)
		rc = kp_labels_set(&m, KP_ANNOTATION_NODEPOOL_HASH_VERSION, version, err);
	if (rc) {
		kp_labels_dispose(&m);
		return rc;
	}
	*out = m;
	return KP_OK;
}

KP_EXPORT int kp_nodepool_hash_annotations(kp_labels *out, const kp_nodepool *nodepool,
					   const kp_hash_options *opts, kp_error *err)
{
	if (!out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	char hash[KP_HASH_STRING_MAX];
	int rc = kp_nodepool_hash_string(nodepool, opts, hash, sizeof(hash), err);
	if (rc)
		return rc;
	return set_pair(out, hash, KP_NODEPOOL_HASH_VERSION, err);
}

KP_EXPORT int kp_nodeclaim_hash_annotations(kp_labels *out, const kp_nodepool *nodepool,
					    const kp_nodeclaim *nodeclaim, const kp_hash_options *opts,
					    kp_error *err)
{
	if (!out || !nodepool || !nodeclaim)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	int rc = KP__CHECK_SIZED(nodepool, kp_nodepool, err);
	if (!rc)
		rc = KP__CHECK_SIZED(nodeclaim, kp_nodeclaim, err);
	if (rc)
		return rc;
	/* Hash first, so that an unhashable NodePool fails whatever the
	 * annotations say. */
	char hash[KP_HASH_STRING_MAX];
	rc = kp_nodepool_hash_string(nodepool, opts, hash, sizeof(hash), err);
	if (rc)
		return rc;
	const char *np_version = kp__annotation(nodepool->metadata,
						KP_ANNOTATION_NODEPOOL_HASH_VERSION);
	const char *nc_version = kp__annotation(nodeclaim->metadata,
						KP_ANNOTATION_NODEPOOL_HASH_VERSION);
	if ((np_version && strcmp(np_version, KP_NODEPOOL_HASH_VERSION) == 0) ||
	    (nc_version && strcmp(nc_version, KP_NODEPOOL_HASH_VERSION) == 0)) {
		kp_labels empty = KP_LABELS_INIT;
		*out = empty;
		return KP_OK;
	}
	int drifted = kp__nodeclaim_has_condition(nodeclaim, KP_CONDITION_DRIFTED, NULL);
	return set_pair(out, drifted ? NULL : hash, KP_NODEPOOL_HASH_VERSION, err);
}
