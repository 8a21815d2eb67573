/*
 * EC2NodeClass validation (libkarpenter-aws, through the public registry):
 *
 * - the rule inventory equals the CRD: every constraint, CEL rule (text and
 *   message) and required member of
 *   ../shared/data/crds/karpenter.k8s.aws_ec2nodeclasses.yaml is a row of
 *   the EC2NodeClass kind kp_aws_register adds, and every CRD row of it is
 *   in the CRD; the AWS build's NodePool and NodeClaim CEL rules on
 *   karpenter.k8s.aws label keys (crds/aws-provider/) are the rows of the
 *   validators it adds to those kinds;
 * - a table of cases, each an EC2NodeClass spec and the exact, complete
 *   list of problems kp_validate reports (kube-apiserver's messages); the
 *   two valid cases set every spec field, so they hold every rule;
 * - coverage: every spec rule fails in some case, but those no validation
 *   can fail (formats, enforced by decoding; `required` of the two indexes,
 *   which the struct cannot tell from 0); status rules by the status cases;
 * - the NodePool and NodeClaim rules, only for nodeClassRef.group
 *   karpenter.k8s.aws.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define _POSIX_C_SOURCE 200809L
#define KP_EXPERIMENTAL_API 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/karpenter.h>

#include "kp_test.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static kp_registry *reg;
static uint32_t ec2_kind;

/* ---- the cases ---------------------------------------------------------- */

typedef struct vcase {
	const char *name;
	const char *spec;            /* the members of spec, as a YAML flow mapping's */
	const char *want[16];        /* "field: message", NULL-terminated */
} vcase;

#define BASE                                                                        \
	"role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: " \
	"subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]"
#define TAGS21                                                                       \
	"{a1: b, a2: b, a3: b, a4: b, a5: b, a6: b, a7: b, a8: b, a9: b, a10: b, a11: b, " \
	"a12: b, a13: b, a14: b, a15: b, a16: b, a17: b, a18: b, a19: b, a20: b, a21: b}"
#define TOO_MANY_TAGS(f) f ": Too many: 21: must have at most 20 items"
#define SKIPPED                                                                          \
	"<nil>: Invalid value: null: some validation rules were not checked because the " \
	"object was invalid; correct the existing errors to complete validation"

