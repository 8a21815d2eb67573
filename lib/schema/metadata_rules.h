/*
 * libkarpenter private: the API server's ObjectMeta validation of a
 * cluster-scoped kind, as rows of the rule inventory (path, keyword, text,
 * message). One list for the core's kinds (lib/validation) and for every
 * registered kind (lib/schema/registry.c adds the rows a kind's own
 * inventory does not have), so a provider kind's metadata problems carry
 * the same messages as a NodePool's.
 *
 * X(PATH, KEYWORD, TEXT, MESSAGE) is expanded once per row.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef KP_SCHEMA_METADATA_RULES_H
#define KP_SCHEMA_METADATA_RULES_H

#define KP__METADATA_RULES(X) \
	X("metadata.generateName", "dns1123-subdomain", "IsDNS1123Subdomain", "") \
	X("metadata.name", "required", "", "name or generateName is required") \
	X("metadata.name", "dns1123-subdomain", "IsDNS1123Subdomain", "") \
	X("metadata.namespace", "forbidden", "cluster-scoped", "not allowed on this type") \
	X("metadata.generation", "minimum", "0", "must be greater than or equal to 0") \
	X("metadata.labels", "label-key", "IsQualifiedName", "") \
	X("metadata.labels", "label-value", "IsValidLabelValue", "") \
	X("metadata.annotations", "key", "IsQualifiedName(lowercase)", "") \
	X("metadata.annotations", "size", "262144", "") \
	X("metadata.ownerReferences[*].apiVersion", "required", "", "must not be empty") \
	X("metadata.ownerReferences[*].apiVersion", "group-version", "", \
	  "must be <group>/<version> or <version>") \
	X("metadata.ownerReferences[*].kind", "required", "", "must not be empty") \
	X("metadata.ownerReferences[*].name", "required", "", "must not be empty") \
	X("metadata.ownerReferences[*].uid", "required", "", "must not be empty") \
	X("metadata.finalizers", "qualified-name", "IsQualifiedName", "") \
	X("metadata.finalizers", "conflict", "orphan,foregroundDeletion", \
	  "finalizer orphan and foregroundDeletion cannot be both set")

#endif /* KP_SCHEMA_METADATA_RULES_H */
