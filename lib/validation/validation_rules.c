/*
 * The rule inventory: every check kp_validate implements, with a stable id.
 *
 * The CRD rows (sources OPENAPI, CEL, LIST_TYPE and DECODE) are the
 * constraints of the v1 CRDs in ../shared/data/crds (core main:
 * karpenter.sh_nodepools.yaml, karpenter.sh_nodeclaims.yaml; KWOKNodeClass's
 * rows are registered by libkarpenter-kwok), one row per keyword, in the
 * CRDs' order; their text is the CRD's (pattern, bound, enum values, CEL
 * expression and message) and the validators read it from here, so a
 * pattern is written once. tests/validation/test_validation.c checks every row
 * against the CRD files and has a failing and a passing case for each.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <string.h>

#include "common/sized.h"
#include "crd.h"
#include "validation_private.h"
#include "schema/metadata_rules.h"
#include "schema/registry.h"

#define KIND_NP KP_KIND_NODEPOOL
#define KIND_NC KP_KIND_NODECLAIM
#define NAME_NP "NodePool"
#define NAME_NC "NodeClaim"

#define R(K, SRC, FLAGS, PATH, KW, TEXT, MSG) \
	{ sizeof(kp_validation_rule), KIND_##K, KP_RULE_SOURCE_##SRC, FLAGS, \
	  NAME_##K ":" PATH ":" KW, PATH, KW, TEXT, MSG }

/* The API server's ObjectMeta validation for a cluster-scoped kind
 * (schema/metadata_rules.h). */
#define MD_NP(PATH, KW, TEXT, MSG) R(NP, METADATA, 0, PATH, KW, TEXT, MSG),
#define MD_NC(PATH, KW, TEXT, MSG) R(NC, METADATA, 0, PATH, KW, TEXT, MSG),
#define METADATA(K) KP__METADATA_RULES(MD_##K)

/* Upstream NodeClaimTemplateSpec.validateTaints for one field. */
#define RUNTIME_TAINTS(PATH) \
	R(NP, RUNTIME, 0, PATH, "runtime-empty-key", "len(key) == 0", "invalid value: %w in %s"), \
	R(NP, RUNTIME, 0, PATH, "runtime-key-qualified-name", "IsQualifiedName(key)", \
	  "invalid value: %s in %s"), \
	R(NP, RUNTIME, 0, PATH, "runtime-value-qualified-name", "IsQualifiedName(value)", \
	  "invalid value: %s in %s"), \
	R(NP, RUNTIME, 0, PATH, "runtime-effect", "NoSchedule, PreferNoSchedule, NoExecute, \"\"", \
	  "invalid value: %q in %s"), \
	R(NP, RUNTIME, 0, PATH, "runtime-duplicate", \
	  "unique key/effect across taints and startupTaints", \
	  "duplicate taint Key/Effect pair %s=%s")