static const vcase cases[] = {
	{ "term-tags-many-others",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{tags: "
	  TAGS21 "}], securityGroupSelectorTerms: [{tags: " TAGS21 "}], "
	  "capacityReservationSelectorTerms: [{tags: " TAGS21 "}]",
	  { TOO_MANY_TAGS("spec.capacityReservationSelectorTerms[0].tags"),
	    TOO_MANY_TAGS("spec.securityGroupSelectorTerms[0].tags"),
	    TOO_MANY_TAGS("spec.subnetSelectorTerms[0].tags"), SKIPPED } },
	{ "cr-tags-empty-value",
	  BASE ", capacityReservationSelectorTerms: [{tags: {a: \"\"}}]",
	  { "spec.capacityReservationSelectorTerms[0].tags: Invalid value: empty tag keys or "
	    "values aren't supported" } },
	{ "valid-every-field",
	  "role: r, amiFamily: AL2023, amiSelectorTerms: [{alias: al2023@latest}], subnetSe"
	  "lectorTerms: [{id: subnet-1}, {tags: {a: b}}], securityGroupSelectorTerms: [{id:"
	  " sg-1}, {name: nm}, {tags: {a: b}}], capacityReservationSelectorTerms: [{id: cr-"
	  "1}, {tags: {a: b}, ownerID: \"123456789012\", instanceMatchCriteria: open}], pla"
	  "cementGroupSelector: {name: pg}, associatePublicIPAddress: true, ipPrefixCount: "
	  "0, userData: x, tags: {team: a}, kubelet: {maxPods: 10}, blockDeviceMappings: [{"
	  "deviceName: /dev/xvda, rootVolume: true, ebs: {volumeSize: 20Gi, volumeType: gp3"
	  ", iops: 3000, throughput: 125, encrypted: true, deleteOnTermination: true, kmsKe"
	  "yID: k, snapshotID: snap-1, volumeInitializationRate: 100}}], instanceStorePolic"
	  "y: RAID0, networkInterfaces: [{networkCardIndex: 0, deviceIndex: 0, interfaceTyp"
	  "e: interface}, {networkCardIndex: 0, deviceIndex: 1, interfaceType: efa-only}], "
	  "detailedMonitoring: true, metadataOptions: {httpEndpoint: enabled, httpProtocolI"
	  "Pv6: disabled, httpPutResponseHopLimit: 1, httpTokens: required}, connectionTrac"
	  "king: {tcpEstablishedTimeout: 60, udpStreamTimeout: 60, udpTimeout: 30}, context"
	  ": c, cpuOptions: {nestedVirtualization: enabled}",
	  { NULL } },
	{ "valid-instance-profile",
	  "instanceProfile: p, amiFamily: Custom, amiSelectorTerms: [{id: ami-1}, {name: nm"
	  ", owner: self}, {tags: {a: b}}, {ssmParameter: s}], subnetSelectorTerms: [{id: s"
	  "ubnet-1}], securityGroupSelectorTerms: [{id: sg-1}], placementGroupSelector: {id"
	  ": pg-1}",
	  { NULL } },
	{ "required-terms",
	  "role: r",
	  { "spec.amiSelectorTerms: Required value",
	    "spec.securityGroupSelectorTerms: Required value",
	    "spec.subnetSelectorTerms: Required value",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "empty-terms",
	  "role: r, amiSelectorTerms: [], subnetSelectorTerms: [], securityGroupSelectorTer"
	  "ms: []",
	  { "spec.amiSelectorTerms: Invalid value: 0: spec.amiSelectorTerms in body should ha"
	    "ve at least 1 items",
	    "spec: Invalid value: must specify amiFamily if amiSelectorTerms does not contain"
	    " an alias",
	    "spec.securityGroupSelectorTerms: Invalid value: securityGroupSelectorTerms canno"
	    "t be empty",
	    "spec.securityGroupSelectorTerms: Invalid value: 'id' is mutually exclusive, cann"
	    "ot be set with a combination of other fields in a security group selector term",
	    "spec.securityGroupSelectorTerms: Invalid value: 'name' is mutually exclusive, ca"
	    "nnot be set with a combination of other fields in a security group selector term",
	    "spec.subnetSelectorTerms: Invalid value: subnetSelectorTerms cannot be empty",
	    "spec.subnetSelectorTerms: Invalid value: 'id' is mutually exclusive, cannot be s"
	    "et with a combination of other fields in a subnet selector term" } },
	{ "role-and-profile",
	  "role: r, instanceProfile: p, amiSelectorTerms: [{alias: al2023@latest}], subnetS"
	  "electorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: must specify exactly one of ['role', 'instanceProfile']" } },
	{ "neither-role",
	  "amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: subnet-1}"
	  "], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: must specify exactly one of ['role', 'instanceProfile']" } },
	{ "empty-role",
	  "role: \"\", amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{i"
	  "d: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.role: Invalid value: \"\": role cannot be empty" } },
	{ "empty-profile",
	  "instanceProfile: \"\", amiSelectorTerms: [{alias: al2023@latest}], subnetSelecto"
	  "rTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.instanceProfile: Invalid value: \"\": instanceProfile cannot be empty" } },
	{ "family-al2",
	  "role: r, amiFamily: AL2023, amiSelectorTerms: [{alias: al2@latest}], subnetSelec"
	  "torTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: if set, amiFamily must be 'AL2' or 'Custom' when using an A"
	    "L2 alias" } },
	{ "family-al2023",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{alias: al2023@latest}], subnetSelec"
	  "torTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: if set, amiFamily must be 'AL2023' or 'Custom' when using a"
	    "n AL2023 alias" } },
	{ "family-br",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{alias: bottlerocket@latest}], subne"
	  "tSelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: if set, amiFamily must be 'Bottlerocket' or 'Custom' when u"
	    "sing a Bottlerocket alias" } },
	{ "family-w2019",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{alias: windows2019@latest}], subnet"
	  "SelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: if set, amiFamily must be 'Windows2019' or 'Custom' when us"
	    "ing a Windows2019 alias" } },
	{ "family-w2022",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{alias: windows2022@latest}], subnet"
	  "SelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: if set, amiFamily must be 'Windows2022' or 'Custom' when us"
	    "ing a Windows2022 alias" } },
	{ "family-w2025",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{alias: windows2025@latest}], subnet"
	  "SelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: if set, amiFamily must be 'Windows2025' or 'Custom' when us"
	    "ing a Windows2025 alias" } },
	{ "family-custom-ok",
	  "role: r, amiFamily: Custom, amiSelectorTerms: [{alias: windows2025@latest}], sub"
	  "netSelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { NULL } },
	{ "no-family",
	  "role: r, amiSelectorTerms: [{id: ami-1}], subnetSelectorTerms: [{id: subnet-1}],"
	  " securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec: Invalid value: must specify amiFamily if amiSelectorTerms does not contain"
	    " an alias" } },
	{ "bad-family",
	  "role: r, amiFamily: Ubuntu, amiSelectorTerms: [{id: ami-1}], subnetSelectorTerms"
	  ": [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiFamily: Unsupported value: \"Ubuntu\": supported values: \"AL2\", \"AL20"
	    "23\", \"Bottlerocket\", \"Custom\", \"Windows2019\", \"Windows2022\", \"Windows2"
	    "025\"",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "ami-term-empty",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{owner: self}], subnetSelectorTerms:"
	  " [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms: Invalid value: expected at least one, got none, ['tags', "
	    "'id', 'name', 'alias', 'ssmParameter']" } },
	{ "ami-id-mixed",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{id: ami-1, name: nm}], subnetSelect"
	  "orTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms: Invalid value: 'id' is mutually exclusive, cannot be set "
	    "with a combination of other fields in amiSelectorTerms" } },
	{ "ami-alias-mixed",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest, owner: self}], subnetSelector"
	  "Terms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms: Invalid value: 'alias' is mutually exclusive, cannot be s"
	    "et with a combination of other fields in amiSelectorTerms" } },
	{ "ami-alias-two-terms",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}, {id: ami-1}], subnetSelector"
	  "Terms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms: Invalid value: 'alias' is mutually exclusive, cannot be s"
	    "et with a combination of other amiSelectorTerms" } },
	{ "alias-format",
	  "role: r, amiSelectorTerms: [{alias: al2023}], subnetSelectorTerms: [{id: subnet-"
	  "1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms[0].alias: Invalid value: \"al2023\": 'alias' is improperly"
	    " formatted, must match the format 'family@version'" } },
	{ "alias-family",
	  "role: r, amiSelectorTerms: [{alias: ubuntu@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms[0].alias: Invalid value: \"ubuntu@latest\": family is not "
	    "supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', 'windo"
	    "ws2019', 'windows2022', 'windows2025'" } },
	{ "alias-windows-version",
	  "role: r, amiSelectorTerms: [{alias: windows2022@v1}], subnetSelectorTerms: [{id:"
	  " subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms[0].alias: Invalid value: \"windows2022@v1\": windows famil"
	    "ies may only specify version 'latest'" } },
	{ "alias-windows-no-version",
	  "role: r, amiSelectorTerms: [{alias: windows2022}], subnetSelectorTerms: [{id: su"
	  "bnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms[0].alias: Invalid value: \"windows2022\": 'alias' is impro"
	    "perly formatted, must match the format 'family@version'",
	    "spec.amiSelectorTerms[0].alias: Invalid value: \"string\": index '1' out of rang"
	    "e in list size '1' evaluating rule: windows families may only specify version 'l"
	    "atest'" } },
	{ "alias-too-long",
	  "role: r, amiSelectorTerms: [{alias: al2023@v20240101-aaaaaaaaaaaaaaaaaa}], subne"
	  "tSelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms[0].alias: Too long: may not be more than 30 bytes",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "ami-id-tags",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{id: ami_1}, {tags: {\"\": a}}], sub"
	  "netSelectorTerms: [{id: subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms[0].id: Invalid value: \"ami_1\": spec.amiSelectorTerms[0]."
	    "id in body should match 'ami-[0-9a-z]+'",
	    "spec.amiSelectorTerms[1].tags: Invalid value: empty tag keys or values aren't su"
	    "pported" } },
	{ "term-tags-many",
	  "role: r, amiFamily: AL2, amiSelectorTerms: [{tags: {a1: b, a2: b, a3: b, a4: b, "
	  "a5: b, a6: b, a7: b, a8: b, a9: b, a10: b, a11: b, a12: b, a13: b, a14: b, a15: "
	  "b, a16: b, a17: b, a18: b, a19: b, a20: b, a21: b}}], subnetSelectorTerms: [{id:"
	  " subnet-1}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.amiSelectorTerms[0].tags: Too many: 21: must have at most 20 items",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "bdm-two-roots",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], blockDeviceMappings: [{roo"
	  "tVolume: true, ebs: {volumeSize: 20Gi}}, {rootVolume: true, ebs: {snapshotID: s}"
	  "}]",
	  { "spec.blockDeviceMappings: Invalid value: must have only one blockDeviceMappings "
	    "with rootVolume" } },
	{ "bdm-ebs",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], blockDeviceMappings: [{ebs"
	  ": {volumeType: gp3}}, {ebs: {volumeSize: 20Gi, volumeInitializationRate: 100}}, "
	  "{ebs: {snapshotID: \"\", volumeInitializationRate: 100}}]",
	  { "spec.blockDeviceMappings[0].ebs: Invalid value: snapshotID or volumeSize must be"
	    " defined",
	    "spec.blockDeviceMappings[1].ebs: Invalid value: snapshotID must be set when volu"
	    "meInitializationRate is set",
	    "spec.blockDeviceMappings[2].ebs: Invalid value: snapshotID must be set when volu"
	    "meInitializationRate is set" } },
	{ "bdm-values",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], blockDeviceMappings: [{ebs"
	  ": {snapshotID: s, volumeSize: 70000Gi, volumeType: gp4, volumeInitializationRate"
	  ": 99}}, {ebs: {snapshotID: s, volumeInitializationRate: 301}}]",
	  { "spec.blockDeviceMappings[0].ebs.volumeInitializationRate: Invalid value: 99: spe"
	    "c.blockDeviceMappings[0].ebs.volumeInitializationRate in body should be greater "
	    "than or equal to 100",
	    "spec.blockDeviceMappings[0].ebs.volumeSize: Invalid value: \"70000Gi\": spec.blo"
	    "ckDeviceMappings[0].ebs.volumeSize in body should match '^((?:[1-9][0-9]{0,3}|[1"
	    "-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3]["
	    "0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$'",
	    "spec.blockDeviceMappings[0].ebs.volumeType: Unsupported value: \"gp4\": supporte"
	    "d values: \"standard\", \"io1\", \"io2\", \"gp2\", \"sc1\", \"st1\", \"gp3\"",
	    "spec.blockDeviceMappings[1].ebs.volumeInitializationRate: Invalid value: 301: sp"
	    "ec.blockDeviceMappings[1].ebs.volumeInitializationRate in body should be less th"
	    "an or equal to 300",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "cr-terms",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], capacityReservationSelecto"
	  "rTerms: [{ownerID: \"123456789012\"}]",
	  { "spec.capacityReservationSelectorTerms: Invalid value: expected at least one, got"
	    " none, ['tags', 'id', 'instanceMatchCriteria']" } },
	{ "cr-id-mixed",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], capacityReservationSelecto"
	  "rTerms: [{id: cr-1, ownerID: \"123456789012\"}]",
	  { "spec.capacityReservationSelectorTerms: Invalid value: 'id' is mutually exclusive"
	    ", cannot be set along with other fields in a capacity reservation selector term" } },
	{ "cr-values",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], capacityReservationSelecto"
	  "rTerms: [{id: cr_1}, {ownerID: \"1234\", instanceMatchCriteria: none, tags: {a: "
	  "\"\"}}]",
	  { "spec.capacityReservationSelectorTerms[0].id: Invalid value: \"cr_1\": spec.capac"
	    "ityReservationSelectorTerms[0].id in body should match '^cr-[0-9a-z]+$'",
	    "spec.capacityReservationSelectorTerms[1].instanceMatchCriteria: Unsupported valu"
	    "e: \"none\": supported values: \"open\", \"targeted\"",
	    "spec.capacityReservationSelectorTerms[1].ownerID: Invalid value: \"1234\": spec."
	    "capacityReservationSelectorTerms[1].ownerID in body should match '^[0-9]{12}$'",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "connection-tracking",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], connectionTracking: {}",
	  { "spec.connectionTracking: Invalid value: at least one of tcpEstablishedTimeout, u"
	    "dpStreamTimeout, or udpTimeout must be set" } },
	{ "connection-tracking-low",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], connectionTracking: {tcpEs"
	  "tablishedTimeout: 59, udpStreamTimeout: 59, udpTimeout: 29}",
	  { "spec.connectionTracking.tcpEstablishedTimeout: Invalid value: 59: spec.connectio"
	    "nTracking.tcpEstablishedTimeout in body should be greater than or equal to 60",
	    "spec.connectionTracking.udpStreamTimeout: Invalid value: 59: spec.connectionTrac"
	    "king.udpStreamTimeout in body should be greater than or equal to 60",
	    "spec.connectionTracking.udpTimeout: Invalid value: 29: spec.connectionTracking.u"
	    "dpTimeout in body should be greater than or equal to 30" } },
	{ "connection-tracking-high",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], connectionTracking: {tcpEs"
	  "tablishedTimeout: 432001, udpStreamTimeout: 181, udpTimeout: 61}",
	  { "spec.connectionTracking.tcpEstablishedTimeout: Invalid value: 432001: spec.conne"
	    "ctionTracking.tcpEstablishedTimeout in body should be less than or equal to 4320"
	    "00",
	    "spec.connectionTracking.udpStreamTimeout: Invalid value: 181: spec.connectionTra"
	    "cking.udpStreamTimeout in body should be less than or equal to 180",
	    "spec.connectionTracking.udpTimeout: Invalid value: 61: spec.connectionTracking.u"
	    "dpTimeout in body should be less than or equal to 60" } },
	{ "enums",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], cpuOptions: {nestedVirtual"
	  "ization: sometimes}, instanceStorePolicy: RAID1, metadataOptions: {httpEndpoint:"
	  " open, httpProtocolIPv6: open, httpTokens: maybe}",
	  { "spec.cpuOptions.nestedVirtualization: Unsupported value: \"sometimes\": supporte"
	    "d values: \"enabled\", \"disabled\"",
	    "spec.instanceStorePolicy: Unsupported value: \"RAID1\": supported values: \"RAID"
	    "0\"",
	    "spec.metadataOptions.httpEndpoint: Unsupported value: \"open\": supported values"
	    ": \"enabled\", \"disabled\"",
	    "spec.metadataOptions.httpProtocolIPv6: Unsupported value: \"open\": supported va"
	    "lues: \"enabled\", \"disabled\"",
	    "spec.metadataOptions.httpTokens: Unsupported value: \"maybe\": supported values:"
	    " \"required\", \"optional\"",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "numbers-low",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], ipPrefixCount: -1, metadat"
	  "aOptions: {httpPutResponseHopLimit: 0}",
	  { "spec.ipPrefixCount: Invalid value: -1: spec.ipPrefixCount in body should be grea"
	    "ter than or equal to 0",
	    "spec.metadataOptions.httpPutResponseHopLimit: Invalid value: 0: spec.metadataOpt"
	    "ions.httpPutResponseHopLimit in body should be greater than or equal to 1" } },
	{ "hop-limit-high",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], metadataOptions: {httpPutR"
	  "esponseHopLimit: 65}",
	  { "spec.metadataOptions.httpPutResponseHopLimit: Invalid value: 65: spec.metadataOp"
	    "tions.httpPutResponseHopLimit in body should be less than or equal to 64" } },
	{ "ni-no-primary",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], networkInterfaces: [{netwo"
	  "rkCardIndex: 1, deviceIndex: 0, interfaceType: interface}]",
	  { "spec.networkInterfaces: Invalid value: networkInterfaces must include a primary "
	    "interface with interfaceType='interface'" } },
	{ "ni-duplicates",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], networkInterfaces: [{netwo"
	  "rkCardIndex: 0, deviceIndex: 0, interfaceType: interface}, {networkCardIndex: 0,"
	  " deviceIndex: 0, interfaceType: interface}]",
	  { "spec.networkInterfaces: Invalid value: networkInterfaces must not have duplicate"
	    " networkCardIndex and deviceIndex pairs, and can have at most one efa device per"
	    " network card" } },
	{ "ni-two-efa",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], networkInterfaces: [{netwo"
	  "rkCardIndex: 0, deviceIndex: 0, interfaceType: interface}, {networkCardIndex: 1,"
	  " deviceIndex: 0, interfaceType: efa-only}, {networkCardIndex: 1, deviceIndex: 1,"
	  " interfaceType: efa-only}]",
	  { "spec.networkInterfaces: Invalid value: networkInterfaces must not have duplicate"
	    " networkCardIndex and deviceIndex pairs, and can have at most one efa device per"
	    " network card" } },
	{ "ni-values",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], networkInterfaces: [{netwo"
	  "rkCardIndex: -1, deviceIndex: -1, interfaceType: eni}, {networkCardIndex: 0, dev"
	  "iceIndex: 0}]",
	  { "spec.networkInterfaces[0].deviceIndex: Invalid value: -1: spec.networkInterfaces"
	    "[0].deviceIndex in body should be greater than or equal to 0",
	    "spec.networkInterfaces[0].interfaceType: Unsupported value: \"eni\": supported v"
	    "alues: \"interface\", \"efa-only\"",
	    "spec.networkInterfaces[0].networkCardIndex: Invalid value: -1: spec.networkInter"
	    "faces[0].networkCardIndex in body should be greater than or equal to 0",
	    "spec.networkInterfaces[1].interfaceType: Required value",
	    "<nil>: Invalid value: null: some validation rules were not checked because the o"
	    "bject was invalid; correct the existing errors to complete validation" } },
	{ "pg-empty",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], placementGroupSelector: {}",
	  { "spec.placementGroupSelector: Invalid value: expected at least one, got none, ['n"
	    "ame', 'id']" } },
	{ "pg-both",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], placementGroupSelector: {n"
	  "ame: \"\", id: pg_1}",
	  { "spec.placementGroupSelector.id: Invalid value: \"pg_1\": spec.placementGroupSele"
	    "ctor.id in body should match '^pg-[0-9a-z]+$'",
	    "spec.placementGroupSelector.name: Invalid value: \"\": spec.placementGroupSelect"
	    "or.name in body should be at least 1 chars long",
	    "spec.placementGroupSelector: Invalid value: 'name' and 'id' are mutually exclusi"
	    "ve" } },
	{ "sg-terms",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{}]",
	  { "spec.securityGroupSelectorTerms: Invalid value: expected at least one, got none,"
	    " ['tags', 'id', 'name']" } },
	{ "sg-id-mixed",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1, name: nm}]",
	  { "spec.securityGroupSelectorTerms: Invalid value: 'id' is mutually exclusive, cann"
	    "ot be set with a combination of other fields in a security group selector term",
	    "spec.securityGroupSelectorTerms: Invalid value: 'name' is mutually exclusive, ca"
	    "nnot be set with a combination of other fields in a security group selector term" } },
	{ "sg-name-mixed",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{name: nm, tags: {a: b}}]",
	  { "spec.securityGroupSelectorTerms: Invalid value: 'name' is mutually exclusive, ca"
	    "nnot be set with a combination of other fields in a security group selector term" } },
	{ "sg-values",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg_1}, {tags: {a: \"\"}}]",
	  { "spec.securityGroupSelectorTerms[0].id: Invalid value: \"sg_1\": spec.securityGro"
	    "upSelectorTerms[0].id in body should match 'sg-[0-9a-z]+'",
	    "spec.securityGroupSelectorTerms[1].tags: Invalid value: empty tag keys or values"
	    " aren't supported" } },
	{ "subnet-terms",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{}], "
	  "securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.subnetSelectorTerms: Invalid value: expected at least one, got none, ['tags"
	    "', 'id']" } },
	{ "subnet-values",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet_1}, {tags: {\"\": b}}], securityGroupSelectorTerms: [{id: sg-1}]",
	  { "spec.subnetSelectorTerms[0].id: Invalid value: \"subnet_1\": spec.subnetSelector"
	    "Terms[0].id in body should match 'subnet-[0-9a-z]+'",
	    "spec.subnetSelectorTerms[1].tags: Invalid value: empty tag keys or values aren't"
	    " supported" } },
	{ "tags-restricted",
	  "role: r, amiSelectorTerms: [{alias: al2023@latest}], subnetSelectorTerms: [{id: "
	  "subnet-1}], securityGroupSelectorTerms: [{id: sg-1}], tags: {\"\": a, \"eks:eks-"
	  "cluster-name\": a, kubernetes.io/cluster/x: owned, karpenter.sh/nodepool: a, kar"
	  "penter.sh/nodeclaim: a, karpenter.k8s.aws/ec2nodeclass: a}",
	  { "spec.tags: Invalid value: empty tag keys aren't supported",
	    "spec.tags: Invalid value: tag contains a restricted tag matching eks:eks-cluster"
	    "-name",
	    "spec.tags: Invalid value: tag contains a restricted tag matching kubernetes.io/c"
	    "luster/",
	    "spec.tags: Invalid value: tag contains a restricted tag matching karpenter.sh/no"
	    "depool",
	    "spec.tags: Invalid value: tag contains a restricted tag matching karpenter.sh/no"
	    "declaim",
	    "spec.tags: Invalid value: tag contains a restricted tag matching karpenter.k8s.a"
	    "ws/ec2nodeclass" } },
};

