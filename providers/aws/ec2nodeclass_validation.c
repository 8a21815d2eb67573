/*
 * EC2NodeClass validation (karpenter.k8s.aws/v1): the rule inventory of
 * ../shared/data/crds/karpenter.k8s.aws_ec2nodeclasses.yaml (one row per
 * keyword, in the CRD's order) and the walk that checks the spec against
 * it as the API server does (OpenAPI through the core's inventory-driven
 * sink checks, each CEL rule evaluated here); and the AWS build's extra
 * CEL rules on karpenter.k8s.aws label keys of NodePools and NodeClaims
 * (../shared/data/crds/aws-provider/), added to the core's kinds with
 * kp_registry_add_validator for objects whose nodeClassRef.group is
 * karpenter.k8s.aws.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <string.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/nodeclaim.h>
#include <karpenter/nodepool.h>

#include "aws_private.h"

#define N_(a) (sizeof(a) / sizeof((a)[0]))
#define R(SRC, PATH, KW, TEXT, MSG) { KP_RULE_SOURCE_##SRC, 0, PATH, KW, TEXT, MSG }

/* Generated from the CRD's openAPIV3Schema: OpenAPI keywords, formats
 * (enforced by decoding), x-kubernetes-validations and required members. */
static const kp_crd_rule ec2_rules[] = {
	R(CEL, "spec", "x-kubernetes-validations[0]",
	  "(has(self.role) && !has(self.instanceProfile)) || (!has(self.role) && has(self.insta"
	  "nceProfile))",
	  "must specify exactly one of ['role', 'instanceProfile']"),
	R(CEL, "spec", "x-kubernetes-validations[1]",
	  "!has(self.amiFamily) || (self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.fin"
	  "d('^[^@]+') == 'al2') ? (self.amiFamily == 'Custom' || self.amiFamily == 'AL2') : tr"
	  "ue)",
	  "if set, amiFamily must be 'AL2' or 'Custom' when using an AL2 alias"),
	R(CEL, "spec", "x-kubernetes-validations[2]",
	  "!has(self.amiFamily) || (self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.fin"
	  "d('^[^@]+') == 'al2023') ? (self.amiFamily == 'Custom' || self.amiFamily == 'AL2023'"
	  ") : true)",
	  "if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias"),
	R(CEL, "spec", "x-kubernetes-validations[3]",
	  "!has(self.amiFamily) || (self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.fin"
	  "d('^[^@]+') == 'bottlerocket') ? (self.amiFamily == 'Custom' || self.amiFamily == 'B"
	  "ottlerocket') : true)",
	  "if set, amiFamily must be 'Bottlerocket' or 'Custom' when using a Bottlerocket alias"),
	R(CEL, "spec", "x-kubernetes-validations[4]",
	  "!has(self.amiFamily) || (self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.fin"
	  "d('^[^@]+') == 'windows2019') ? (self.amiFamily == 'Custom' || self.amiFamily == 'Wi"
	  "ndows2019') : true)",
	  "if set, amiFamily must be 'Windows2019' or 'Custom' when using a Windows2019 alias"),
	R(CEL, "spec", "x-kubernetes-validations[5]",
	  "!has(self.amiFamily) || (self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.fin"
	  "d('^[^@]+') == 'windows2022') ? (self.amiFamily == 'Custom' || self.amiFamily == 'Wi"
	  "ndows2022') : true)",
	  "if set, amiFamily must be 'Windows2022' or 'Custom' when using a Windows2022 alias"),
	R(CEL, "spec", "x-kubernetes-validations[6]",
	  "!has(self.amiFamily) || (self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.fin"
	  "d('^[^@]+') == 'windows2025') ? (self.amiFamily == 'Custom' || self.amiFamily == 'Wi"
	  "ndows2025') : true)",
	  "if set, amiFamily must be 'Windows2025' or 'Custom' when using a Windows2025 alias"),
	R(CEL, "spec", "x-kubernetes-validations[7]",
	  "self.amiSelectorTerms.exists(x, has(x.alias)) ? true : has(self.amiFamily)",
	  "must specify amiFamily if amiSelectorTerms does not contain an alias"),
	R(OPENAPI, "spec.amiFamily", "enum",
	  "\"AL2\", \"AL2023\", \"Bottlerocket\", \"Custom\", \"Windows2019\", \"Windows2022\","
	  " \"Windows2025\"",
	  ""),
	R(OPENAPI, "spec.amiSelectorTerms", "maxItems", "30", ""),
	R(OPENAPI, "spec.amiSelectorTerms", "minItems", "1", ""),
	R(CEL, "spec.amiSelectorTerms", "x-kubernetes-validations[0]",
	  "self.all(x, has(x.tags) || has(x.id) || has(x.name) || has(x.alias) || has(x.ssmPara"
	  "meter))",
	  "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']"),
	R(CEL, "spec.amiSelectorTerms", "x-kubernetes-validations[1]",
	  "!self.exists(x, has(x.id) && (has(x.alias) || has(x.tags) || has(x.name) || has(x.ow"
	  "ner)))",
	  "'id' is mutually exclusive, cannot be set with a combination of other fields in amiS"
	  "electorTerms"),
	R(CEL, "spec.amiSelectorTerms", "x-kubernetes-validations[2]",
	  "!self.exists(x, has(x.alias) && (has(x.id) || has(x.tags) || has(x.name) || has(x.ow"
	  "ner)))",
	  "'alias' is mutually exclusive, cannot be set with a combination of other fields in a"
	  "miSelectorTerms"),
	R(CEL, "spec.amiSelectorTerms", "x-kubernetes-validations[3]",
	  "!(self.exists(x, has(x.alias)) && self.size() != 1)",
	  "'alias' is mutually exclusive, cannot be set with a combination of other amiSelector"
	  "Terms"),
	R(OPENAPI, "spec.amiSelectorTerms[*].alias", "maxLength", "30", ""),
	R(CEL, "spec.amiSelectorTerms[*].alias", "x-kubernetes-validations[0]",
	  "self.matches('^[a-zA-Z0-9]+@.+$')",
	  "'alias' is improperly formatted, must match the format 'family@version'"),
	R(CEL, "spec.amiSelectorTerms[*].alias", "x-kubernetes-validations[1]",
	  "self.split('@')[0] in ['al2','al2023','bottlerocket','windows2019','windows2022','wi"
	  "ndows2025']",
	  "family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocke"
	  "t', 'windows2019', 'windows2022', 'windows2025'"),
	R(CEL, "spec.amiSelectorTerms[*].alias", "x-kubernetes-validations[2]",
	  "self.split('@')[0] in ['windows2019','windows2022','windows2025'] ? self.split('@')["
	  "1] == 'latest' : true",
	  "windows families may only specify version 'latest'"),
	R(OPENAPI, "spec.amiSelectorTerms[*].id", "pattern", "ami-[0-9a-z]+", ""),
	R(OPENAPI, "spec.amiSelectorTerms[*].tags", "maxProperties", "20", ""),
	R(CEL, "spec.amiSelectorTerms[*].tags", "x-kubernetes-validations[0]",
	  "self.all(k, k != '' && self[k] != '')",
	  "empty tag keys or values aren't supported"),
	R(OPENAPI, "spec.blockDeviceMappings", "maxItems", "50", ""),
	R(CEL, "spec.blockDeviceMappings", "x-kubernetes-validations[0]",
	  "self.filter(x, has(x.rootVolume)?x.rootVolume==true:false).size() <= 1",
	  "must have only one blockDeviceMappings with rootVolume"),
	R(CEL, "spec.blockDeviceMappings[*].ebs", "x-kubernetes-validations[0]",
	  "has(self.snapshotID) || has(self.volumeSize)",
	  "snapshotID or volumeSize must be defined"),
	R(CEL, "spec.blockDeviceMappings[*].ebs", "x-kubernetes-validations[1]",
	  "!has(self.volumeInitializationRate) || (has(self.snapshotID) && self.snapshotID != '"
	  "')",
	  "snapshotID must be set when volumeInitializationRate is set"),
	R(DECODE, "spec.blockDeviceMappings[*].ebs.iops", "format", "int64", ""),
	R(DECODE, "spec.blockDeviceMappings[*].ebs.throughput", "format", "int64", ""),
	R(DECODE, "spec.blockDeviceMappings[*].ebs.volumeInitializationRate", "format",
	  "int32",
	  ""),
	R(OPENAPI, "spec.blockDeviceMappings[*].ebs.volumeInitializationRate", "minimum",
	  "100",
	  ""),
	R(OPENAPI, "spec.blockDeviceMappings[*].ebs.volumeInitializationRate", "maximum",
	  "300",
	  ""),
	R(OPENAPI, "spec.blockDeviceMappings[*].ebs.volumeSize", "pattern",
	  "^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5"
	  "][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3"
	  "]|64)T)$",
	  ""),
	R(OPENAPI, "spec.blockDeviceMappings[*].ebs.volumeType", "enum",
	  "\"standard\", \"io1\", \"io2\", \"gp2\", \"sc1\", \"st1\", \"gp3\"",
	  ""),
	R(OPENAPI, "spec.capacityReservationSelectorTerms", "maxItems", "30", ""),
	R(CEL, "spec.capacityReservationSelectorTerms", "x-kubernetes-validations[0]",
	  "self.all(x, has(x.tags) || has(x.id) || has(x.instanceMatchCriteria))",
	  "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']"),
	R(CEL, "spec.capacityReservationSelectorTerms", "x-kubernetes-validations[1]",
	  "!self.all(x, has(x.id) && (has(x.tags) || has(x.ownerID) || has(x.instanceMatchCrite"
	  "ria)))",
	  "'id' is mutually exclusive, cannot be set along with other fields in a capacity rese"
	  "rvation selector term"),
	R(OPENAPI, "spec.capacityReservationSelectorTerms[*].id", "pattern", "^cr-[0-9a-z]+$", ""),
	R(OPENAPI, "spec.capacityReservationSelectorTerms[*].instanceMatchCriteria", "enum",
	  "\"open\", \"targeted\"",
	  ""),
	R(OPENAPI, "spec.capacityReservationSelectorTerms[*].ownerID", "pattern",
	  "^[0-9]{12}$",
	  ""),
	R(OPENAPI, "spec.capacityReservationSelectorTerms[*].tags", "maxProperties", "20", ""),
	R(CEL, "spec.capacityReservationSelectorTerms[*].tags", "x-kubernetes-validations[0]",
	  "self.all(k, k != '' && self[k] != '')",
	  "empty tag keys or values aren't supported"),
	R(CEL, "spec.connectionTracking", "x-kubernetes-validations[0]",
	  "has(self.tcpEstablishedTimeout) || has(self.udpStreamTimeout) || has(self.udpTimeout"
	  ")",
	  "at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set"),
	R(DECODE, "spec.connectionTracking.tcpEstablishedTimeout", "format", "int32", ""),
	R(OPENAPI, "spec.connectionTracking.tcpEstablishedTimeout", "minimum", "60", ""),
	R(OPENAPI, "spec.connectionTracking.tcpEstablishedTimeout", "maximum", "432000", ""),
	R(DECODE, "spec.connectionTracking.udpStreamTimeout", "format", "int32", ""),
	R(OPENAPI, "spec.connectionTracking.udpStreamTimeout", "minimum", "60", ""),
	R(OPENAPI, "spec.connectionTracking.udpStreamTimeout", "maximum", "180", ""),
	R(DECODE, "spec.connectionTracking.udpTimeout", "format", "int32", ""),
	R(OPENAPI, "spec.connectionTracking.udpTimeout", "minimum", "30", ""),
	R(OPENAPI, "spec.connectionTracking.udpTimeout", "maximum", "60", ""),
	R(OPENAPI, "spec.cpuOptions.nestedVirtualization", "enum", "\"enabled\", \"disabled\"", ""),
	R(CEL, "spec.instanceProfile", "x-kubernetes-validations[0]",
	  "self != ''",
	  "instanceProfile cannot be empty"),
	R(OPENAPI, "spec.instanceStorePolicy", "enum", "\"RAID0\"", ""),
	R(DECODE, "spec.ipPrefixCount", "format", "int32", ""),
	R(OPENAPI, "spec.ipPrefixCount", "minimum", "0", ""),
	R(OPENAPI, "spec.metadataOptions.httpEndpoint", "enum", "\"enabled\", \"disabled\"", ""),
	R(OPENAPI, "spec.metadataOptions.httpProtocolIPv6", "enum",
	  "\"enabled\", \"disabled\"",
	  ""),
	R(DECODE, "spec.metadataOptions.httpPutResponseHopLimit", "format", "int64", ""),
	R(OPENAPI, "spec.metadataOptions.httpPutResponseHopLimit", "minimum", "1", ""),
	R(OPENAPI, "spec.metadataOptions.httpPutResponseHopLimit", "maximum", "64", ""),
	R(OPENAPI, "spec.metadataOptions.httpTokens", "enum", "\"required\", \"optional\"", ""),
	R(OPENAPI, "spec.networkInterfaces", "maxItems", "150", ""),
	R(CEL, "spec.networkInterfaces", "x-kubernetes-validations[0]",
	  "self.size() == 0 || self.exists(x, x.deviceIndex == 0 && x.networkCardIndex == 0 && "
	  "x.interfaceType == 'interface')",
	  "networkInterfaces must include a primary interface with interfaceType='interface'"),
	R(CEL, "spec.networkInterfaces", "x-kubernetes-validations[1]",
	  "self.all(x, self.filter(y, x.networkCardIndex == y.networkCardIndex && x.deviceIndex"
	  " == y.deviceIndex).size() == 1 && (x.interfaceType != 'efa-only' || self.filter(y, x"
	  ".networkCardIndex == y.networkCardIndex && y.interfaceType == 'efa-only').size() == "
	  "1))",
	  "networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, an"
	  "d can have at most one efa device per network card"),
	R(DECODE, "spec.networkInterfaces[*].deviceIndex", "format", "int32", ""),
	R(OPENAPI, "spec.networkInterfaces[*].deviceIndex", "minimum", "0", ""),
	R(OPENAPI, "spec.networkInterfaces[*].interfaceType", "enum",
	  "\"interface\", \"efa-only\"",
	  ""),
	R(DECODE, "spec.networkInterfaces[*].networkCardIndex", "format", "int32", ""),
	R(OPENAPI, "spec.networkInterfaces[*].networkCardIndex", "minimum", "0", ""),
	R(OPENAPI, "spec.networkInterfaces[*].deviceIndex", "required", "", ""),
	R(OPENAPI, "spec.networkInterfaces[*].interfaceType", "required", "", ""),
	R(OPENAPI, "spec.networkInterfaces[*].networkCardIndex", "required", "", ""),
	R(CEL, "spec.placementGroupSelector", "x-kubernetes-validations[0]",
	  "has(self.name) || has(self.id)",
	  "expected at least one, got none, ['name', 'id']"),
	R(CEL, "spec.placementGroupSelector", "x-kubernetes-validations[1]",
	  "!(has(self.name) && has(self.id))",
	  "'name' and 'id' are mutually exclusive"),
	R(OPENAPI, "spec.placementGroupSelector.id", "pattern", "^pg-[0-9a-z]+$", ""),
	R(OPENAPI, "spec.placementGroupSelector.name", "minLength", "1", ""),
	R(CEL, "spec.role", "x-kubernetes-validations[0]", "self != ''", "role cannot be empty"),
	R(OPENAPI, "spec.securityGroupSelectorTerms", "maxItems", "30", ""),
	R(CEL, "spec.securityGroupSelectorTerms", "x-kubernetes-validations[0]",
	  "self.size() != 0",
	  "securityGroupSelectorTerms cannot be empty"),
	R(CEL, "spec.securityGroupSelectorTerms", "x-kubernetes-validations[1]",
	  "self.all(x, has(x.tags) || has(x.id) || has(x.name))",
	  "expected at least one, got none, ['tags', 'id', 'name']"),
	R(CEL, "spec.securityGroupSelectorTerms", "x-kubernetes-validations[2]",
	  "!self.all(x, has(x.id) && (has(x.tags) || has(x.name)))",
	  "'id' is mutually exclusive, cannot be set with a combination of other fields in a se"
	  "curity group selector term"),
	R(CEL, "spec.securityGroupSelectorTerms", "x-kubernetes-validations[3]",
	  "!self.all(x, has(x.name) && (has(x.tags) || has(x.id)))",
	  "'name' is mutually exclusive, cannot be set with a combination of other fields in a "
	  "security group selector term"),
	R(OPENAPI, "spec.securityGroupSelectorTerms[*].id", "pattern", "sg-[0-9a-z]+", ""),
	R(OPENAPI, "spec.securityGroupSelectorTerms[*].tags", "maxProperties", "20", ""),
	R(CEL, "spec.securityGroupSelectorTerms[*].tags", "x-kubernetes-validations[0]",
	  "self.all(k, k != '' && self[k] != '')",
	  "empty tag keys or values aren't supported"),
	R(OPENAPI, "spec.subnetSelectorTerms", "maxItems", "30", ""),
	R(CEL, "spec.subnetSelectorTerms", "x-kubernetes-validations[0]",
	  "self.size() != 0",
	  "subnetSelectorTerms cannot be empty"),
	R(CEL, "spec.subnetSelectorTerms", "x-kubernetes-validations[1]",
	  "self.all(x, has(x.tags) || has(x.id))",
	  "expected at least one, got none, ['tags', 'id']"),
	R(CEL, "spec.subnetSelectorTerms", "x-kubernetes-validations[2]",
	  "!self.all(x, has(x.id) && has(x.tags))",
	  "'id' is mutually exclusive, cannot be set with a combination of other fields in a su"
	  "bnet selector term"),
	R(OPENAPI, "spec.subnetSelectorTerms[*].id", "pattern", "subnet-[0-9a-z]+", ""),
	R(OPENAPI, "spec.subnetSelectorTerms[*].tags", "maxProperties", "20", ""),
	R(CEL, "spec.subnetSelectorTerms[*].tags", "x-kubernetes-validations[0]",
	  "self.all(k, k != '' && self[k] != '')",
	  "empty tag keys or values aren't supported"),
	R(CEL, "spec.tags", "x-kubernetes-validations[0]",
	  "self.all(k, k != '')",
	  "empty tag keys aren't supported"),
	R(CEL, "spec.tags", "x-kubernetes-validations[1]",
	  "self.all(k, k !='eks:eks-cluster-name')",
	  "tag contains a restricted tag matching eks:eks-cluster-name"),
	R(CEL, "spec.tags", "x-kubernetes-validations[2]",
	  "self.all(k, !k.startsWith('kubernetes.io/cluster') )",
	  "tag contains a restricted tag matching kubernetes.io/cluster/"),
	R(CEL, "spec.tags", "x-kubernetes-validations[3]",
	  "self.all(k, k != 'karpenter.sh/nodepool')",
	  "tag contains a restricted tag matching karpenter.sh/nodepool"),
	R(CEL, "spec.tags", "x-kubernetes-validations[4]",
	  "self.all(k, k !='karpenter.sh/nodeclaim')",
	  "tag contains a restricted tag matching karpenter.sh/nodeclaim"),
	R(CEL, "spec.tags", "x-kubernetes-validations[5]",
	  "self.all(k, k !='karpenter.k8s.aws/ec2nodeclass')",
	  "tag contains a restricted tag matching karpenter.k8s.aws/ec2nodeclass"),
	R(OPENAPI, "spec.amiSelectorTerms", "required", "", ""),
	R(OPENAPI, "spec.securityGroupSelectorTerms", "required", "", ""),
	R(OPENAPI, "spec.subnetSelectorTerms", "required", "", ""),
	R(OPENAPI, "status.amis[*].requirements[*].key", "required", "", ""),
	R(OPENAPI, "status.amis[*].requirements[*].operator", "required", "", ""),
	R(OPENAPI, "status.amis[*].id", "required", "", ""),
	R(OPENAPI, "status.amis[*].requirements", "required", "", ""),
	R(DECODE, "status.capacityReservations[*].endTime", "format", "date-time", ""),
	R(OPENAPI, "status.capacityReservations[*].id", "pattern", "^cr-[0-9a-z]+$", ""),
	R(OPENAPI, "status.capacityReservations[*].instanceMatchCriteria", "enum",
	  "\"open\", \"targeted\"",
	  ""),
	R(OPENAPI, "status.capacityReservations[*].ownerID", "pattern", "^[0-9]{12}$", ""),
	R(OPENAPI, "status.capacityReservations[*].reservationType", "enum",
	  "\"default\", \"capacity-block\"",
	  ""),
	R(OPENAPI, "status.capacityReservations[*].state", "enum", "\"active\", \"expiring\"", ""),
	R(OPENAPI, "status.capacityReservations[*].availabilityZone", "required", "", ""),
	R(OPENAPI, "status.capacityReservations[*].id", "required", "", ""),
	R(OPENAPI, "status.capacityReservations[*].instanceMatchCriteria", "required", "", ""),
	R(OPENAPI, "status.capacityReservations[*].instanceType", "required", "", ""),
	R(OPENAPI, "status.capacityReservations[*].ownerID", "required", "", ""),
	R(DECODE, "status.conditions[*].lastTransitionTime", "format", "date-time", ""),
	R(OPENAPI, "status.conditions[*].message", "maxLength", "32768", ""),
	R(DECODE, "status.conditions[*].observedGeneration", "format", "int64", ""),
	R(OPENAPI, "status.conditions[*].observedGeneration", "minimum", "0", ""),
	R(OPENAPI, "status.conditions[*].reason", "maxLength", "1024", ""),
	R(OPENAPI, "status.conditions[*].reason", "minLength", "1", ""),
	R(OPENAPI, "status.conditions[*].reason", "pattern",
	  "^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$",
	  ""),
	R(OPENAPI, "status.conditions[*].status", "enum", "\"True\", \"False\", \"Unknown\"", ""),
	R(OPENAPI, "status.conditions[*].type", "maxLength", "316", ""),
	R(OPENAPI, "status.conditions[*].type", "pattern",
	  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-"
	  "A-Za-z0-9_.]*)?[A-Za-z0-9])$",
	  ""),
	R(OPENAPI, "status.conditions[*].lastTransitionTime", "required", "", ""),
	R(OPENAPI, "status.conditions[*].message", "required", "", ""),
	R(OPENAPI, "status.conditions[*].reason", "required", "", ""),
	R(OPENAPI, "status.conditions[*].status", "required", "", ""),
	R(OPENAPI, "status.conditions[*].type", "required", "", ""),
	R(OPENAPI, "status.securityGroups[*].id", "required", "", ""),
	R(OPENAPI, "status.subnets[*].id", "required", "", ""),
	R(OPENAPI, "status.subnets[*].zone", "required", "", ""),
	/* The API server's notice when a blocking problem stops CEL evaluation. */
	R(CEL, "*", "x-kubernetes-validations-skipped", "blocking problem", ""),
};

