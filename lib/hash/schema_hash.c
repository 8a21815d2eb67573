/*
 * Drift hashes of provider kinds (karpenter/sys/schema.h): the hashstructure
 * walk over a compiled schema, the Go-string primitive for composite hashes,
 * and a registered kind's hash.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stdint.h>

#include "hash_private.h"
#include "schema/registry.h"

KP_EXPORT int kp_schema_hash(const kp_schema *schema, const void *object,
			     const kp_hash_options *opts, uint64_t *out, kp_error *err)
{
	if (!schema || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	kp__hs_opts o;
	int rc = kp__hash_opts(opts, &o, err);
	if (rc)
		return rc;
	return kp__hs_struct(&o, kp__schema_root(schema), object, out, err);
}

KP_EXPORT uint64_t kp_hash_go_string(const char *s)
{
	return kp__hs_string(s ? s : "");
}

KP_EXPORT int kp_registry_object_hash(const kp_registry *r, uint32_t kind, const void *object,
				      const kp_hash_options *opts, uint64_t *out, kp_error *err)
{
	if (!object || !out)
		return kp__error(err, KP_EINVAL, NULL, "NULL argument");
	const kp__reg_kind *k = kp__registry_kind(r, kind);
	if (!k)
		return kp__error(err, kind < KP_KIND_FIRST_REGISTERED ? KP_ENOTSUP : KP_EINVAL, "kind",
				 kind < KP_KIND_FIRST_REGISTERED
					 ? "kind %u: core kinds have their own hash functions"
					 : "unknown kind %u", (unsigned)kind);
	if (k->ops.hash)
		return k->ops.hash(k->self, object, opts, out, err);
	if (!k->hash_field)
		return kp__error(err, KP_ENOTSUP, "kind", "%s has no drift hash", k->name);
	kp__hs_opts o;
	int rc = kp__hash_opts(opts, &o, err);
	if (rc)
		return rc;
	const kp__type *root = k->info.type;
	rc = kp__schema_enums_agree(root, object, err);
	if (rc)
		return rc;
	const void *member = NULL;
	if (kp__schema_has_field(root, object, k->hash_field))
		member = *(void *const *)(const void *)((const char *)object + k->hash_field->off);
	return kp__hs_struct(&o, k->hash_field->elem, member, out, err);
}