/* Rule ids that failed in some case. */
static const char *failed[256];
static size_t n_failed;

static void note_failed(const char *id)
{
	for (size_t i = 0; i < n_failed; i++)
		if (!strcmp(failed[i], id))
			return;
	ck_assert_uint_lt(n_failed, N(failed));
	failed[n_failed++] = id; /* rule ids live as long as the registry */
}

/* kp_validate's problems for a YAML object as "field: message\n" lines. */
static char *problems(const char *yaml, int note)
{
	kp_decode_result *r = NULL;
	kp_decode_options d = KP_DECODE_OPTIONS_INIT;
	d.registry = reg;
	kp_error e = KP_ERROR_INIT;
	ck_assert_msg(kp_decode(&r, yaml, strlen(yaml), &d, &e) == KP_OK, "%s", e.message);
	ck_assert_uint_eq(kp_decode_result_count(r), 1);
	uint32_t kind = kp_decode_result_at(r, 0)->kind;
	void *obj = NULL;
	ck_assert_int_eq(kp_decode_result_take(r, 0, &obj, &e), KP_OK);
	kp_decode_result_free(r);
	ck_assert_int_eq(kp_registry_object_default(reg, kind, obj, &e), KP_OK);
	kp_validate_options o = KP_VALIDATE_OPTIONS_INIT;
	o.registry = reg;
	kp_validation *v = NULL;
	ck_assert_msg(kp_validate(&v, kind, obj, NULL, &o, &e) == KP_OK, "%s", e.message);
	size_t cap = 1, len = 0;
	for (size_t i = 0; i < kp_validation_count(v); i++) {
		const kp_field_error *fe = kp_validation_at(v, i);
		cap += strlen(fe->field) + strlen(fe->message) + 3;
	}
	char *out = malloc(cap);
	out[0] = '\0';
	for (size_t i = 0; i < kp_validation_count(v); i++) {
		const kp_field_error *fe = kp_validation_at(v, i);
		len += (size_t)snprintf(out + len, cap - len, "%s: %s\n", fe->field, fe->message);
		if (note)
			note_failed(fe->rule);
	}
	kp_validation_free(v);
	kp_registry_object_free(reg, kind, obj);
	return out;
}