const kp_crd_rule *kp__aws_ec2nodeclass_rules(size_t *n)
{
	*n = N_(ec2_rules);
	return ec2_rules;
}

/* ---- the walk --------------------------------------------------------------- */

/* The sink and the first failure of its calls (later calls are skipped). */
typedef struct walk {
	kp_validation_sink *sink;
	int rc;
} walk;

static void keep(walk *w, int rc)
{
	if (rc && !w->rc)
		w->rc = rc;
}

static int push(walk *w, const char *name)
{
	if (w->rc)
		return 0;
	keep(w, kp_validation_sink_push(w->sink, name));
	return w->rc == KP_OK;
}

static int push_index(walk *w, size_t i)
{
	if (w->rc)
		return 0;
	keep(w, kp_validation_sink_push_index(w->sink, i));
	return w->rc == KP_OK;
}

static void pop(walk *w)
{
	kp_validation_sink_pop(w->sink);
}

/* The OpenAPI string checks of member `name` (when present). */
static void str(walk *w, const char *name, const char *value)
{
	if (value && push(w, name)) {
		keep(w, kp_validation_sink_string(w->sink, value));
		pop(w);
	}
}

static void intv(walk *w, const char *name, uint32_t has, int64_t value)
{
	if (has && push(w, name)) {
		keep(w, kp_validation_sink_int(w->sink, value));
		pop(w);
	}
}