static const kp_validation_rule rules[] = {
	/* NodePool */
	METADATA(NP)
	R(NP, CEL, KP_RULE_F_TRANSITION, "spec", "x-kubernetes-validations[0]",
	  "has(self.replicas) == has(oldSelf.replicas)",
	  "Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) "
	  "provisioning modes"),
	R(NP, CEL, 0, "spec", "x-kubernetes-validations[1]",
	  "!has(self.replicas) || (!has(self.limits) || size(self.limits) == 0 || "
	  "(size(self.limits) == 1 && 'nodes' in self.limits))",
	  "only 'limits.nodes' is supported on static NodePools"),
	R(NP, CEL, 0, "spec", "x-kubernetes-validations[2]",
	  "!has(self.replicas) || !has(self.weight)",
	  "'weight' is not supported on static NodePools"),
	R(NP, OPENAPI, 0, "spec.disruption.budgets", "maxItems", "50", ""),
	R(NP, CEL, 0, "spec.disruption.budgets", "x-kubernetes-validations[0]",
	  "self.all(x, has(x.schedule) == has(x.duration))",
	  "'schedule' must be set with 'duration'"),
	R(NP, OPENAPI, 0, "spec.disruption.budgets[*].duration", "pattern",
	  "^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$",
	  ""),
	/* metav1.Duration: Go's time.ParseDuration, at most 2562047h47m16.854775807s */
	R(NP, RUNTIME, 0, "spec.disruption.budgets[*].duration", "runtime-duration",
	  "time.ParseDuration(value)", "time: invalid duration %q"),
	R(NP, OPENAPI, 0, "spec.disruption.budgets[*].nodes", "pattern",
	  "^((100|[0-9]{1,2})%|[0-9]+)$",
	  ""),
	R(NP, OPENAPI, 0, "spec.disruption.budgets[*].reasons", "maxItems", "50", ""),
	R(NP, LIST_TYPE, 0, "spec.disruption.budgets[*].reasons", "x-kubernetes-list-type",
	  "set",
	  ""),
	R(NP, OPENAPI, 0, "spec.disruption.budgets[*].reasons[*]", "enum",
	  "\"Underutilized\", \"Empty\", \"Drifted\"",
	  ""),
	R(NP, OPENAPI, 0, "spec.disruption.budgets[*].schedule", "pattern",
	  "^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)"
	  "\\s(.+))$",
	  ""),
	R(NP, OPENAPI, 0, "spec.disruption.budgets[*].nodes", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.disruption.consolidateAfter", "pattern",
	  "^(([0-9]+(s|m|h))+|Never)$",
	  ""),
	R(NP, RUNTIME, 0, "spec.disruption.consolidateAfter", "runtime-duration", "time.ParseDuration(value)",
	  "time: invalid duration %q"),
	R(NP, OPENAPI, 0, "spec.disruption.consolidationPolicy", "enum",
	  "\"WhenEmpty\", \"WhenEmptyOrUnderutilized\", \"Balanced\"",
	  ""),
	R(NP, DECODE, 0, "spec.limits.*", "pattern",
	  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-"
	  "9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
	  ""),
	R(NP, DECODE, 0, "spec.replicas", "format", "int64", ""),
	R(NP, OPENAPI, 0, "spec.replicas", "minimum", "0", ""),
	R(NP, OPENAPI, 0, "spec.template.metadata.labels", "maxProperties", "100", ""),
	R(NP, CEL, 0, "spec.template.metadata.labels", "x-kubernetes-validations[0]",
	  "self.all(x, x in [\"karpenter.sh/capacity-type\", \"karpenter.sh/nodepool\"] || "
	  "!x.find(\"^([^/]+)\").endsWith(\"karpenter.sh\"))",
	  "label domain \"karpenter.sh\" is restricted"),
	R(NP, CEL, 0, "spec.template.metadata.labels", "x-kubernetes-validations[1]",
	  "self.all(x, x != \"karpenter.sh/nodepool\")",
	  "label \"karpenter.sh/nodepool\" is restricted"),
	R(NP, CEL, 0, "spec.template.metadata.labels", "x-kubernetes-validations[2]",
	  "self.all(x, x != \"kubernetes.io/hostname\")",
	  "label \"kubernetes.io/hostname\" is restricted"),
	R(NP, OPENAPI, 0, "spec.template.metadata.labels.*", "maxLength", "63", ""),
	R(NP, OPENAPI, 0, "spec.template.metadata.labels.*", "pattern",
	  "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$",
	  ""),
	R(NP, OPENAPI, 0, "spec.template.spec.expireAfter", "pattern",
	  "^(([0-9]+(s|m|h))+|Never)$",
	  ""),
	R(NP, RUNTIME, 0, "spec.template.spec.expireAfter", "runtime-duration", "time.ParseDuration(value)",
	  "time: invalid duration %q"),
	R(NP, CEL, KP_RULE_F_TRANSITION, "spec.template.spec.nodeClassRef", "x-kubernetes-validations[0]",
	  "self.group == oldSelf.group",
	  "nodeClassRef.group is immutable"),
	R(NP, CEL, KP_RULE_F_TRANSITION, "spec.template.spec.nodeClassRef", "x-kubernetes-validations[1]",
	  "self.kind == oldSelf.kind",
	  "nodeClassRef.kind is immutable"),
	R(NP, OPENAPI, 0, "spec.template.spec.nodeClassRef.group", "pattern", "^[^/]*$", ""),
	R(NP, CEL, 0, "spec.template.spec.nodeClassRef.group", "x-kubernetes-validations[0]",
	  "self != ''",
	  "group may not be empty"),
	R(NP, CEL, 0, "spec.template.spec.nodeClassRef.kind", "x-kubernetes-validations[0]",
	  "self != ''",
	  "kind may not be empty"),
	R(NP, CEL, 0, "spec.template.spec.nodeClassRef.name", "x-kubernetes-validations[0]",
	  "self != ''",
	  "name may not be empty"),
	R(NP, OPENAPI, 0, "spec.template.spec.nodeClassRef.group", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.nodeClassRef.kind", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.nodeClassRef.name", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements", "maxItems", "100", ""),
	R(NP, CEL, 0, "spec.template.spec.requirements", "x-kubernetes-validations[0]",
	  "self.all(x, x.operator == 'In' ? x.values.size() != 0 : true)",
	  "requirements with operator 'In' must have a value defined"),
	R(NP, CEL, 0, "spec.template.spec.requirements", "x-kubernetes-validations[1]",
	  "self.all(x, (x.operator == 'Gt' || x.operator == 'Lt' || x.operator == 'Gte' || "
	  "x.operator == 'Lte') ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)",
	  "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer "
	  "value"),
	R(NP, CEL, 0, "spec.template.spec.requirements", "x-kubernetes-validations[2]",
	  "self.all(x, (x.operator == 'In' && has(x.minValues)) ? x.values.size() >= x.minValues "
	  ": true)",
	  "requirements with 'minValues' must have at least that many values specified in the "
	  "'values' field"),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements[*].key", "maxLength", "316", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements[*].key", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NP, CEL, 0, "spec.template.spec.requirements[*].key", "x-kubernetes-validations[0]",
	  "self in [\"karpenter.sh/capacity-type\", \"karpenter.sh/nodepool\"] || "
	  "!self.find(\"^([^/]+)\").endsWith(\"karpenter.sh\")",
	  "label domain \"karpenter.sh\" is restricted"),
	R(NP, CEL, 0, "spec.template.spec.requirements[*].key", "x-kubernetes-validations[1]",
	  "self != \"karpenter.sh/nodepool\"",
	  "label \"karpenter.sh/nodepool\" is restricted"),
	R(NP, CEL, 0, "spec.template.spec.requirements[*].key", "x-kubernetes-validations[2]",
	  "self != \"kubernetes.io/hostname\"",
	  "label \"kubernetes.io/hostname\" is restricted"),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements[*].minValues", "minimum", "1", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements[*].minValues", "maximum", "50", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements[*].operator", "enum",
	  "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\", \"Gte\", \"Lte\"",
	  ""),
	R(NP, OPENAPI, KP_RULE_F_INERT, "spec.template.spec.requirements[*].values", "maxLength",
	  "63",
	  ""),
	R(NP, OPENAPI, KP_RULE_F_INERT, "spec.template.spec.requirements[*].values", "pattern",
	  "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$",
	  ""),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements[*].key", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements[*].operator", "required", "", ""),
	R(NP, DECODE, 0, "spec.template.spec.startupTaints[*].effect", "enum",
	  "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
	  ""),
	R(NP, OPENAPI, 0, "spec.template.spec.startupTaints[*].key", "minLength", "1", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.startupTaints[*].key", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NP, DECODE, 0, "spec.template.spec.startupTaints[*].timeAdded", "format",
	  "date-time",
	  ""),
	R(NP, OPENAPI, 0, "spec.template.spec.startupTaints[*].value", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NP, OPENAPI, 0, "spec.template.spec.startupTaints[*].effect", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.startupTaints[*].key", "required", "", ""),
	R(NP, DECODE, 0, "spec.template.spec.taints[*].effect", "enum",
	  "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
	  ""),
	R(NP, OPENAPI, 0, "spec.template.spec.taints[*].key", "minLength", "1", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.taints[*].key", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NP, DECODE, 0, "spec.template.spec.taints[*].timeAdded", "format", "date-time", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.taints[*].value", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NP, OPENAPI, 0, "spec.template.spec.taints[*].effect", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.taints[*].key", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.terminationGracePeriod", "pattern",
	  "^([0-9]+(s|m|h))+$",
	  ""),
	R(NP, RUNTIME, 0, "spec.template.spec.terminationGracePeriod", "runtime-duration", "time.ParseDuration(value)",
	  "time: invalid duration %q"),
	R(NP, OPENAPI, 0, "spec.template.spec.nodeClassRef", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec.requirements", "required", "", ""),
	R(NP, OPENAPI, 0, "spec.template.spec", "required", "", ""),
	R(NP, DECODE, 0, "spec.weight", "format", "int32", ""),
	R(NP, OPENAPI, 0, "spec.weight", "minimum", "1", ""),
	R(NP, OPENAPI, 0, "spec.weight", "maximum", "100", ""),
	R(NP, OPENAPI, 0, "spec.template", "required", "", ""),
	R(NP, LIST_TYPE, 0, "status.conditions", "x-kubernetes-list-type", "map type", ""),
	R(NP, DECODE, 0, "status.conditions[*].lastTransitionTime", "format", "date-time", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].message", "maxLength", "32768", ""),
	R(NP, DECODE, 0, "status.conditions[*].observedGeneration", "format", "int64", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].observedGeneration", "minimum", "0", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].reason", "maxLength", "1024", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].reason", "minLength", "1", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].reason", "pattern",
	  "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
	  ""),
	R(NP, OPENAPI, 0, "status.conditions[*].status", "enum",
	  "\"True\", \"False\", \"Unknown\"",
	  ""),
	R(NP, OPENAPI, 0, "status.conditions[*].type", "maxLength", "316", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].type", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-"
	  "Za-z0-9_.]*)?[A-Za-z0-9])$",
	  ""),
	R(NP, OPENAPI, 0, "status.conditions[*].lastTransitionTime", "required", "", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].message", "required", "", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].reason", "required", "", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].status", "required", "", ""),
	R(NP, OPENAPI, 0, "status.conditions[*].type", "required", "", ""),
	R(NP, DECODE, 0, "status.nodeClassObservedGeneration", "format", "int64", ""),
	R(NP, DECODE, 0, "status.nodes", "format", "int64", ""),
	R(NP, DECODE, 0, "status.resources.*", "pattern",
	  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-"
	  "9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
	  ""),
	R(NP, OPENAPI, 0, "spec", "required", "", ""),
	R(NP, SCALE, 0, "spec.replicas", "scale.specReplicasPath", ".spec.replicas",
	  "should be a non-negative integer"),
	R(NP, SCALE, 0, "status.nodes", "scale.statusReplicasPath", ".status.nodes",
	  "should be a non-negative integer"),
	R(NP, CEL, 0, "*", "x-kubernetes-validations-skipped", "blocking problem",
	  "some validation rules were not checked because the object was invalid; correct the "
	  "existing errors to complete validation"),
	/* NodePool.RuntimeValidate (upstream pkg/apis/v1/nodepool_validation.go) */
	R(NP, RUNTIME, 0, "spec.template.metadata.labels", "runtime-nodepool-label",
	  "key != karpenter.sh/nodepool", "invalid key name %q in labels, restricted"),
	R(NP, RUNTIME, 0, "spec.template.metadata.labels", "runtime-key-qualified-name",
	  "IsQualifiedName(key)", "invalid key name %q in labels, %q"),
	R(NP, RUNTIME, 0, "spec.template.metadata.labels", "runtime-value", "IsValidLabelValue(value)",
	  "invalid value: %s for label[%s], %s"),
	R(NP, RUNTIME, 0, "spec.template.metadata.labels", "runtime-restricted", "IsRestrictedLabel(key)",
	  "invalid key name %q in labels, %s"),
	RUNTIME_TAINTS("spec.template.spec.taints[*]"),
	RUNTIME_TAINTS("spec.template.spec.startupTaints[*]"),
	/* A warning (kp_validation_warning_at), not a problem: the NodeClaim label
	 * key NodeClassLabelKey(group, kind) would be invalid. */
	R(NP, RUNTIME, 0, "spec.template.spec.nodeClassRef", "runtime-label-key",
	  "IsQualifiedName(group + \"/\" + lowercase(kind))",
	  "NodeClaim label key %q is not a valid label key: %s"),
	R(NP, RUNTIME, 0, "spec.template.spec.requirements[*]", "runtime-requirement",
	  "ValidateRequirement: supported operator; IsRestrictedLabel(key); well-known values; "
	  "IsQualifiedName(key); IsValidLabelValue(values); In has values; In has minValues "
	  "values; Gt/Lt/Gte/Lte have one non-negative integer",
	  "invalid value: %w in requirements, restricted"),
	R(NP, RUNTIME, 0, "spec.template.spec.requirements[*].key", "runtime-nodepool-key",
	  "key != karpenter.sh/nodepool", "invalid key: %q in requirements, restricted"),
	R(NP, RUNTIME, 0, "spec.disruption.budgets[*].schedule", "cron",
	  "kp_cron_parse (robfig/cron ParseStandard)", ""),

	/* NodeClaim */
	METADATA(NC)
	R(NC, CEL, KP_RULE_F_TRANSITION, "spec", "x-kubernetes-validations[0]",
	  "self == oldSelf",
	  "spec is immutable"),
	R(NC, OPENAPI, 0, "spec.expireAfter", "pattern", "^(([0-9]+(s|m|h))+|Never)$", ""),
	R(NC, RUNTIME, 0, "spec.expireAfter", "runtime-duration", "time.ParseDuration(value)",
	  "time: invalid duration %q"),
	R(NC, OPENAPI, 0, "spec.nodeClassRef.group", "pattern", "^[^/]*$", ""),
	R(NC, CEL, 0, "spec.nodeClassRef.group", "x-kubernetes-validations[0]",
	  "self != ''",
	  "group may not be empty"),
	R(NC, CEL, 0, "spec.nodeClassRef.kind", "x-kubernetes-validations[0]",
	  "self != ''",
	  "kind may not be empty"),
	R(NC, CEL, 0, "spec.nodeClassRef.name", "x-kubernetes-validations[0]",
	  "self != ''",
	  "name may not be empty"),
	R(NC, OPENAPI, 0, "spec.nodeClassRef.group", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.nodeClassRef.kind", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.nodeClassRef.name", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.requirements", "maxItems", "100", ""),
	R(NC, CEL, 0, "spec.requirements", "x-kubernetes-validations[0]",
	  "self.all(x, x.operator == 'In' ? x.values.size() != 0 : true)",
	  "requirements with operator 'In' must have a value defined"),
	R(NC, CEL, 0, "spec.requirements", "x-kubernetes-validations[1]",
	  "self.all(x, (x.operator == 'Gt' || x.operator == 'Lt' || x.operator == 'Gte' || "
	  "x.operator == 'Lte') ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)",
	  "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer "
	  "value"),
	R(NC, CEL, 0, "spec.requirements", "x-kubernetes-validations[2]",
	  "self.all(x, (x.operator == 'In' && has(x.minValues)) ? x.values.size() >= x.minValues "
	  ": true)",
	  "requirements with 'minValues' must have at least that many values specified in the "
	  "'values' field"),
	R(NC, OPENAPI, 0, "spec.requirements[*].key", "maxLength", "316", ""),
	R(NC, OPENAPI, 0, "spec.requirements[*].key", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NC, CEL, 0, "spec.requirements[*].key", "x-kubernetes-validations[0]",
	  "self in [\"karpenter.sh/capacity-type\", \"karpenter.sh/nodepool\"] || "
	  "!self.find(\"^([^/]+)\").endsWith(\"karpenter.sh\")",
	  "label domain \"karpenter.sh\" is restricted"),
	R(NC, CEL, 0, "spec.requirements[*].key", "x-kubernetes-validations[1]",
	  "self != \"kubernetes.io/hostname\"",
	  "label \"kubernetes.io/hostname\" is restricted"),
	R(NC, OPENAPI, 0, "spec.requirements[*].minValues", "minimum", "1", ""),
	R(NC, OPENAPI, 0, "spec.requirements[*].minValues", "maximum", "50", ""),
	R(NC, OPENAPI, 0, "spec.requirements[*].operator", "enum",
	  "\"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\", \"Gte\", \"Lte\"",
	  ""),
	R(NC, OPENAPI, KP_RULE_F_INERT, "spec.requirements[*].values", "maxLength", "63", ""),
	R(NC, OPENAPI, KP_RULE_F_INERT, "spec.requirements[*].values", "pattern",
	  "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$",
	  ""),
	R(NC, OPENAPI, 0, "spec.requirements[*].key", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.requirements[*].operator", "required", "", ""),
	R(NC, DECODE, 0, "spec.resources.requests.*", "pattern",
	  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-"
	  "9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
	  ""),
	R(NC, DECODE, 0, "spec.startupTaints[*].effect", "enum",
	  "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
	  ""),
	R(NC, OPENAPI, 0, "spec.startupTaints[*].key", "minLength", "1", ""),
	R(NC, OPENAPI, 0, "spec.startupTaints[*].key", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NC, DECODE, 0, "spec.startupTaints[*].timeAdded", "format", "date-time", ""),
	R(NC, OPENAPI, 0, "spec.startupTaints[*].value", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NC, OPENAPI, 0, "spec.startupTaints[*].effect", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.startupTaints[*].key", "required", "", ""),
	R(NC, DECODE, 0, "spec.taints[*].effect", "enum",
	  "\"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
	  ""),
	R(NC, OPENAPI, 0, "spec.taints[*].key", "minLength", "1", ""),
	R(NC, OPENAPI, 0, "spec.taints[*].key", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NC, DECODE, 0, "spec.taints[*].timeAdded", "format", "date-time", ""),
	R(NC, OPENAPI, 0, "spec.taints[*].value", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9]["
	  "-A-Za-z0-9_.]*)?[A-Za-z0-9]$",
	  ""),
	R(NC, OPENAPI, 0, "spec.taints[*].effect", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.taints[*].key", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.terminationGracePeriod", "pattern", "^([0-9]+(s|m|h))+$", ""),
	R(NC, RUNTIME, 0, "spec.terminationGracePeriod", "runtime-duration", "time.ParseDuration(value)",
	  "time: invalid duration %q"),
	R(NC, OPENAPI, 0, "spec.nodeClassRef", "required", "", ""),
	R(NC, OPENAPI, 0, "spec.requirements", "required", "", ""),
	R(NC, DECODE, 0, "status.allocatable.*", "pattern",
	  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-"
	  "9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
	  ""),
	R(NC, DECODE, 0, "status.capacity.*", "pattern",
	  "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-"
	  "9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$",
	  ""),
	R(NC, LIST_TYPE, 0, "status.conditions", "x-kubernetes-list-type", "map type", ""),
	R(NC, DECODE, 0, "status.conditions[*].lastTransitionTime", "format", "date-time", ""),
	R(NC, OPENAPI, 0, "status.conditions[*].message", "maxLength", "32768", ""),
	R(NC, DECODE, 0, "status.conditions[*].observedGeneration", "format", "int64", ""),
	R(NC, OPENAPI, 0, "status.conditions[*].observedGeneration", "minimum", "0", ""),
	R(NC, OPENAPI, 0, "status.conditions[*].reason", "maxLength", "1024", ""),
	R(NC, OPENAPI, 0, "status.conditions[*].reason", "pattern",
	  "^([A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?|)$",
	  ""),
	R(NC, OPENAPI, 0, "status.conditions[*].status", "enum",
	  "\"True\", \"False\", \"Unknown\"",
	  ""),
	R(NC, OPENAPI, 0, "status.conditions[*].type", "maxLength", "316", ""),
	R(NC, OPENAPI, 0, "status.conditions[*].type", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-"
	  "Za-z0-9_.]*)?[A-Za-z0-9])$",
	  ""),
	R(NC, OPENAPI, 0, "status.conditions[*].lastTransitionTime", "required", "", ""),
	R(NC, OPENAPI, 0, "status.conditions[*].status", "required", "", ""),
	R(NC, OPENAPI, 0, "status.conditions[*].type", "required", "", ""),
	R(NC, DECODE, 0, "status.lastPodEventTime", "format", "date-time", ""),
	R(NC, OPENAPI, 0, "spec", "required", "", ""),
	R(NC, CEL, 0, "*", "x-kubernetes-validations-skipped", "blocking problem",
	  "some validation rules were not checked because the object was invalid; correct the "
	  "existing errors to complete validation"),
};

#define N_RULES (sizeof(rules) / sizeof(rules[0]))

const kp_validation_rule *kp__vrule_find(uint32_t kind, const char *path, const char *keyword)
{
	for (size_t i = 0; i < N_RULES; i++)
		if (rules[i].kind == kind && strcmp(rules[i].path, path) == 0 &&
		    strcmp(rules[i].keyword, keyword) == 0)
			return &rules[i];
	return NULL;
}

KP_EXPORT size_t kp_validation_rule_count(void)
{
	return N_RULES;
}

KP_EXPORT const kp_validation_rule *kp_validation_rule_at(size_t index)
{
	return index < N_RULES ? &rules[index] : NULL;
}

const kp_validation_rule *kp__vrule_find_in(const kp__kind_info *info, const char *path,
				      const char *keyword)
{
	if (!info)
		return NULL;
	if (!info->rules)
		return kp__vrule_find(info->kind, path, keyword);
	for (size_t i = 0; i < info->n_rules; i++)
		if (strcmp(info->rules[i].path, path) == 0 &&
		    strcmp(info->rules[i].keyword, keyword) == 0)
			return &info->rules[i];
	return NULL;
}

static const char *crd_rule_text(const kp__kind_info *info, const char *path, const char *keyword)
{
	const kp_validation_rule *r = kp__vrule_find_in(info, path, keyword);
	return r ? r->text : NULL;
}

const kp__crd_rules kp__crd_rules_v1 = { crd_rule_text, kp__regex_match };

/* The kind's own rows (its CRD's, or the core inventory's). */
static size_t own_rule_count(const kp__kind_info *info, uint32_t kind)
{
	if (info->rules)
		return info->n_rules;
	size_t n = 0;
	for (size_t i = 0; i < N_RULES; i++)
		n += rules[i].kind == kind;
	return n;
}

/* A kind's rules: its own, then those of its validators in order of
 * registration (kp_registry_add_validator). */
KP_EXPORT size_t kp_registry_rule_count(const kp_registry *registry, uint32_t kind)
{
	const kp__kind_info *info = kp__registry_kind_info(registry, kind);
	if (!info)
		return 0;
	size_t n = own_rule_count(info, kind);
	const kp__reg_validator *v;
	for (size_t i = 0; (v = kp__registry_validator(registry, kind, i)) != NULL; i++)
		n += v->rules.n_rules;
	return n;
}

KP_EXPORT const kp_validation_rule *kp_registry_rule_at(const kp_registry *registry, uint32_t kind,
							size_t index)
{
	const kp__kind_info *info = kp__registry_kind_info(registry, kind);
	if (!info)
		return NULL;
	size_t own = own_rule_count(info, kind);
	if (index >= own) {
		index -= own;
		const kp__reg_validator *v;
		for (size_t i = 0; (v = kp__registry_validator(registry, kind, i)) != NULL; i++) {
			if (index < v->rules.n_rules)
				return &v->rules.rules[index];
			index -= v->rules.n_rules;
		}
		return NULL;
	}
	if (info->rules)
		return &info->rules[index];
	for (size_t i = 0; i < N_RULES; i++)
		if (rules[i].kind == kind && index-- == 0)
			return &rules[i];
	return NULL;
}

/* ---- kp_registry_add_validator --------------------------------------------- */

#define FIRST_VALIDATOR_OPS KP__SIZE_THROUGH(kp_validator_ops, destroy)

/* Whether the kind (with the validators it has) already has a row for the
 * path and keyword of `row`. */
static int kind_has_rule(const kp_registry *r, uint32_t kind, const kp_validation_rule *row)
{
	const kp_validation_rule *x;
	for (size_t i = 0; (x = kp_registry_rule_at(r, kind, i)) != NULL; i++)
		if (!strcmp(x->path, row->path) && !strcmp(x->keyword, row->keyword))
			return 1;
	return 0;
}

KP_EXPORT int kp_registry_add_validator(kp_registry *r, uint32_t kind, const kp_validator_ops *ops,
					void *self, kp_error *err)
{
	if (!r || !ops)
		return kp__error(err, KP_EINVAL, NULL, "kp_registry_add_validator: NULL argument");
	kp__reg_validator v;
	memset(&v, 0, sizeof(v));
	int rc = kp__read_sized(&v.ops, sizeof(v.ops), ops, FIRST_VALIDATOR_OPS, "kp_validator_ops",
				err);
	if (rc)
		return rc;
	if (v.ops.abi_major != KP_ABI_MAJOR)
		return kp__error(err, KP_EVERSION, "abi_major",
				 "kp_validator_ops: built for ABI %u, this library is ABI %u",
				 (unsigned)v.ops.abi_major, (unsigned)KP_ABI_MAJOR);
	if (v.ops.flags)
		return kp__error(err, KP_EINVAL, "flags", "kp_validator_ops: unknown flags");
	if (!v.ops.validate)
		return kp__error(err, KP_EINVAL, "validate", "kp_validator_ops: validate is NULL");
	const kp__kind_info *info = kp__registry_kind_info(r, kind);
	if (!info || (kind < KP_KIND_FIRST_REGISTERED && kind != KP_KIND_NODEPOOL &&
		      kind != KP_KIND_NODECLAIM))
		return kp__error(err, KP_EINVAL, "kind",
				 "kp_registry_add_validator: kind %u has no validation",
				 (unsigned)kind);
	v.kind = kind;
	v.info = *info;
	rc = kp__rule_set_copy(&v.rules, info->name, v.ops.rules, v.ops.n_rules, v.ops.rule_size,
			       err);
	for (size_t i = 0; rc == KP_OK && i < v.rules.n_rules; i++) {
		kp_validation_rule *row = &v.rules.rules[i];
		row->kind = kind;
		int dup = kind_has_rule(r, kind, row);
		for (size_t j = 0; j < i && !dup; j++)
			dup = !strcmp(v.rules.rules[j].path, row->path) &&
			      !strcmp(v.rules.rules[j].keyword, row->keyword);
		if (dup)
			rc = kp__error(err, KP_EINVAL, "rules",
				       "%s: rule %zu: %s %s is already a rule of the kind",
				       info->name, i, row->path, row->keyword);
	}
	if (rc == KP_OK) {
		v.name = kp__strdup(v.ops.name ? v.ops.name : "");
		v.ops.name = v.name;
		v.ops.rules = NULL; /* the copies are in v.rules */
		v.info.rules = v.rules.rules;
		v.info.n_rules = v.rules.n_rules;
		v.self = self;
		if (!v.name || kp__registry_append_validator(r, &v) != KP_OK)
			rc = kp__error(err, KP_ENOMEM, NULL, "out of memory");
	}
	if (rc) {
		kp__rule_set_dispose(&v.rules);
		kp__free(v.name);
	}
	return rc;
}