/* The problems of @p yaml must be exactly c->want. */
static void check_case(const vcase *c, const char *yaml)
{
	size_t wn = 1;
	for (size_t i = 0; c->want[i]; i++)
		wn += strlen(c->want[i]) + 1;
	char *want = malloc(wn);
	want[0] = '\0';
	for (size_t i = 0; c->want[i]; i++) {
		strcat(want, c->want[i]);
		strcat(want, "\n");
	}
	char *got = problems(yaml, 1);
	ck_assert_msg(!strcmp(got, want), "%s:\n--- want\n%s--- got\n%s", c->name, want, got);
	free(got);
	free(want);
}

START_TEST(test_case)
{
	const vcase *c = &cases[_i];
	const char head[] = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
			    "metadata: {name: t}\nspec: {";
	size_t n = strlen(head) + strlen(c->spec) + 3;
	char *yaml = malloc(n);
	snprintf(yaml, n, "%s%s}\n", head, c->spec);
	check_case(c, yaml);
	free(yaml);
}
END_TEST

/* status, as the status controllers write it (the API server checks it on
 * the status subresource): each case the members of status, then the exact
 * problems. */
#define COND "type: Ready, status: 'True', reason: Ready, message: m, " \
	     "lastTransitionTime: '2024-01-01T00:00:00Z'"