static void required(walk *w, const char *name, int present)
{
	if (!w->rc)
		keep(w, kp_validation_sink_required(w->sink, name, present ? 1 : 0));
}

static void items(walk *w, size_t n)
{
	if (!w->rc)
		keep(w, kp_validation_sink_items(w->sink, n));
}

/* CEL rule `index` of the current path on an object, array or map (self is
 * not quoted), or on a string (value). */
static void cel(walk *w, uint32_t index, int holds, const char *type_name, const char *value)
{
	if (!w->rc)
		keep(w, kp_validation_sink_cel(w->sink, index, holds ? KP_CEL_TRUE : KP_CEL_FALSE,
					       type_name, value, NULL));
}

/* has() of a map member: decoding keeps an empty map's storage. */
static int has_map(const kp_labels *m)
{
	return m->count > 0 || m->items != NULL;
}

/* maxProperties and the rule self.all(k, k != '' && self[k] != '') of a
 * selector term's tags. */
static void term_tags(walk *w, const kp_labels *tags)
{
	if (!has_map(tags) || !push(w, "tags"))
		return;
	int ok = 1;
	for (size_t i = 0; i < tags->count; i++)
		ok &= tags->items[i].key[0] != '\0' && tags->items[i].value[0] != '\0';
	cel(w, 0, ok, "object", NULL);
	if (!w->rc)
		keep(w, kp_validation_sink_props(w->sink, tags->count));
	pop(w);
}