static const vcase status_cases[] = {
	{ "status-valid",
	  "subnets: [{id: subnet-1, zone: us-west-2a, zoneID: usw2-az1}], securityGroups: "
	  "[{id: sg-1, name: web}], amis: [{id: ami-1, name: a, requirements: [{key: "
	  "kubernetes.io/arch, operator: In, values: [amd64]}]}], instanceProfile: p, "
	  "capacityReservations: [{id: cr-0123abc, availabilityZone: us-west-2a, "
	  "instanceMatchCriteria: open, instanceType: m5.large, ownerID: '012345678901', "
	  "reservationType: capacity-block, state: expiring}], conditions: [{" COND "}]",
	  { NULL } },
	{ "status-required",
	  "subnets: [{zoneID: z}], securityGroups: [{name: web}], amis: [{name: a, "
	  "requirements: [{values: [x]}]}, {id: ami-2}], capacityReservations: [{state: active}]",
	  { "status.subnets[0].id: Required value", "status.subnets[0].zone: Required value",
	    "status.securityGroups[0].id: Required value",
	    "status.capacityReservations[0].availabilityZone: Required value",
	    "status.capacityReservations[0].id: Required value",
	    "status.capacityReservations[0].instanceMatchCriteria: Required value",
	    "status.capacityReservations[0].instanceType: Required value",
	    "status.capacityReservations[0].ownerID: Required value",
	    "status.amis[0].requirements[0].key: Required value",
	    "status.amis[0].requirements[0].operator: Required value",
	    "status.amis[0].id: Required value", "status.amis[1].requirements: Required value",
	    SKIPPED } },
	{ "status-values",
	  "capacityReservations: [{id: r-1, availabilityZone: z, instanceMatchCriteria: any, "
	  "instanceType: t, ownerID: '12', reservationType: spot, state: gone}]",
	  { "status.capacityReservations[0].id: Invalid value: \"r-1\": "
	    "status.capacityReservations[0].id in body should match '^cr-[0-9a-z]+$'",
	    "status.capacityReservations[0].instanceMatchCriteria: Unsupported value: \"any\": "
	    "supported values: \"open\", \"targeted\"",
	    "status.capacityReservations[0].ownerID: Invalid value: \"12\": "
	    "status.capacityReservations[0].ownerID in body should match '^[0-9]{12}$'",
	    "status.capacityReservations[0].reservationType: Unsupported value: \"spot\": "
	    "supported values: \"default\", \"capacity-block\"",
	    "status.capacityReservations[0].state: Unsupported value: \"gone\": supported "
	    "values: \"active\", \"expiring\"", SKIPPED } },
	{ "status-conditions",
	  "conditions: [{type: 'bad type', status: Maybe, reason: 'no spaces', message: m, "
	  "observedGeneration: -1, lastTransitionTime: '2024-01-01T00:00:00Z'}, {type: Ready}]",
	  { "status.conditions[0].observedGeneration: Invalid value: -1: "
	    "status.conditions[0].observedGeneration in body should be greater than or equal to 0",
	    "status.conditions[0].reason: Invalid value: \"no spaces\": status.conditions[0].reason "
	    "in body should match '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'",
	    "status.conditions[0].status: Unsupported value: \"Maybe\": supported values: "
	    "\"True\", \"False\", \"Unknown\"",
	    "status.conditions[0].type: Invalid value: \"bad type\": status.conditions[0].type in "
	    "body should match '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
	    "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$'",
	    "status.conditions[1].lastTransitionTime: Required value",
	    "status.conditions[1].message: Required value",
	    "status.conditions[1].reason: Required value",
	    "status.conditions[1].status: Required value", SKIPPED } },
};