static int has_list(const void *items_ptr, size_t n)
{
	return items_ptr != NULL || n > 0;
}

/* The family of an alias: what precedes its first '@' (CEL's
 * find('^[^@]+') and split('@')[0] agree on it, but for an alias starting
 * with '@', where both give ""). */
static size_t family_len(const char *alias)
{
	return strcspn(alias, "@");
}

static int family_is(const char *alias, const char *family)
{
	size_t n = family_len(alias);
	return strlen(family) == n && !strncmp(alias, family, n);
}

static const char *const alias_families[] = { "al2", "al2023", "bottlerocket", "windows2019",
					      "windows2022", "windows2025" };
static const char *const ami_families[] = { "AL2", "AL2023", "Bottlerocket", "Windows2019",
					    "Windows2022", "Windows2025" };

/* self.matches('^[a-zA-Z0-9]+@.+$') (RE2: '.' is any rune but a newline,
 * '$' the end of the text). */
static int alias_formatted(const char *alias)
{
	size_t i = 0;
	while ((alias[i] >= 'a' && alias[i] <= 'z') || (alias[i] >= 'A' && alias[i] <= 'Z') ||
	       (alias[i] >= '0' && alias[i] <= '9'))
		i++;
	return i > 0 && alias[i] == '@' && alias[i + 1] && !strchr(alias + i + 1, '\n');
}

static void v_alias(walk *w, const char *alias)
{
	if (!push(w, "alias"))
		return;
	keep(w, kp_validation_sink_string(w->sink, alias));
	cel(w, 0, alias_formatted(alias), "string", alias);
	int known = 0, windows = 0;
	for (size_t f = 0; f < N_(alias_families); f++)
		if (family_is(alias, alias_families[f])) {
			known = 1;
			windows = f >= 3;
		}
	cel(w, 1, known, "string", alias);
	/* split('@')[1] == 'latest' for Windows: an alias without '@' has no
	 * second element, an evaluation error */
	const char *at = strchr(alias, '@');
	if (windows && !at) {
		if (!w->rc)
			keep(w, kp_validation_sink_cel(w->sink, 2, KP_CEL_ERROR, "string", alias,
						       "index '1' out of range in list size '1'"));
	} else if (windows && at) {
		size_t n = strcspn(at + 1, "@");
		cel(w, 2, n == 6 && !strncmp(at + 1, "latest", 6), "string", alias);
	}
	pop(w);
}

static void v_ami_terms(walk *w, const kp_aws_ec2nodeclass_spec *s)
{
	kp_aws_selector_term *const *t = s->ami_selector_terms;
	size_t n = s->n_ami_selector_terms;
	if (!has_list(t, n) || !push(w, "amiSelectorTerms"))
		return;
	int all_some = 1, id_mixed = 0, alias_mixed = 0, any_alias = 0;
	for (size_t i = 0; i < n; i++) {
		const kp_aws_selector_term *x = t[i];
		int tags = has_map(&x->tags);
		all_some &= tags || x->id || x->name || x->alias || x->ssm_parameter;
		id_mixed |= x->id && (x->alias || tags || x->name || x->owner);
		alias_mixed |= x->alias && (x->id || tags || x->name || x->owner);
		any_alias |= x->alias != NULL;
	}
	cel(w, 0, all_some, "array", NULL);
	cel(w, 1, !id_mixed, "array", NULL);
	cel(w, 2, !alias_mixed, "array", NULL);
	cel(w, 3, !(any_alias && n != 1), "array", NULL);
	for (size_t i = 0; i < n && push_index(w, i); i++) {
		const kp_aws_selector_term *x = t[i];
		if (x->alias)
			v_alias(w, x->alias);
		str(w, "id", x->id);
		term_tags(w, &x->tags);
		pop(w);
	}
	items(w, n);
	pop(w);
}

static void v_block_devices(walk *w, const kp_aws_ec2nodeclass_spec *s)
{
	kp_aws_block_device_mapping *const *m = s->block_device_mappings;
	size_t n = s->n_block_device_mappings;
	if (!has_list(m, n) || !push(w, "blockDeviceMappings"))
		return;
	size_t roots = 0;
	for (size_t i = 0; i < n; i++)
		roots += m[i]->root_volume != 0;
	cel(w, 0, roots <= 1, "array", NULL);
	for (size_t i = 0; i < n && push_index(w, i); i++) {
		const kp_aws_block_device *e = m[i]->ebs;
		if (e && push(w, "ebs")) {
			cel(w, 0, e->snapshot_id || e->volume_size, "object", NULL);
			cel(w, 1, !e->has_volume_initialization_rate || (e->snapshot_id && *e->snapshot_id),
			    "object", NULL);
			intv(w, "volumeInitializationRate", e->has_volume_initialization_rate,
			     e->volume_initialization_rate);
			str(w, "volumeSize", e->volume_size);
			str(w, "volumeType", e->volume_type);
			pop(w);
		}
		pop(w);
	}
	items(w, n);
	pop(w);
}

static void v_reservation_terms(walk *w, const kp_aws_ec2nodeclass_spec *s)
{
	kp_aws_selector_term *const *t = s->capacity_reservation_selector_terms;
	size_t n = s->n_capacity_reservation_selector_terms;
	if (!has_list(t, n) || !push(w, "capacityReservationSelectorTerms"))
		return;
	int all_some = 1, all_id_mixed = 1;
	for (size_t i = 0; i < n; i++) {
		const kp_aws_selector_term *x = t[i];
		int tags = has_map(&x->tags);
		all_some &= tags || x->id || x->instance_match_criteria;
		all_id_mixed &= x->id && (tags || x->owner_id || x->instance_match_criteria);
	}
	cel(w, 0, all_some, "array", NULL);
	/* !self.all(...): an empty list fails it, as upstream's rule does */
	cel(w, 1, !all_id_mixed, "array", NULL);
	for (size_t i = 0; i < n && push_index(w, i); i++) {
		const kp_aws_selector_term *x = t[i];
		str(w, "id", x->id);
		str(w, "instanceMatchCriteria", x->instance_match_criteria);
		str(w, "ownerID", x->owner_id);
		term_tags(w, &x->tags);
		pop(w);
	}
	items(w, n);
	pop(w);
}

static void v_connection_tracking(walk *w, const kp_aws_connection_tracking *ct)
{
	if (!ct || !push(w, "connectionTracking"))
		return;
	cel(w, 0, ct->has_tcp_established_timeout || ct->has_udp_stream_timeout ||
		       ct->has_udp_timeout, "object", NULL);
	intv(w, "tcpEstablishedTimeout", ct->has_tcp_established_timeout,
	     ct->tcp_established_timeout);
	intv(w, "udpStreamTimeout", ct->has_udp_stream_timeout, ct->udp_stream_timeout);
	intv(w, "udpTimeout", ct->has_udp_timeout, ct->udp_timeout);
	pop(w);
}

/* `self != ''` of a string member. */
static void not_empty(walk *w, const char *name, const char *value)
{
	if (value && push(w, name)) {
		cel(w, 0, *value != '\0', "string", value);
		pop(w);
	}
}

/* The CRD's maxItems of networkInterfaces: beyond it the API server stops
 * before CEL (a blocking problem), so the pairwise rules are not
 * evaluated on longer lists and stay linear in the input. */
#define MAX_NETWORK_INTERFACES 150

static void v_network_interfaces(walk *w, const kp_aws_ec2nodeclass_spec *s)
{
	kp_aws_network_interface *const *ni = s->network_interfaces;
	size_t n = s->n_network_interfaces;
	if (!has_list(ni, n) || !push(w, "networkInterfaces"))
		return;
	if (n <= MAX_NETWORK_INTERFACES) {
		int primary = n == 0, unique = 1;
		for (size_t i = 0; i < n; i++) {
			const kp_aws_network_interface *x = ni[i];
			int efa = x->interface_type && !strcmp(x->interface_type, "efa-only");
			primary |= x->device_index == 0 && x->network_card_index == 0 &&
				   x->interface_type && !strcmp(x->interface_type, "interface");
			size_t same = 0, efas = 0;
			for (size_t j = 0; j < n; j++) {
				const kp_aws_network_interface *y = ni[j];
				int card = x->network_card_index == y->network_card_index;
				same += card && x->device_index == y->device_index;
				efas += card && y->interface_type &&
					!strcmp(y->interface_type, "efa-only");
			}
			unique &= same == 1 && (!efa || efas == 1);
		}
		cel(w, 0, primary, "array", NULL);
		cel(w, 1, unique, "array", NULL);
	}
	for (size_t i = 0; i < n && push_index(w, i); i++) {
		const kp_aws_network_interface *x = ni[i];
		intv(w, "deviceIndex", 1, x->device_index);
		str(w, "interfaceType", x->interface_type);
		intv(w, "networkCardIndex", 1, x->network_card_index);
		/* deviceIndex and networkCardIndex: the struct cannot tell an
		 * absent index from 0, so only interfaceType's absence shows */
		required(w, "deviceIndex", 1);
		required(w, "interfaceType", x->interface_type != NULL);
		required(w, "networkCardIndex", 1);
		pop(w);
	}
	items(w, n);
	pop(w);
}

static void v_placement_group(walk *w, const kp_aws_placement_group_selector *pg)
{
	if (!pg || !push(w, "placementGroupSelector"))
		return;
	cel(w, 0, pg->name || pg->id, "object", NULL);
	cel(w, 1, !(pg->name && pg->id), "object", NULL);
	str(w, "id", pg->id);
	str(w, "name", pg->name);
	pop(w);
}