START_TEST(test_status_case)
{
	const vcase *c = &status_cases[_i];
	const char head[] = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
			    "metadata: {name: t}\nspec: {" BASE "}\nstatus: {";
	size_t n = strlen(head) + strlen(c->spec) + 3;
	char *yaml = malloc(n);
	snprintf(yaml, n, "%s%s}\n", head, c->spec);
	check_case(c, yaml);
	free(yaml);
}
END_TEST

/* A condition one character past each of its lengths, and one without a
 * type and with an empty reason (caller frees). */
static char *status_lengths_yaml(void)
{
	size_t n = 40000;
	char *y = malloc(n), *p = y;
	p += sprintf(p, "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: t}\n"
			"spec: {" BASE "}\nstatus: {conditions: [{type: ");
	memset(p, 'a', 317);
	p += 317;
	p += sprintf(p, ", status: 'True', reason: ");
	memset(p, 'A', 1025);
	p += 1025;
	p += sprintf(p, ", message: ");
	memset(p, 'm', 32769);
	p += 32769;
	sprintf(p, ", lastTransitionTime: '2024-01-01T00:00:00Z'}, {status: 'True', reason: '', "
		   "message: m, lastTransitionTime: '2024-01-01T00:00:00Z'}]}\n");
	return y;
}

START_TEST(test_status_lengths)
{
	char *yaml = status_lengths_yaml();
	char *got = problems(yaml, 1);
	ck_assert_str_eq(got,
			 "status.conditions[0].message: Too long: may not be more than 32768 bytes\n"
			 "status.conditions[0].reason: Too long: may not be more than 1024 bytes\n"
			 "status.conditions[0].type: Too long: may not be more than 316 bytes\n"
			 "status.conditions[1].reason: Invalid value: \"\": status.conditions[1].reason "
			 "in body should be at least 1 chars long\n"
			 "status.conditions[1].type: Required value\n" SKIPPED "\n");
	free(got);
	free(yaml);
}
END_TEST

/* One more item than each list's maxItems. */
static const struct {
	const char *list, *item;
	size_t max;
} big[] = {
	{ "amiSelectorTerms", "{id: ami-1}", 30 },
	{ "blockDeviceMappings", "{ebs: {volumeSize: 1Gi}}", 50 },
	{ "capacityReservationSelectorTerms", "{id: cr-1}", 30 },
	{ "networkInterfaces", "{networkCardIndex: 0, deviceIndex: 0, interfaceType: interface}",
	  150 },
	{ "securityGroupSelectorTerms", "{id: sg-1}", 30 },
	{ "subnetSelectorTerms", "{id: subnet-1}", 30 },
};

static char *big_yaml(size_t b)
{
	static const char *const base[][2] = {
		{ "amiSelectorTerms", "[{id: ami-1}]" },
		{ "securityGroupSelectorTerms", "[{id: sg-1}]" },
		{ "subnetSelectorTerms", "[{id: subnet-1}]" },
	};
	size_t n = big[b].max + 1, len = 512 + n * (strlen(big[b].item) + 2);
	char *yaml = malloc(len);
	int w = snprintf(yaml, len, "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
				    "metadata: {name: t}\nspec: {role: r, amiFamily: AL2");
	for (size_t i = 0; i < N(base); i++)
		if (strcmp(base[i][0], big[b].list))
			w += snprintf(yaml + w, len - (size_t)w, ", %s: %s", base[i][0], base[i][1]);
	w += snprintf(yaml + w, len - (size_t)w, ", %s: [", big[b].list);
	for (size_t i = 0; i < n; i++)
		w += snprintf(yaml + w, len - (size_t)w, "%s%s", i ? ", " : "", big[b].item);
	snprintf(yaml + w, len - (size_t)w, "]}\n");
	return yaml;
}

/* A list one longer than its maxItems. */
START_TEST(test_max_items)
{
	char *yaml = big_yaml((size_t)_i);
	char *got = problems(yaml, 1);
	char want[512];
	snprintf(want, sizeof(want), "spec.%s: Too many: %zu: must have at most %zu items\n%s\n",
		 big[_i].list, big[_i].max + 1, big[_i].max, SKIPPED);
	ck_assert_str_eq(got, want);
	free(got);
	free(yaml);
}
END_TEST

/* Rows no kp_validate call can fail. */
static int exempt(const kp_validation_rule *r)
{
	if (r->source == KP_RULE_SOURCE_DECODE || r->source == KP_RULE_SOURCE_METADATA ||
	    !strcmp(r->path, "*"))
		return 1;
	return !strcmp(r->keyword, "required") &&
	       (!strcmp(r->path, "spec.networkInterfaces[*].deviceIndex") ||
		!strcmp(r->path, "spec.networkInterfaces[*].networkCardIndex"));
}

START_TEST(test_coverage)
{
	n_failed = 0;
	for (size_t i = 0; i < N(cases); i++) {
		char *yaml = NULL;
		size_t n = strlen(cases[i].spec) + 128;
		yaml = malloc(n);
		snprintf(yaml, n, "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
				  "metadata: {name: t}\nspec: {%s}\n", cases[i].spec);
		free(problems(yaml, 1));
		free(yaml);
	}
	for (size_t b = 0; b < N(big); b++) {
		char *yaml = big_yaml(b);
		free(problems(yaml, 1));
		free(yaml);
	}
	char *lengths = status_lengths_yaml();
	free(problems(lengths, 1));
	free(lengths);
	for (size_t i = 0; i < N(status_cases); i++) {
		size_t n = strlen(status_cases[i].spec) + 256;
		char *yaml = malloc(n);
		snprintf(yaml, n, "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
				  "metadata: {name: t}\nspec: {" BASE "}\nstatus: {%s}\n",
			 status_cases[i].spec);
		free(problems(yaml, 1));
		free(yaml);
	}
	size_t missing = 0, checked = 0;
	char names[4096] = "";
	for (size_t i = 0; i < kp_registry_rule_count(reg, ec2_kind); i++) {
		const kp_validation_rule *r = kp_registry_rule_at(reg, ec2_kind, i);
		if (exempt(r))
			continue;
		checked++;
		int found = 0;
		for (size_t j = 0; j < n_failed && !found; j++)
			found = !strcmp(failed[j], r->id);
		if (!found) {
			snprintf(names + strlen(names), sizeof(names) - strlen(names), " %s", r->id);
			missing++;
		}
	}
	ck_assert_msg(missing == 0, "no case fails:%s", names);
	ck_assert_uint_eq(checked, 120);
}
END_TEST