/* subnetSelectorTerms (with_name 0) and securityGroupSelectorTerms. */
static void v_terms(walk *w, const char *name, kp_aws_selector_term *const *t, size_t n,
		    int with_name)
{
	if (!has_list(t, n) || !push(w, name))
		return;
	int all_some = 1, all_id = 1, all_name = 1;
	for (size_t i = 0; i < n; i++) {
		const kp_aws_selector_term *x = t[i];
		int tags = has_map(&x->tags);
		const char *nm = with_name ? x->name : NULL;
		all_some &= tags || x->id || nm;
		all_id &= x->id && (tags || nm);
		all_name &= nm && (tags || x->id);
	}
	cel(w, 0, n != 0, "array", NULL);
	cel(w, 1, all_some, "array", NULL);
	cel(w, 2, !all_id, "array", NULL);
	if (with_name)
		cel(w, 3, !all_name, "array", NULL);
	for (size_t i = 0; i < n && push_index(w, i); i++) {
		str(w, "id", t[i]->id);
		term_tags(w, &t[i]->tags);
		pop(w);
	}
	items(w, n);
	pop(w);
}

static void v_tags(walk *w, const kp_labels *tags)
{
	if (!has_map(tags) || !push(w, "tags"))
		return;
	static const char prefix[] = "kubernetes.io/cluster";
	int ok[6] = { 1, 1, 1, 1, 1, 1 };
	for (size_t i = 0; i < tags->count; i++) {
		const char *k = tags->items[i].key;
		ok[0] &= *k != '\0';
		ok[1] &= strcmp(k, "eks:eks-cluster-name") != 0;
		ok[2] &= strncmp(k, prefix, sizeof(prefix) - 1) != 0;
		ok[3] &= strcmp(k, "karpenter.sh/nodepool") != 0;
		ok[4] &= strcmp(k, "karpenter.sh/nodeclaim") != 0;
		ok[5] &= strcmp(k, "karpenter.k8s.aws/ec2nodeclass") != 0;
	}
	for (uint32_t r = 0; r < 6; r++)
		cel(w, r, ok[r], "object", NULL);
	pop(w);
}

/* The spec's own CEL rules. */
static void v_spec_rules(walk *w, const kp_aws_ec2nodeclass_spec *s)
{
	cel(w, 0, (s->role != NULL) != (s->instance_profile != NULL), "object", NULL);
	int has_alias = 0;
	for (size_t i = 0; i < s->n_ami_selector_terms; i++)
		has_alias |= s->ami_selector_terms[i]->alias != NULL;
	for (uint32_t f = 0; f < N_(alias_families); f++) {
		int uses = 0;
		for (size_t i = 0; i < s->n_ami_selector_terms; i++) {
			const char *a = s->ami_selector_terms[i]->alias;
			uses |= a && family_is(a, alias_families[f]);
		}
		int ok = !s->ami_family || !uses || !strcmp(s->ami_family, "Custom") ||
			 !strcmp(s->ami_family, ami_families[f]);
		cel(w, f + 1, ok, "object", NULL);
	}
	cel(w, 7, has_alias || s->ami_family, "object", NULL);
}

static void v_spec(walk *w, const kp_aws_ec2nodeclass_spec *s)
{
	if (!push(w, "spec"))
		return;
	v_spec_rules(w, s);
	str(w, "amiFamily", s->ami_family);
	v_ami_terms(w, s);
	v_block_devices(w, s);
	v_reservation_terms(w, s);
	v_connection_tracking(w, s->connection_tracking);
	if (s->cpu_options)
		if (push(w, "cpuOptions")) {
			str(w, "nestedVirtualization", s->cpu_options->nested_virtualization);
			pop(w);
		}
	not_empty(w, "instanceProfile", s->instance_profile);
	str(w, "instanceStorePolicy", s->instance_store_policy);
	intv(w, "ipPrefixCount", s->has_ip_prefix_count, s->ip_prefix_count);
	const kp_aws_metadata_options *mo = s->metadata_options;
	if (mo && push(w, "metadataOptions")) {
		str(w, "httpEndpoint", mo->http_endpoint);
		str(w, "httpProtocolIPv6", mo->http_protocol_ipv6);
		intv(w, "httpPutResponseHopLimit", mo->has_http_put_response_hop_limit,
		     mo->http_put_response_hop_limit);
		str(w, "httpTokens", mo->http_tokens);
		pop(w);
	}
	v_network_interfaces(w, s);
	v_placement_group(w, s->placement_group_selector);
	not_empty(w, "role", s->role);
	v_terms(w, "securityGroupSelectorTerms", s->security_group_selector_terms,
		s->n_security_group_selector_terms, 1);
	v_terms(w, "subnetSelectorTerms", s->subnet_selector_terms, s->n_subnet_selector_terms, 0);
	v_tags(w, &s->tags);
	required(w, "amiSelectorTerms", has_list(s->ami_selector_terms, s->n_ami_selector_terms));
	required(w, "securityGroupSelectorTerms",
		 has_list(s->security_group_selector_terms, s->n_security_group_selector_terms));
	required(w, "subnetSelectorTerms",
		 has_list(s->subnet_selector_terms, s->n_subnet_selector_terms));
	pop(w);
}

/* status: the CRD's OpenAPI rules of what the status controllers write
 * (patterns, enums, required members; conditions as the core checks them). */
static void v_status(walk *w, const kp_aws_ec2nodeclass_status *st)
{
	if (!push(w, "status"))
		return;
	for (size_t i = 0; st->subnets && i < st->n_subnets; i++) {
		const kp_aws_subnet_status *sn = st->subnets[i];
		if (!sn || !push(w, "subnets"))
			continue;
		if (push_index(w, i)) {
			required(w, "id", sn->id != NULL);
			required(w, "zone", sn->zone != NULL);
			pop(w);
		}
		pop(w);
	}
	for (size_t i = 0; st->security_groups && i < st->n_security_groups; i++) {
		const kp_aws_security_group_status *sg = st->security_groups[i];
		if (!sg || !push(w, "securityGroups"))
			continue;
		if (push_index(w, i)) {
			required(w, "id", sg->id != NULL);
			pop(w);
		}
		pop(w);
	}
	for (size_t i = 0; st->capacity_reservations && i < st->n_capacity_reservations; i++) {
		const kp_aws_capacity_reservation_status *cr = st->capacity_reservations[i];
		if (!cr || !push(w, "capacityReservations"))
			continue;
		if (push_index(w, i)) {
			str(w, "id", cr->id);
			str(w, "instanceMatchCriteria", cr->instance_match_criteria);
			str(w, "ownerID", cr->owner_id);
			str(w, "reservationType", cr->reservation_type);
			str(w, "state", cr->state);
			required(w, "availabilityZone", cr->availability_zone != NULL);
			required(w, "id", cr->id != NULL);
			required(w, "instanceMatchCriteria", cr->instance_match_criteria != NULL);
			required(w, "instanceType", cr->instance_type != NULL);
			required(w, "ownerID", cr->owner_id != NULL);
			pop(w);
		}
		pop(w);
	}
	for (size_t i = 0; st->amis && i < st->n_amis; i++) {
		const kp_aws_ami_status *ami = st->amis[i];
		if (!ami || !push(w, "amis"))
			continue;
		if (push_index(w, i)) {
			for (size_t k = 0; ami->requirements && k < ami->n_requirements; k++) {
				const kp_aws_ami_requirement *r = ami->requirements[k];
				if (!r || !push(w, "requirements"))
					continue;
				if (push_index(w, k)) {
					required(w, "key", r->key != NULL);
					required(w, "operator", r->operator_ != NULL);
					pop(w);
				}
				pop(w);
			}
			required(w, "id", ami->id != NULL);
			required(w, "requirements", ami->requirements != NULL);
			pop(w);
		}
		pop(w);
	}
	if (!w->rc && st->conditions)
		keep(w, kp_validation_sink_conditions(w->sink, st->conditions, st->n_conditions));
	pop(w);
}

int kp__aws_ec2nodeclass_validate(void *self, const void *object, const void *old_object,
				  kp_validation_sink *sink, kp_error *err)
{
	(void)self;
	(void)old_object; /* the CRD has no transition rules */
	(void)err;
	const kp_aws_ec2nodeclass *nc = object;
	walk w = { sink, KP_OK };
	if (nc->spec)
		v_spec(&w, nc->spec);
	/* status exists only in objects of the layout that has it */
	if (nc->struct_size >= offsetof(kp_aws_ec2nodeclass, status) + sizeof(nc->status) &&
	    nc->status && !(kp_validation_sink_flags(sink) & KP_VALIDATE_NO_STATUS))
		v_status(&w, nc->status);
	return w.rc;
}

/* ---- the AWS build's NodePool and NodeClaim rules --------------------------- */

static const kp_crd_rule nodepool_rules[] = {
	R(CEL, "spec.template.metadata.labels", "x-kubernetes-validations[3]",
	  "self.all(x, x in [\"karpenter.k8s.aws/instance-tenancy\", \"karpenter.k8s.aws/capaci"
	  "ty-reservation-type\", \"karpenter.k8s.aws/capacity-reservation-id\", \"karpenter.k8"
	  "s.aws/capacity-reservation-interruptible\", \"karpenter.k8s.aws/capacity-reservation"
	  "-interruptible\", \"karpenter.k8s.aws/ec2nodeclass\", \"karpenter.k8s.aws/instance-e"
	  "ncryption-in-transit-supported\", \"karpenter.k8s.aws/nitro-sandbox\", \"karpenter.k"
	  "8s.aws/instance-category\", \"karpenter.k8s.aws/instance-hypervisor\", \"karpenter.k"
	  "8s.aws/instance-family\", \"karpenter.k8s.aws/instance-generation\", \"karpenter.k8s"
	  ".aws/instance-local-nvme\", \"karpenter.k8s.aws/instance-size\", \"karpenter.k8s.aws"
	  "/instance-cpu\", \"karpenter.k8s.aws/instance-cpu-manufacturer\", \"karpenter.k8s.aw"
	  "s/instance-cpu-sustained-clock-speed-mhz\", \"karpenter.k8s.aws/instance-memory\", "
	  "\"karpenter.k8s.aws/instance-ebs-bandwidth\", \"karpenter.k8s.aws/instance-network-b"
	  "andwidth\", \"karpenter.k8s.aws/instance-gpu-name\", \"karpenter.k8s.aws/instance-gp"
	  "u-manufacturer\", \"karpenter.k8s.aws/instance-gpu-count\", \"karpenter.k8s.aws/inst"
	  "ance-gpu-memory\", \"karpenter.k8s.aws/instance-accelerator-name\", \"karpenter.k8s."
	  "aws/instance-accelerator-manufacturer\", \"karpenter.k8s.aws/instance-accelerator-co"
	  "unt\", \"karpenter.k8s.aws/instance-capability-flex\", \"karpenter.k8s.aws/placement"
	  "-group-id\", \"karpenter.k8s.aws/placement-group-partition\"] || !x.find(\"^([^/]+)"
	  "\").endsWith(\"karpenter.k8s.aws\"))",
	  "label domain \"karpenter.k8s.aws\" is restricted"),
	R(CEL, "spec.template.spec.requirements[*].key", "x-kubernetes-validations[3]",
	  "self in [\"karpenter.k8s.aws/instance-tenancy\", \"karpenter.k8s.aws/capacity-reserv"
	  "ation-type\", \"karpenter.k8s.aws/capacity-reservation-id\", \"karpenter.k8s.aws/cap"
	  "acity-reservation-interruptible\", \"karpenter.k8s.aws/ec2nodeclass\", \"karpenter.k"
	  "8s.aws/instance-encryption-in-transit-supported\", \"karpenter.k8s.aws/nitro-sandbox"
	  "\", \"karpenter.k8s.aws/instance-category\", \"karpenter.k8s.aws/instance-hypervisor"
	  "\", \"karpenter.k8s.aws/instance-family\", \"karpenter.k8s.aws/instance-generation\""
	  ", \"karpenter.k8s.aws/instance-local-nvme\", \"karpenter.k8s.aws/instance-size\", \""
	  "karpenter.k8s.aws/instance-cpu\", \"karpenter.k8s.aws/instance-cpu-manufacturer\", "
	  "\"karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz\", \"karpenter.k8s.aws/in"
	  "stance-memory\", \"karpenter.k8s.aws/instance-ebs-bandwidth\", \"karpenter.k8s.aws/i"
	  "nstance-network-bandwidth\", \"karpenter.k8s.aws/instance-gpu-name\", \"karpenter.k8"
	  "s.aws/instance-gpu-manufacturer\", \"karpenter.k8s.aws/instance-gpu-count\", \"karpe"
	  "nter.k8s.aws/instance-gpu-memory\", \"karpenter.k8s.aws/instance-accelerator-name\","
	  " \"karpenter.k8s.aws/instance-accelerator-manufacturer\", \"karpenter.k8s.aws/instan"
	  "ce-accelerator-count\", \"karpenter.k8s.aws/instance-capability-flex\", \"karpenter."
	  "k8s.aws/placement-group-id\", \"karpenter.k8s.aws/placement-group-partition\"] || !s"
	  "elf.find(\"^([^/]+)\").endsWith(\"karpenter.k8s.aws\")",
	  "label domain \"karpenter.k8s.aws\" is restricted"),
};