/* ---- the inventory is the CRD -------------------------------------------- */

static yaml_document_t doc;

static yaml_node_t *get(yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&doc, p->key);
		if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(&doc, p->value);
	}
	return NULL;
}

static const char *text(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static size_t count(yaml_node_t *n)
{
	if (n && n->type == YAML_SEQUENCE_NODE)
		return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (n && n->type == YAML_MAPPING_NODE)
		return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	return 0;
}

static yaml_node_t *item(yaml_node_t *seq, size_t i)
{
	return yaml_document_get_node(&doc, seq->data.sequence.items.start[i]);
}

static const kp_validation_rule *seen[512];
static size_t n_seen;

static const kp_validation_rule *find(uint32_t kind, const char *path, const char *keyword)
{
	for (size_t i = 0; i < kp_registry_rule_count(reg, kind); i++) {
		const kp_validation_rule *r = kp_registry_rule_at(reg, kind, i);
		if (!strcmp(r->path, path) && !strcmp(r->keyword, keyword))
			return r;
	}
	return NULL;
}

static void expect(uint32_t kind, const char *path, const char *keyword, const char *want,
		   const char *message)
{
	const kp_validation_rule *r = find(kind, path, keyword);
	ck_assert_msg(r != NULL, "%s %s (%s) is not in the inventory", path, keyword, want);
	ck_assert_msg(!strcmp(r->text, want), "%s: text %s, CRD has %s", r->id, r->text, want);
	if (message)
		ck_assert_msg(!strcmp(r->message, message), "%s: message %s, CRD has %s", r->id,
			      r->message, message);
	ck_assert_uint_lt(n_seen, N(seen));
	seen[n_seen++] = r;
}

static char *join(const char *a, const char *sep, const char *b)
{
	size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
	char *s = malloc(n);
	snprintf(s, n, "%s%s%s", a, *a ? sep : "", b);
	return s;
}

/* Every row of a schema node and below (only_aws: CEL rules whose message
 * names the karpenter.k8s.aws domain). */
static void walk(uint32_t kind, const char *path, yaml_node_t *s, int only_aws)
{
	static const char *const scalars[] = { "maxLength", "minLength", "pattern", "format",
					       "minimum", "maximum", "maxItems", "minItems",
					       "maxProperties" };
	for (size_t i = 0; i < N(scalars) && !only_aws; i++)
		if (text(get(s, scalars[i])))
			expect(kind, path, scalars[i], text(get(s, scalars[i])), NULL);
	yaml_node_t *en = get(s, "enum");
	if (en && !only_aws) {
		char list[512] = "";
		for (size_t i = 0; i < count(en); i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s\"%s\"",
				 i ? ", " : "", text(item(en, i)));
		expect(kind, path, "enum", list, NULL);
	}
	yaml_node_t *xv = get(s, "x-kubernetes-validations");
	for (size_t i = 0; i < count(xv); i++) {
		const char *msg = text(get(item(xv, i), "message"));
		if (only_aws && !strstr(msg, "\"karpenter.k8s.aws\""))
			continue;
		char kw[64];
		snprintf(kw, sizeof(kw), "x-kubernetes-validations[%zu]", i);
		expect(kind, path, kw, text(get(item(xv, i), "rule")), msg);
	}
	/* list types: only set and map make rows (atomic has no effect) */
	const char *lt = text(get(s, "x-kubernetes-list-type"));
	ck_assert_msg(only_aws || !lt || (strcmp(lt, "set") && strcmp(lt, "map")),
		      "%s: list type %s", path, lt);
	yaml_node_t *props = get(s, "properties");
	for (size_t i = 0; i < count(props); i++) {
		yaml_node_pair_t *p = &props->data.mapping.pairs.start[i];
		char *sub = join(path, ".", text(yaml_document_get_node(&doc, p->key)));
		walk(kind, sub, yaml_document_get_node(&doc, p->value), only_aws);
		free(sub);
	}
	yaml_node_t *req = get(s, "required");
	for (size_t i = 0; i < count(req) && !only_aws; i++) {
		char *sub = join(path, ".", text(item(req, i)));
		expect(kind, sub, "required", "", NULL);
		free(sub);
	}
	if (get(s, "items")) {
		char *sub = join(path, "", "[*]");
		walk(kind, sub, get(s, "items"), only_aws);
		free(sub);
	}
	yaml_node_t *ap = get(s, "additionalProperties");
	if (ap && ap->type == YAML_MAPPING_NODE) {
		char *sub = join(path, "", ".*");
		walk(kind, sub, ap, only_aws);
		free(sub);
	}
}

static void walk_crd(const char *file, uint32_t kind, int only_aws)
{
	size_t len;
	char *crd = kp_test_read_file(kp_test_data_path(file), &len);
	ck_assert_ptr_nonnull(crd);
	yaml_parser_t p;
	ck_assert(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)crd, len);
	ck_assert(yaml_parser_load(&p, &doc));
	yaml_parser_delete(&p);
	yaml_node_t *ver = item(get(get(yaml_document_get_root_node(&doc), "spec"), "versions"), 0);
	walk(kind, "", get(get(ver, "schema"), "openAPIV3Schema"), only_aws);
	yaml_document_delete(&doc);
	free(crd);
}

START_TEST(test_inventory_is_the_crd)
{
	n_seen = 0;
	walk_crd("crds/karpenter.k8s.aws_ec2nodeclasses.yaml", ec2_kind, 0);
	size_t crd_rows = 0;
	for (size_t i = 0; i < kp_registry_rule_count(reg, ec2_kind); i++) {
		const kp_validation_rule *r = kp_registry_rule_at(reg, ec2_kind, i);
		ck_assert_uint_eq(r->kind, ec2_kind);
		if (r->source == KP_RULE_SOURCE_METADATA || !strcmp(r->path, "*"))
			continue;
		crd_rows++;
		int found = 0;
		for (size_t j = 0; j < n_seen; j++)
			found |= seen[j] == r;
		ck_assert_msg(found, "inventory row %s is not in the CRD", r->id);
	}
	ck_assert_uint_eq(crd_rows, n_seen);
	ck_assert_uint_eq(n_seen, 135);

	/* the AWS build's rows: the validators' rows of NodePool and NodeClaim
	 * follow the core's (kp_registry_rule_at), and are exactly these */
	static const struct {
		uint32_t kind;
		const char *file;
		size_t rows;
	} aws[] = {
		{ KP_KIND_NODEPOOL, "crds/aws-provider/karpenter.sh_nodepools.yaml", 2 },
		{ KP_KIND_NODECLAIM, "crds/aws-provider/karpenter.sh_nodeclaims.yaml", 1 },
	};
	for (size_t a = 0; a < N(aws); a++) {
		n_seen = 0;
		walk_crd(aws[a].file, aws[a].kind, 1);
		ck_assert_uint_eq(n_seen, aws[a].rows);
		size_t core = kp_registry_rule_count(NULL, aws[a].kind);
		ck_assert_uint_eq(kp_registry_rule_count(reg, aws[a].kind), core + aws[a].rows);
		for (size_t i = 0; i < aws[a].rows; i++)
			ck_assert_ptr_eq(kp_registry_rule_at(reg, aws[a].kind, core + i), seen[i]);
	}
}
END_TEST

/* ---- the AWS build's NodePool and NodeClaim rules -------------------------- */

#define NP(group, labels, key)                                                          \
	"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\n"            \
	"spec: {template: {metadata: {labels: {" labels "}}, spec: {nodeClassRef: "     \
	"{group: " group ", kind: EC2NodeClass, name: d}, requirements: [{key: " key ", " \
	"operator: Exists}]}}}\n"
#define NC(group, key)                                                                 \
	"apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: nc}\n"          \
	"spec: {nodeClassRef: {group: " group ", kind: EC2NodeClass, name: d}, "        \
	"requirements: [{key: " key ", operator: Exists}]}\n"
#define RESTRICTED "label domain \"karpenter.k8s.aws\" is restricted"

START_TEST(test_label_domain)
{
	/* the well-known keys, other domains, and a key that only contains
	 * the domain after its first '/' hold */
	char *p = problems(NP("karpenter.k8s.aws", "karpenter.k8s.aws/instance-family: m5, "
				"team.example.com/karpenter.k8s.aws: x",
				"karpenter.k8s.aws/instance-capability-flex"), 0);
	ck_assert_str_eq(p, "");
	free(p);
	p = problems(NP("karpenter.k8s.aws", "x.karpenter.k8s.aws/team: a",
			"karpenter.k8s.aws/instance-pods"), 0);
	ck_assert_str_eq(p, "spec.template.metadata.labels: Invalid value: " RESTRICTED "\n"
			    "spec.template.spec.requirements[0].key: Invalid value: "
			    "\"karpenter.k8s.aws/instance-pods\": " RESTRICTED "\n");
	free(p);
	/* another group: the rules do not apply (the AWS CRDs apply them to
	 * every NodePool; libkarpenter-aws to its own node class's only) */
	p = problems(NP("example.com", "x.karpenter.k8s.aws/team: a",
			"karpenter.k8s.aws/instance-pods"), 0);
	ck_assert_str_eq(p, "");
	free(p);
	p = problems(NC("karpenter.k8s.aws", "karpenter.k8s.aws"), 0);
	ck_assert_str_eq(p, "spec.requirements[0].key: Invalid value: \"karpenter.k8s.aws\": "
			    RESTRICTED "\n");
	free(p);
	p = problems(NC("karpenter.k8s.aws", "karpenter.k8s.aws/instance-gpu-count"), 0);
	ck_assert_str_eq(p, "");
	free(p);
	p = problems(NC("example.com", "karpenter.k8s.aws/x"), 0);
	ck_assert_str_eq(p, "");
	free(p);
}
END_TEST

/* Linear in the input: 20,000 network interfaces (past maxItems, so the
 * pairwise CEL rules are not evaluated, as the API server stops first). */
START_TEST(test_many_interfaces)
{
	const char head[] = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\n"
			    "metadata: {name: t}\nspec: {role: r, amiSelectorTerms: [{alias: "
			    "al2023@latest}], subnetSelectorTerms: [{id: subnet-1}], "
			    "securityGroupSelectorTerms: [{id: sg-1}], networkInterfaces: [";
	const char one[] = "{networkCardIndex: 0, deviceIndex: 0, interfaceType: interface},";
	size_t n = 20000, len = strlen(head) + n * strlen(one) + 8;
	char *yaml = malloc(len);
	strcpy(yaml, head);
	char *w = yaml + strlen(head);
	for (size_t i = 0; i < n; i++, w += strlen(one))
		memcpy(w, one, strlen(one));
	strcpy(w - 1, "]}\n");
	char *p = problems(yaml, 0);
	ck_assert_str_eq(p, "spec.networkInterfaces: Too many: 20000: must have at most 150 items\n"
			    "<nil>: Invalid value: null: some validation rules were not checked "
			    "because the object was invalid; correct the existing errors to "
			    "complete validation\n");
	free(p);
	free(yaml);
}
END_TEST

int main(void)
{
	kp_test_require_data("crds/karpenter.k8s.aws_ec2nodeclasses.yaml");
	kp_test_require_data("crds/aws-provider/karpenter.sh_nodepools.yaml");
	kp_error e = KP_ERROR_INIT;
	if (kp_registry_new(&reg, &e) || kp_aws_register(reg, NULL, &ec2_kind, &e)) {
		fprintf(stderr, "%s\n", e.message);
		return 1;
	}
	Suite *s = suite_create("ec2nodeclass-validation");
	TCase *tc = tcase_create("validation");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_case, 0, (int)N(cases));
	tcase_add_loop_test(tc, test_max_items, 0, (int)N(big));
	tcase_add_loop_test(tc, test_status_case, 0, (int)N(status_cases));
	tcase_add_test(tc, test_status_lengths);
	tcase_add_test(tc, test_coverage);
	tcase_add_test(tc, test_inventory_is_the_crd);
	tcase_add_test(tc, test_label_domain);
	tcase_add_test(tc, test_many_interfaces);
	suite_add_tcase(s, tc);
	int rc = kp_test_run(&s, 1);
	kp_registry_free(reg);
	return rc;
}