static const kp_crd_rule nodeclaim_rules[] = {
	R(CEL, "spec.requirements[*].key", "x-kubernetes-validations[2]",
	  "self in [\"karpenter.k8s.aws/instance-tenancy\", \"karpenter.k8s.aws/capacity-reserv"
	  "ation-type\", \"karpenter.k8s.aws/capacity-reservation-id\", \"karpenter.k8s.aws/cap"
	  "acity-reservation-interruptible\", \"karpenter.k8s.aws/ec2nodeclass\", \"karpenter.k"
	  "8s.aws/instance-encryption-in-transit-supported\", \"karpenter.k8s.aws/nitro-sandbox"
	  "\", \"karpenter.k8s.aws/instance-category\", \"karpenter.k8s.aws/instance-hypervisor"
	  "\", \"karpenter.k8s.aws/instance-family\", \"karpenter.k8s.aws/instance-generation\""
	  ", \"karpenter.k8s.aws/instance-local-nvme\", \"karpenter.k8s.aws/instance-size\", \""
	  "karpenter.k8s.aws/instance-cpu\", \"karpenter.k8s.aws/instance-cpu-manufacturer\", "
	  "\"karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz\", \"karpenter.k8s.aws/in"
	  "stance-memory\", \"karpenter.k8s.aws/instance-ebs-bandwidth\", \"karpenter.k8s.aws/i"
	  "nstance-network-bandwidth\", \"karpenter.k8s.aws/instance-gpu-name\", \"karpenter.k8"
	  "s.aws/instance-gpu-manufacturer\", \"karpenter.k8s.aws/instance-gpu-count\", \"karpe"
	  "nter.k8s.aws/instance-gpu-memory\", \"karpenter.k8s.aws/instance-accelerator-name\","
	  " \"karpenter.k8s.aws/instance-accelerator-manufacturer\", \"karpenter.k8s.aws/instan"
	  "ce-accelerator-count\", \"karpenter.k8s.aws/instance-capability-flex\", \"karpenter."
	  "k8s.aws/placement-group-id\", \"karpenter.k8s.aws/placement-group-partition\"] || !s"
	  "elf.find(\"^([^/]+)\").endsWith(\"karpenter.k8s.aws\")",
	  "label domain \"karpenter.k8s.aws\" is restricted"),
};

/* The well-known karpenter.k8s.aws label keys the rules allow. */
static const char *const aws_label_keys[] = {
	"karpenter.k8s.aws/instance-tenancy",
	"karpenter.k8s.aws/capacity-reservation-type",
	"karpenter.k8s.aws/capacity-reservation-id",
	"karpenter.k8s.aws/capacity-reservation-interruptible",
	"karpenter.k8s.aws/ec2nodeclass",
	"karpenter.k8s.aws/instance-encryption-in-transit-supported",
	"karpenter.k8s.aws/nitro-sandbox",
	"karpenter.k8s.aws/instance-category",
	"karpenter.k8s.aws/instance-hypervisor",
	"karpenter.k8s.aws/instance-family",
	"karpenter.k8s.aws/instance-generation",
	"karpenter.k8s.aws/instance-local-nvme",
	"karpenter.k8s.aws/instance-size",
	"karpenter.k8s.aws/instance-cpu",
	"karpenter.k8s.aws/instance-cpu-manufacturer",
	"karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
	"karpenter.k8s.aws/instance-memory",
	"karpenter.k8s.aws/instance-ebs-bandwidth",
	"karpenter.k8s.aws/instance-network-bandwidth",
	"karpenter.k8s.aws/instance-gpu-name",
	"karpenter.k8s.aws/instance-gpu-manufacturer",
	"karpenter.k8s.aws/instance-gpu-count",
	"karpenter.k8s.aws/instance-gpu-memory",
	"karpenter.k8s.aws/instance-accelerator-name",
	"karpenter.k8s.aws/instance-accelerator-manufacturer",
	"karpenter.k8s.aws/instance-accelerator-count",
	"karpenter.k8s.aws/instance-capability-flex",
	"karpenter.k8s.aws/placement-group-id",
	"karpenter.k8s.aws/placement-group-partition",
};

/* x in [...] || !x.find("^([^/]+)").endsWith("karpenter.k8s.aws"): the
 * domain is what precedes the first '/' (the whole key without one). */
static int aws_key_allowed(const char *key)
{
	static const char domain[] = "karpenter.k8s.aws";
	size_t n = strcspn(key, "/"), d = sizeof(domain) - 1;
	if (n < d || memcmp(key + n - d, domain, d) != 0)
		return 1;
	for (size_t i = 0; i < N_(aws_label_keys); i++)
		if (!strcmp(key, aws_label_keys[i]))
			return 1;
	return 0;
}

static int aws_group(const kp_node_class_reference *ref)
{
	return ref && ref->group && !strcmp(ref->group, "karpenter.k8s.aws");
}

/* requirements[*].key's rule `index`, under the current path. */
static void requirement_keys(walk *w, kp_nodeclaim_requirement *const *reqs, size_t n,
			     uint32_t index)
{
	if (!push(w, "requirements"))
		return;
	for (size_t i = 0; i < n && push_index(w, i); i++) {
		const char *key = reqs[i]->key;
		if (key && push(w, "key")) {
			cel(w, index, aws_key_allowed(key), "string", key);
			pop(w);
		}
		pop(w);
	}
	pop(w);
}

static int nodepool_validate(void *self, const void *object, const void *old_object,
			     kp_validation_sink *sink, kp_error *err)
{
	(void)self;
	(void)old_object;
	(void)err;
	const kp_nodepool *np = object;
	const kp_nodeclaim_template *t = np->spec ? np->spec->template_ : NULL;
	if (!t || !t->spec || !aws_group(t->spec->node_class_ref))
		return KP_OK;
	walk w = { sink, KP_OK };
	if (push(&w, "spec") && push(&w, "template")) {
		if (t->metadata && has_map(&t->metadata->labels) && push(&w, "metadata")) {
			if (push(&w, "labels")) {
				int ok = 1;
				for (size_t i = 0; i < t->metadata->labels.count; i++)
					ok &= aws_key_allowed(t->metadata->labels.items[i].key);
				cel(&w, 3, ok, "object", NULL);
				pop(&w);
			}
			pop(&w);
		}
		if (push(&w, "spec")) {
			requirement_keys(&w, t->spec->requirements, t->spec->n_requirements, 3);
			pop(&w);
		}
	}
	return w.rc; /* the sink pops what is left */
}

static int nodeclaim_validate(void *self, const void *object, const void *old_object,
			      kp_validation_sink *sink, kp_error *err)
{
	(void)self;
	(void)old_object;
	(void)err;
	const kp_nodeclaim *nc = object;
	if (!nc->spec || !aws_group(nc->spec->node_class_ref))
		return KP_OK;
	walk w = { sink, KP_OK };
	if (push(&w, "spec"))
		requirement_keys(&w, nc->spec->requirements, nc->spec->n_requirements, 2);
	return w.rc;
}

int kp__aws_register_validators(kp_registry *registry, kp_error *err)
{
	kp_validator_ops ops = KP_VALIDATOR_OPS_INIT;
	ops.name = "aws";
	ops.rules = nodepool_rules;
	ops.n_rules = N_(nodepool_rules);
	ops.validate = nodepool_validate;
	int rc = kp_registry_add_validator(registry, KP_KIND_NODEPOOL, &ops, NULL, err);
	if (rc)
		return rc;
	ops.rules = nodeclaim_rules;
	ops.n_rules = N_(nodeclaim_rules);
	ops.validate = nodeclaim_validate;
	return kp_registry_add_validator(registry, KP_KIND_NODECLAIM, &ops, NULL, err);
}
