/*
 * Conversion (karpenter/convert.h): upstream's conversion unit tests
 * (kubernetes-sigs/karpenter v1.0.x pkg/apis/v1/nodepool_conversion_test.go,
 * nodeclaim_conversion_test.go; aws/karpenter-provider-aws v1.0.x
 * pkg/apis/v1/ec2nodeclass_conversion_test.go) as table tests on whole
 * objects, round trips, the kubelet migration and split, a third-party
 * provider's conversion through the registry, and the example manifests of
 * ../shared/data/manifests/v1beta1.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <cjson/cJSON.h>

#include <karpenter/karpenter.h>
#include <karpenter/sys/schema.h>
#include <karpenter/aws_ec2nodeclass.h>

#include "kp_test.h"

static kp_registry *aws_registry(void)
{
	kp_registry *reg = NULL;
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	ck_assert_int_eq(kp_aws_register(reg, NULL, NULL, NULL), KP_OK);
	return reg;
}

/* Convert @p text (YAML or JSON) to @p target with the AWS provider. */
static kp_convert *convert_text(const char *text, uint32_t target, kp_registry *reg, int *rc,
				kp_error *e)
{
	kp_convert_options o = KP_CONVERT_OPTIONS_INIT;
	o.target = target;
	o.registry = reg;
	kp_convert *c = NULL;
	ck_assert_int_eq(kp_convert_new(&c, &o, e), KP_OK);
	*rc = kp_convert_add(c, text, strlen(text), "test.yaml", e);
	if (*rc == KP_OK)
		*rc = kp_convert_run(c, e);
	return c;
}

static kp_convert *convert_ok(const char *text, uint32_t target)
{
	kp_registry *reg = aws_registry();
	kp_error e = KP_ERROR_INIT;
	int rc;
	kp_convert *c = convert_text(text, target, reg, &rc, &e);
	ck_assert_msg(rc == KP_OK, "convert: %s", e.message);
	kp_registry_free(reg); /* the converter holds it */
	return c;
}

static int reported(const kp_convert *c, const char *line)
{
	for (size_t i = 0; i < kp_convert_report_count(c); i++)
		if (!strcmp(kp_convert_report_at(c, i), line))
			return 1;
	return 0;
}

static void dump_report(const kp_convert *c)
{
	for (size_t i = 0; i < kp_convert_report_count(c); i++)
		fprintf(stderr, "report: %s\n", kp_convert_report_at(c, i));
}

/* ---- upstream's rules, one object each ----------------------------------- */

typedef struct rule_case {
	const char *name;
	uint32_t target;
	const char *input;
	size_t index;         /* the output object checked */
	const char *expected; /* its compact JSON */
	const char *report;   /* a report line that must be there, or NULL */
} rule_case;

static const rule_case rule_cases[] = {
	{ "np-weight-limits", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodePool\n"
	  "metadata: {name: a}\n"
	  "spec:\n"
	  "  weight: 10\n"
	  "  limits: {cpu: \"1000\", memory: 1000Gi}\n"
	  "  disruption: {consolidationPolicy: WhenUnderutilized, expireAfter: 720h}\n"
	  "  template:\n"
	  "    metadata: {labels: {team: a}, annotations: {note: hello}}\n"
	  "    spec:\n"
	  "      taints: [{key: k, value: v, effect: NoSchedule}]\n"
	  "      startupTaints: [{key: s, effect: NoExecute}]\n"
	  "      requirements: [{key: karpenter.k8s.aws/instance-family, operator: In, values: [m5], minValues: 1}]\n"
	  "      nodeClassRef: {apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: default}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\",\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"kind\\\":\\\"EC2NodeClass\\\",\\\"name\\\":\\\"default\\\",\\\"apiVersion\\\":\\\"karpenter.k8s.aws/v1beta1\\\"}\"}},\"spec\":{\"weight\":10,\"limits\":{\"cpu\":\"1000\",\"memory\":\"1000Gi\"},\"disruption\":{\"consolidationPolicy\":\"WhenEmptyOrUnderutilized\",\"consolidateAfter\":\"0s\"},\"template\":{\"metadata\":{\"labels\":{\"team\":\"a\"},\"annotations\":{\"note\":\"hello\"}},\"spec\":{\"taints\":[{\"key\":\"k\",\"value\":\"v\",\"effect\":\"NoSchedule\"}],\"startupTaints\":[{\"key\":\"s\",\"effect\":\"NoExecute\"}],\"requirements\":[{\"key\":\"karpenter.k8s.aws/instance-family\",\"operator\":\"In\",\"values\":[\"m5\"],\"minValues\":1}],\"nodeClassRef\":{\"group\":\"karpenter.k8s.aws\",\"kind\":\"EC2NodeClass\",\"name\":\"default\"},\"expireAfter\":\"720h\"}}}}",
	  "renamed: NodePool/a: spec.template.spec.nodeClassRef.apiVersion -> spec.template.spec.nodeClassRef.group" },
	{ "np-kubelet", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodePool\n"
	  "metadata: {name: a}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      requirements: []\n"
	  "      kubelet:\n"
	  "        cpuCFSQuota: false\n"
	  "        clusterDNS: [test-cluster-dns]\n"
	  "        maxPods: 9383\n"
	  "        podsPerCore: 9334283\n"
	  "        systemReserved: {system-key: reserved}\n"
	  "        kubeReserved: {kube-key: reserved}\n"
	  "        evictionHard: {eviction-key: eviction}\n"
	  "        evictionSoft: {eviction-key: eviction}\n"
	  "        evictionSoftGracePeriod: {test-soft-grace: 1h}\n"
	  "        evictionMaxPodGracePeriod: 382902\n"
	  "        imageGCHighThresholdPercent: 382902\n"
	  "      nodeClassRef: {name: default}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\",\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"name\\\":\\\"default\\\"}\",\"compatibility.karpenter.sh/v1beta1-kubelet-conversion\":\"{\\\"clusterDNS\\\":[\\\"test-cluster-dns\\\"],\\\"maxPods\\\":9383,\\\"podsPerCore\\\":9334283,\\\"systemReserved\\\":{\\\"system-key\\\":\\\"reserved\\\"},\\\"kubeReserved\\\":{\\\"kube-key\\\":\\\"reserved\\\"},\\\"evictionHard\\\":{\\\"eviction-key\\\":\\\"eviction\\\"},\\\"evictionSoft\\\":{\\\"eviction-key\\\":\\\"eviction\\\"},\\\"evictionSoftGracePeriod\\\":{\\\"test-soft-grace\\\":\\\"1h0m0s\\\"},\\\"evictionMaxPodGracePeriod\\\":382902,\\\"imageGCHighThresholdPercent\\\":382902,\\\"cpuCFSQuota\\\":false}\"}},\"spec\":{\"template\":{\"spec\":{\"requirements\":[],\"nodeClassRef\":{\"kind\":\"EC2NodeClass\",\"name\":\"default\",\"group\":\"karpenter.k8s.aws\"}}}}}",
	  "warning: NodePool/a: EC2NodeClass/default is not among the inputs: its kubelet stays in metadata.annotations[compatibility.karpenter.sh/v1beta1-kubelet-conversion]; move it to the EC2NodeClass's spec.kubelet" },
	{ "np-ref-group", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodePool\n"
	  "metadata: {name: a}\n"
	  "spec:\n"
	  "  template:\n"
	  "    spec:\n"
	  "      requirements: []\n"
	  "      nodeClassRef: {kind: test-kind, name: nodeclass-test, apiVersion: testgroup.sh/testversion}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\",\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"kind\\\":\\\"test-kind\\\",\\\"name\\\":\\\"nodeclass-test\\\",\\\"apiVersion\\\":\\\"testgroup.sh/testversion\\\"}\"}},\"spec\":{\"template\":{\"spec\":{\"requirements\":[],\"nodeClassRef\":{\"kind\":\"test-kind\",\"name\":\"nodeclass-test\",\"group\":\"testgroup.sh\"}}}}}",
	  "renamed: NodePool/a: spec.template.spec.nodeClassRef.apiVersion -> spec.template.spec.nodeClassRef.group" },
	{ "np-whenempty", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodePool\n"
	  "metadata: {name: a}\n"
	  "spec:\n"
	  "  disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 10m, expireAfter: Never, budgets: [{nodes: \"1545\", schedule: \"@daily\", duration: 10m}]}\n"
	  "  template:\n"
	  "    spec:\n"
	  "      requirements: []\n"
	  "      nodeClassRef: {name: default}\n"
	  "status:\n"
	  "  resources: {cpu: \"5\", memory: 14145G}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\",\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"name\\\":\\\"default\\\"}\"}},\"spec\":{\"disruption\":{\"consolidationPolicy\":\"WhenEmpty\",\"consolidateAfter\":\"10m\",\"budgets\":[{\"nodes\":\"1545\",\"schedule\":\"@daily\",\"duration\":\"10m\"}]},\"template\":{\"spec\":{\"requirements\":[],\"nodeClassRef\":{\"kind\":\"EC2NodeClass\",\"name\":\"default\",\"group\":\"karpenter.k8s.aws\"},\"expireAfter\":\"Never\"}}},\"status\":{\"resources\":{\"cpu\":\"5\",\"memory\":\"14145G\"}}}",
	  "moved: NodePool/a: spec.disruption.expireAfter -> spec.template.spec.expireAfter" },
	{ "np-v1-back", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata:\n"
	  "  name: a\n"
	  "  annotations: {karpenter.sh/stored-version-migrated: \"true\"}\n"
	  "spec:\n"
	  "  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 2121s}\n"
	  "  template:\n"
	  "    spec:\n"
	  "      requirements: []\n"
	  "      expireAfter: 10h\n"
	  "      terminationGracePeriod: 1h\n"
	  "      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"disruption\":{\"consolidationPolicy\":\"WhenUnderutilized\",\"expireAfter\":\"10h\"},\"template\":{\"spec\":{\"requirements\":[],\"nodeClassRef\":{\"kind\":\"EC2NodeClass\",\"name\":\"default\"}}}}}",
	  "dropped: NodePool/a: spec.template.spec.nodeClassRef.group" },
	{ "np-v1-back-ann", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata:\n"
	  "  name: a\n"
	  "  annotations:\n"
	  "    compatibility.karpenter.sh/v1beta1-nodeclass-reference: '{\"kind\":\"EC2NodeClass\",\"name\":\"default\",\"apiVersion\":\"karpenter.k8s.aws/v1beta1\"}'\n"
	  "    compatibility.karpenter.sh/v1beta1-kubelet-conversion: '{\"maxPods\":110}'\n"
	  "spec:\n"
	  "  disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: Never}\n"
	  "  template:\n"
	  "    spec:\n"
	  "      requirements: []\n"
	  "      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\"},\"spec\":{\"disruption\":{\"consolidationPolicy\":\"WhenEmpty\",\"consolidateAfter\":\"Never\"},\"template\":{\"spec\":{\"requirements\":[],\"kubelet\":{\"maxPods\":110},\"nodeClassRef\":{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"name\":\"default\"}}}}}",
	  "moved: NodePool/a: metadata.annotations[compatibility.karpenter.sh/v1beta1-kubelet-conversion] -> spec.template.spec.kubelet" },
	{ "nc-expire", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodePool\n"
	  "metadata: {name: p}\n"
	  "spec:\n"
	  "  disruption: {expireAfter: 30m}\n"
	  "  template:\n"
	  "    spec:\n"
	  "      requirements: []\n"
	  "      nodeClassRef: {name: default}\n"
	  "---\n"
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodeClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "  labels: {karpenter.sh/nodepool: p}\n"
	  "spec:\n"
	  "  requirements: []\n"
	  "  resources: {requests: {cpu: \"1\"}}\n"
	  "  kubelet: {maxPods: 10}\n"
	  "  nodeClassRef: {name: test, kind: test-kind, apiVersion: test-group/test-version}\n"
	  "status:\n"
	  "  nodeName: node-1\n"
	  "  providerID: aws:///x\n"
	  "  imageID: ami-1\n"
	  "  capacity: {cpu: \"2\"}\n"
	  "  allocatable: {cpu: \"1\"}\n"
	  "  conditions: [{type: Launched, status: \"True\", reason: x, lastTransitionTime: \"2024-01-01T00:00:00Z\", message: \"\"}]\n",
	  1, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodeClaim\",\"metadata\":{\"name\":\"c\",\"labels\":{\"karpenter.sh/nodepool\":\"p\"},\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"kind\\\":\\\"test-kind\\\",\\\"name\\\":\\\"test\\\",\\\"apiVersion\\\":\\\"test-group/test-version\\\"}\",\"compatibility.karpenter.sh/v1beta1-kubelet-conversion\":\"{\\\"maxPods\\\":10}\"}},\"spec\":{\"requirements\":[],\"resources\":{\"requests\":{\"cpu\":\"1\"}},\"nodeClassRef\":{\"name\":\"test\",\"kind\":\"test-kind\",\"group\":\"test-group\"},\"expireAfter\":\"30m\"},\"status\":{\"nodeName\":\"node-1\",\"providerID\":\"aws:///x\",\"imageID\":\"ami-1\",\"capacity\":{\"cpu\":\"2\"},\"allocatable\":{\"cpu\":\"1\"},\"conditions\":[{\"type\":\"Launched\",\"status\":\"True\",\"reason\":\"x\",\"lastTransitionTime\":\"2024-01-01T00:00:00Z\",\"message\":\"\"}]}}",
	  "moved: NodeClaim/c: NodePool/p spec.disruption.expireAfter -> spec.expireAfter" },
	{ "nc-nopool", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodeClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "  labels: {karpenter.sh/nodepool: gone}\n"
	  "spec:\n"
	  "  requirements: []\n"
	  "  nodeClassRef: {name: test, kind: test-kind, apiVersion: test-group/test-version}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodeClaim\",\"metadata\":{\"name\":\"c\",\"labels\":{\"karpenter.sh/nodepool\":\"gone\"},\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"kind\\\":\\\"test-kind\\\",\\\"name\\\":\\\"test\\\",\\\"apiVersion\\\":\\\"test-group/test-version\\\"}\"}},\"spec\":{\"requirements\":[],\"nodeClassRef\":{\"name\":\"test\",\"kind\":\"test-kind\",\"group\":\"test-group\"},\"expireAfter\":\"Never\"}}",
	  "renamed: NodeClaim/c: spec.nodeClassRef.apiVersion -> spec.nodeClassRef.group" },
	{ "nc-v1-back", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodeClaim\n"
	  "metadata:\n"
	  "  name: c\n"
	  "spec:\n"
	  "  requirements: []\n"
	  "  expireAfter: 720h\n"
	  "  terminationGracePeriod: 1h\n"
	  "  nodeClassRef: {name: test, kind: test-kind, group: test-group}\n"
	  "status:\n"
	  "  lastPodEventTime: \"2024-01-01T00:00:00Z\"\n"
	  "  nodeName: node-1\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodeClaim\",\"metadata\":{\"name\":\"c\"},\"spec\":{\"requirements\":[],\"nodeClassRef\":{\"name\":\"test\",\"kind\":\"test-kind\"}},\"status\":{\"nodeName\":\"node-1\"}}",
	  "dropped: NodeClaim/c: status.lastPodEventTime" },
	{ "ec2-al2", KP_CONVERT_V1,
	  "apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "kind: EC2NodeClass\n"
	  "metadata: {name: d}\n"
	  "spec:\n"
	  "  amiFamily: AL2\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"amiSelectorTerms\":[{\"alias\":\"al2@latest\"}],\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}]}}",
	  "moved: EC2NodeClass/d: spec.amiFamily -> spec.amiSelectorTerms[0].alias (al2@latest)" },
	{ "ec2-al2023-version", KP_CONVERT_V1,
	  "apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "kind: EC2NodeClass\n"
	  "metadata:\n"
	  "  name: d\n"
	  "  annotations: {compatibility.karpenter.k8s.aws/v1-alias-version: v20240807}\n"
	  "spec:\n"
	  "  amiFamily: AL2023\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"amiSelectorTerms\":[{\"alias\":\"al2023@v20240807\"}],\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}]}}",
	  "moved: EC2NodeClass/d: spec.amiFamily -> spec.amiSelectorTerms[0].alias (al2023@v20240807)" },
	{ "ec2-al2-terms", KP_CONVERT_V1,
	  "apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "kind: EC2NodeClass\n"
	  "metadata: {name: d}\n"
	  "spec:\n"
	  "  amiFamily: Bottlerocket\n"
	  "  amiSelectorTerms: [{id: ami-123}]\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"amiFamily\":\"Bottlerocket\",\"amiSelectorTerms\":[{\"id\":\"ami-123\"}],\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}]}}",
	  NULL },
	{ "ec2-ubuntu", KP_CONVERT_V1,
	  "apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "kind: EC2NodeClass\n"
	  "metadata: {name: d}\n"
	  "spec:\n"
	  "  amiFamily: Ubuntu\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\",\"annotations\":{\"compatibility.karpenter.k8s.aws/v1beta1-ubuntu\":\"amiFamily,blockDeviceMappings,incompatible\"}},\"spec\":{\"amiFamily\":\"AL2\",\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"blockDeviceMappings\":[{\"deviceName\":\"/dev/sda1\",\"rootVolume\":true,\"ebs\":{\"encrypted\":true,\"volumeType\":\"gp3\",\"volumeSize\":\"20Gi\"}}],\"amiSelectorTerms\":[{\"id\":\"ami-placeholder\"}]}}",
	  "warning: EC2NodeClass/d: Ubuntu without amiSelectorTerms has no v1 equivalent: the class is marked incompatible (amiSelectorTerms id ami-placeholder) and launches no nodes until you give it amiSelectorTerms" },
	{ "ec2-ubuntu-full", KP_CONVERT_V1,
	  "apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "kind: EC2NodeClass\n"
	  "metadata: {name: d}\n"
	  "spec:\n"
	  "  amiFamily: Ubuntu\n"
	  "  amiSelectorTerms: [{name: ubuntu-*}]\n"
	  "  blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: 100Gi}}]\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\",\"annotations\":{\"compatibility.karpenter.k8s.aws/v1beta1-ubuntu\":\"amiFamily\"}},\"spec\":{\"amiFamily\":\"AL2\",\"amiSelectorTerms\":[{\"name\":\"ubuntu-*\"}],\"blockDeviceMappings\":[{\"deviceName\":\"/dev/xvda\",\"ebs\":{\"volumeSize\":\"100Gi\"}}],\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}]}}",
	  "renamed: EC2NodeClass/d: spec.amiFamily: Ubuntu -> AL2 (annotated compatibility.karpenter.k8s.aws/v1beta1-ubuntu)" },
	{ "ec2-custom", KP_CONVERT_V1,
	  "apiVersion: karpenter.k8s.aws/v1beta1\n"
	  "kind: EC2NodeClass\n"
	  "metadata: {name: d}\n"
	  "spec:\n"
	  "  amiFamily: Windows2025\n"
	  "  amiSelectorTerms: [{id: ami-1}]\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"amiFamily\":\"Custom\",\"amiSelectorTerms\":[{\"id\":\"ami-1\"}],\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}]}}",
	  "renamed: EC2NodeClass/d: spec.amiFamily: Windows2025 -> Custom" },
	{ "ec2-v1-back", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.k8s.aws/v1\n"
	  "kind: EC2NodeClass\n"
	  "metadata:\n"
	  "  name: d\n"
	  "  annotations: {karpenter.sh/stored-version-migrated: \"true\"}\n"
	  "spec:\n"
	  "  amiSelectorTerms: [{alias: al2023@v20240807}]\n"
	  "  kubelet: {maxPods: 10}\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\",\"annotations\":{\"compatibility.karpenter.k8s.aws/v1-alias-version\":\"v20240807\"}},\"spec\":{\"amiFamily\":\"AL2023\",\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}]}}",
	  "dropped: EC2NodeClass/d: spec.kubelet (v1beta1 keeps it in the NodePool)" },
	{ "ec2-v1-ubuntu-back", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.k8s.aws/v1\n"
	  "kind: EC2NodeClass\n"
	  "metadata:\n"
	  "  name: d\n"
	  "  annotations: {compatibility.karpenter.k8s.aws/v1beta1-ubuntu: \"amiFamily,blockDeviceMappings,incompatible\"}\n"
	  "spec:\n"
	  "  amiFamily: AL2\n"
	  "  blockDeviceMappings: [{deviceName: /dev/sda1, rootVolume: true, ebs: {encrypted: true, volumeType: gp3, volumeSize: 20Gi}}]\n"
	  "  amiSelectorTerms: [{id: ami-placeholder}]\n"
	  "  role: r\n"
	  "  subnetSelectorTerms: [{tags: {a: b}}]\n"
	  "  securityGroupSelectorTerms: [{tags: {a: b}}]\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\"},\"spec\":{\"amiFamily\":\"Ubuntu\",\"role\":\"r\",\"subnetSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"tags\":{\"a\":\"b\"}}]}}",
	  "renamed: EC2NodeClass/d: spec.amiFamily: AL2 -> Ubuntu (from compatibility.karpenter.k8s.aws/v1beta1-ubuntu)" },
	/* v1alpha5 and v1alpha1, from karpenter-convert's testdata and core v0.32.x
	 * nodepool.New / nodeclaim.New */
	{ "prov-full", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Provisioner\n"
	  "metadata:\n"
	  "  name: default\n"
	  "  uid: 71fc8dfd\n"
	  "  resourceVersion: \"4\"\n"
	  "spec:\n"
	  "  providerRef: {name: default}\n"
	  "  taints: [{key: example.com/special-taint, effect: NoSchedule}]\n"
	  "  labels: {billing-team: my-team}\n"
	  "  annotations: {example.com/owner: my-team}\n"
	  "  requirements:\n"
	  "  - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}\n"
	  "  - {key: kubernetes.io/arch, operator: In, values: [arm64, amd64]}\n"
	  "  - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}\n"
	  "  kubeletConfiguration: {clusterDNS: [10.0.1.100], containerRuntime: containerd, maxPods: 20}\n"
	  "  limits: {resources: {cpu: \"1000\", memory: 1000Gi}}\n"
	  "  consolidation: {enabled: false}\n"
	  "  ttlSecondsUntilExpired: 2592000\n"
	  "  ttlSecondsAfterEmpty: 30\n"
	  "  weight: 10\n"
	  "status: {resources: {cpu: \"2\"}}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"default\"},\"spec\":{\"disruption\":{\"consolidationPolicy\":\"WhenEmpty\",\"consolidateAfter\":\"30s\",\"expireAfter\":\"720h0m0s\"},\"limits\":{\"cpu\":\"1000\",\"memory\":\"1000Gi\"},\"template\":{\"metadata\":{\"annotations\":{\"example.com/owner\":\"my-team\"},\"labels\":{\"billing-team\":\"my-team\"}},\"spec\":{\"taints\":[{\"key\":\"example.com/special-taint\",\"effect\":\"NoSchedule\"}],\"requirements\":[{\"key\":\"karpenter.k8s.aws/instance-category\",\"operator\":\"In\",\"values\":[\"c\",\"m\",\"r\"]},{\"key\":\"kubernetes.io/arch\",\"operator\":\"In\",\"values\":[\"arm64\",\"amd64\"]},{\"key\":\"karpenter.sh/capacity-type\",\"operator\":\"In\",\"values\":[\"spot\",\"on-demand\"]},{\"key\":\"kubernetes.io/os\",\"operator\":\"In\",\"values\":[\"linux\"]}],\"kubelet\":{\"clusterDNS\":[\"10.0.1.100\"],\"maxPods\":20},\"nodeClassRef\":{\"name\":\"default\"}}},\"weight\":10}}",
	  "renamed: Provisioner/default -> NodePool/default" },
	{ "prov-full-v1", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Provisioner\n"
	  "metadata: {name: default}\n"
	  "spec:\n"
	  "  providerRef: {name: default}\n"
	  "  requirements:\n"
	  "  - {key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}\n"
	  "  - {key: beta.kubernetes.io/arch, operator: In, values: [arm64]}\n"
	  "  kubeletConfiguration: {containerRuntime: containerd, maxPods: 20, evictionSoftGracePeriod: {memory.available: 1m}, evictionSoft: {memory.available: 500Mi}}\n"
	  "  ttlSecondsUntilExpired: 2592000\n"
	  "  ttlSecondsAfterEmpty: 30\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"default\",\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"name\\\":\\\"default\\\"}\",\"compatibility.karpenter.sh/v1beta1-kubelet-conversion\":\"{\\\"maxPods\\\":20,\\\"evictionSoft\\\":{\\\"memory.available\\\":\\\"500Mi\\\"},\\\"evictionSoftGracePeriod\\\":{\\\"memory.available\\\":\\\"1m0s\\\"}}\"}},\"spec\":{\"disruption\":{\"consolidationPolicy\":\"WhenEmpty\",\"consolidateAfter\":\"30s\"},\"template\":{\"spec\":{\"requirements\":[{\"key\":\"karpenter.k8s.aws/instance-category\",\"operator\":\"In\",\"values\":[\"c\",\"m\",\"r\"]},{\"key\":\"beta.kubernetes.io/arch\",\"operator\":\"In\",\"values\":[\"arm64\"]},{\"key\":\"kubernetes.io/os\",\"operator\":\"In\",\"values\":[\"linux\"]},{\"key\":\"karpenter.sh/capacity-type\",\"operator\":\"In\",\"values\":[\"on-demand\"]}],\"nodeClassRef\":{\"kind\":\"EC2NodeClass\",\"name\":\"default\",\"group\":\"karpenter.k8s.aws\"},\"expireAfter\":\"720h0m0s\"}}}}",
	  "warning: NodePool/default: EC2NodeClass/default is not among the inputs: its kubelet stays in metadata.annotations[compatibility.karpenter.sh/v1beta1-kubelet-conversion]; move it to the EC2NodeClass's spec.kubelet" },
	{ "prov-provider", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Provisioner\n"
	  "metadata: {name: default}\n"
	  "spec:\n"
	  "  consolidation: {enabled: true}\n"
	  "  requirements:\n"
	  "  - {key: kubernetes.io/arch, operator: Exists}\n"
	  "  provider:\n"
	  "    subnetSelector: {karpenter.sh/discovery: karpenter-demo}\n"
	  "    securityGroupSelector: {karpenter.sh/discovery: karpenter-demo}\n"
	  "    instanceProfile: KarpenterInstanceProfile-karpenter-demo\n"
	  "    tags: {app.kubernetes.io/created-by: karpenter-demo}\n"
	  "    metadataOptions: {httpEndpoint: disabled, httpTokens: required}\n",
	  1, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"default\"},\"spec\":{\"amiSelectorTerms\":[{\"alias\":\"al2@latest\"}],\"instanceProfile\":\"KarpenterInstanceProfile-karpenter-demo\",\"metadataOptions\":{\"httpEndpoint\":\"disabled\",\"httpTokens\":\"required\"},\"securityGroupSelectorTerms\":[{\"tags\":{\"karpenter.sh/discovery\":\"karpenter-demo\"}}],\"subnetSelectorTerms\":[{\"tags\":{\"karpenter.sh/discovery\":\"karpenter-demo\"}}],\"tags\":{\"app.kubernetes.io/created-by\":\"karpenter-demo\"}}}",
	  "renamed: NodePool/default: spec.disruption.consolidationPolicy: WhenUnderutilized -> WhenEmptyOrUnderutilized" },
	{ "tmpl-cdl", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.k8s.aws/v1alpha1\n"
	  "kind: AWSNodeTemplate\n"
	  "metadata: {name: default, labels: {a: b}, uid: x}\n"
	  "spec:\n"
	  "  amiFamily: Bottlerocket\n"
	  "  amiSelector:\n"
	  "    aws::owners: \"self,amazon\"\n"
	  "    aws::name: \"test name\"\n"
	  "    test-key-2: 'v4,v5'\n"
	  "    test-key-1: 'v1, v2'\n"
	  "  subnetSelector: {aws-ids: \"subnet-1, subnet-2\"}\n"
	  "  securityGroupSelector: {aws::ids: sg-1, Name: web}\n"
	  "status: {subnets: [{id: subnet-1, zone: a}]}\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"default\",\"labels\":{\"a\":\"b\"}},\"spec\":{\"amiFamily\":\"Bottlerocket\",\"amiSelectorTerms\":[{\"name\":\"test name\",\"owner\":\"self\",\"tags\":{\"test-key-1\":\"v1\",\"test-key-2\":\"v4\"}},{\"name\":\"test name\",\"owner\":\"self\",\"tags\":{\"test-key-1\":\"v2\",\"test-key-2\":\"v4\"}},{\"name\":\"test name\",\"owner\":\"self\",\"tags\":{\"test-key-1\":\"v1\",\"test-key-2\":\"v5\"}},{\"name\":\"test name\",\"owner\":\"self\",\"tags\":{\"test-key-1\":\"v2\",\"test-key-2\":\"v5\"}},{\"name\":\"test name\",\"owner\":\"amazon\",\"tags\":{\"test-key-1\":\"v1\",\"test-key-2\":\"v4\"}},{\"name\":\"test name\",\"owner\":\"amazon\",\"tags\":{\"test-key-1\":\"v2\",\"test-key-2\":\"v4\"}},{\"name\":\"test name\",\"owner\":\"amazon\",\"tags\":{\"test-key-1\":\"v1\",\"test-key-2\":\"v5\"}},{\"name\":\"test name\",\"owner\":\"amazon\",\"tags\":{\"test-key-1\":\"v2\",\"test-key-2\":\"v5\"}}],\"role\":\"$KARPENTER_NODE_ROLE\",\"securityGroupSelectorTerms\":[{\"id\":\"sg-1\"},{\"tags\":{\"Name\":\"web\"}}],\"subnetSelectorTerms\":[{\"id\":\"subnet-1\"},{\"id\":\"subnet-2\"}]}}",
	  "renamed: AWSNodeTemplate/default -> EC2NodeClass/default" },
	{ "tmpl-ids", KP_CONVERT_V1,
	  "apiVersion: karpenter.k8s.aws/v1alpha1\n"
	  "kind: AWSNodeTemplate\n"
	  "metadata: {name: default}\n"
	  "spec:\n"
	  "  amiSelector: {aws::ids: \"ami-123,ami-456\", MyTag: '*'}\n"
	  "  subnetSelector: {karpenter.sh/discovery: demo}\n"
	  "  securityGroupSelector: {karpenter.sh/discovery: demo}\n",
	  0, "{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"default\"},\"spec\":{\"amiFamily\":\"AL2\",\"amiSelectorTerms\":[{\"id\":\"ami-123\"},{\"id\":\"ami-456\"},{\"tags\":{\"MyTag\":\"*\"}}],\"role\":\"$KARPENTER_NODE_ROLE\",\"securityGroupSelectorTerms\":[{\"tags\":{\"karpenter.sh/discovery\":\"demo\"}}],\"subnetSelectorTerms\":[{\"tags\":{\"karpenter.sh/discovery\":\"demo\"}}]}}",
	  "renamed: AWSNodeTemplate/default -> EC2NodeClass/default" },
	{ "machine", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Provisioner\n"
	  "metadata: {name: p}\n"
	  "spec:\n"
	  "  requirements: [{key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}, {key: kubernetes.io/os, operator: In, values: [linux]}, {key: kubernetes.io/arch, operator: In, values: [amd64]}, {key: karpenter.sh/capacity-type, operator: In, values: [spot]}]\n"
	  "  providerRef: {name: default}\n"
	  "  ttlSecondsUntilExpired: 3600\n"
	  "  ttlSecondsAfterEmpty: 30\n"
	  "---\n"
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Machine\n"
	  "metadata:\n"
	  "  name: p-abc\n"
	  "  labels: {karpenter.sh/provisioner-name: p}\n"
	  "  annotations: {karpenter.sh/do-not-consolidate: \"true\"}\n"
	  "spec:\n"
	  "  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]\n"
	  "  resources: {requests: {cpu: \"1\"}}\n"
	  "  machineTemplateRef: {name: default, kind: AWSNodeTemplate, apiVersion: karpenter.k8s.aws/v1alpha1}\n"
	  "status:\n"
	  "  providerID: aws:///us-west-2a/i-1\n"
	  "  conditions:\n"
	  "  - {type: MachineLaunched, status: \"True\", lastTransitionTime: \"2023-01-01T00:00:00Z\"}\n"
	  "  - {type: Ready, status: \"True\", lastTransitionTime: \"2023-01-01T00:00:00Z\"}\n",
	  1, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodeClaim\",\"metadata\":{\"name\":\"p-abc\",\"labels\":{\"karpenter.sh/nodepool\":\"p\"},\"annotations\":{\"karpenter.sh/do-not-disrupt\":\"true\",\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"name\\\":\\\"default\\\"}\"}},\"spec\":{\"requirements\":[{\"key\":\"karpenter.sh/capacity-type\",\"operator\":\"In\",\"values\":[\"spot\"]}],\"resources\":{\"requests\":{\"cpu\":\"1\"}},\"nodeClassRef\":{\"kind\":\"EC2NodeClass\",\"name\":\"default\",\"group\":\"karpenter.k8s.aws\"},\"expireAfter\":\"1h0m0s\"},\"status\":{\"providerID\":\"aws:///us-west-2a/i-1\",\"conditions\":[{\"type\":\"Launched\",\"status\":\"True\",\"lastTransitionTime\":\"2023-01-01T00:00:00Z\"},{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2023-01-01T00:00:00Z\"}]}}",
	  "moved: NodeClaim/p-abc: NodePool/p spec.disruption.expireAfter -> spec.expireAfter" },
	{ "prov-renames", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1alpha5\n"
	  "kind: Provisioner\n"
	  "metadata: {name: p}\n"
	  "spec:\n"
	  "  annotations: {karpenter.sh/do-not-evict: \"true\"}\n"
	  "  requirements: [{key: karpenter.k8s.aws/instance-family, operator: In, values: [m5]}, {key: kubernetes.io/os, operator: In, values: [linux]}, {key: kubernetes.io/arch, operator: In, values: [amd64]}, {key: karpenter.sh/capacity-type, operator: In, values: [spot]}]\n"
	  "  providerRef: {name: default}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"p\",\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"{\\\"name\\\":\\\"default\\\"}\"}},\"spec\":{\"template\":{\"metadata\":{\"annotations\":{\"karpenter.sh/do-not-disrupt\":\"true\"}},\"spec\":{\"requirements\":[{\"key\":\"karpenter.k8s.aws/instance-family\",\"operator\":\"In\",\"values\":[\"m5\"]},{\"key\":\"kubernetes.io/os\",\"operator\":\"In\",\"values\":[\"linux\"]},{\"key\":\"kubernetes.io/arch\",\"operator\":\"In\",\"values\":[\"amd64\"]},{\"key\":\"karpenter.sh/capacity-type\",\"operator\":\"In\",\"values\":[\"spot\"]}],\"nodeClassRef\":{\"kind\":\"EC2NodeClass\",\"name\":\"default\",\"group\":\"karpenter.k8s.aws\"},\"expireAfter\":\"Never\"}}}}",
	  "moved: NodePool/p: spec.disruption.expireAfter -> spec.template.spec.expireAfter" },
	/* "should not panic when the v1beta1 nodeclassRef is not defined":
	 * an empty v1 reference (which v1 validation then refuses); the
	 * defaulted disruption and expireAfter convert to the v1 defaults, so
	 * they stay absent as in the input */
	{ "np-ref-none", KP_CONVERT_V1,
	  "apiVersion: karpenter.sh/v1beta1\n"
	  "kind: NodePool\n"
	  "metadata: {name: a}\n"
	  "spec: {template: {spec: {requirements: []}}}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\","
	     "\"annotations\":{\"compatibility.karpenter.sh/v1beta1-nodeclass-reference\":\"null\"}},"
	     "\"spec\":{\"template\":{\"spec\":{\"requirements\":[],"
	     "\"nodeClassRef\":{\"kind\":\"\",\"name\":\"\",\"group\":\"\"}}}}}",
	  NULL },
	/* "should not panic when the v1 nodeclassRef is not defined" */
	{ "np-v1-ref-none", KP_CONVERT_V1BETA1,
	  "apiVersion: karpenter.sh/v1\n"
	  "kind: NodePool\n"
	  "metadata: {name: a}\n"
	  "spec: {template: {spec: {requirements: []}}}\n",
	  0, "{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodePool\",\"metadata\":"
	     "{\"name\":\"a\"},\"spec\":{\"template\":{\"spec\":{\"requirements\":[],"
	     "\"nodeClassRef\":{\"name\":\"\"}}}}}",
	  NULL },
};

START_TEST(upstream_rules)
{
	const rule_case *t = &rule_cases[_i];
	kp_convert *c = convert_ok(t->input, t->target);
	const char *got = kp_convert_object_json_at(c, t->index);
	ck_assert_ptr_nonnull(got);
	if (strcmp(got, t->expected)) {
		dump_report(c);
		ck_abort_msg("%s:\n got %s\nwant %s", t->name, got, t->expected);
	}
	if (t->report && !reported(c, t->report)) {
		dump_report(c);
		ck_abort_msg("%s: no report line \"%s\"", t->name, t->report);
	}
	kp_convert_free(c);
}
END_TEST

/* ---- round trips ------------------------------------------------------------ */

/* v1beta1 objects with every default the CRD would apply written out, in
 * the order conversion restores: v1beta1 -> v1 -> v1beta1 gives them back
 * byte for byte. */
static const char *const round_trips[] = {
	"{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"a\","
	"\"labels\":{\"x\":\"y\"}},\"spec\":{\"weight\":3,\"limits\":{\"cpu\":\"10\"},"
	"\"disruption\":{\"consolidationPolicy\":\"WhenUnderutilized\",\"expireAfter\":\"720h\","
	"\"budgets\":[{\"nodes\":\"10%\"}]},\"template\":{\"metadata\":{\"labels\":{\"a\":\"b\"}},"
	"\"spec\":{\"requirements\":[{\"key\":\"kubernetes.io/arch\",\"operator\":\"In\","
	"\"values\":[\"amd64\"],\"minValues\":1}],\"kubelet\":{\"clusterDNS\":[\"10.0.0.10\"],"
	"\"maxPods\":110,\"systemReserved\":{\"cpu\":\"100m\"},\"evictionSoft\":"
	"{\"memory.available\":\"5%\"},\"evictionSoftGracePeriod\":{\"memory.available\":\"1m0s\"}},"
	"\"nodeClassRef\":{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\","
	"\"name\":\"default\"}}}}}",
	"{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"b\"},"
	"\"spec\":{\"disruption\":{\"consolidationPolicy\":\"WhenEmpty\",\"consolidateAfter\":"
	"\"Never\",\"expireAfter\":\"Never\"},\"template\":{\"spec\":{\"requirements\":[],"
	"\"nodeClassRef\":{\"name\":\"default\"}}}},\"status\":{\"resources\":{\"cpu\":\"4\"}}}",
	"{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodeClaim\",\"metadata\":{\"name\":\"c\"},"
	"\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}],\"requirements\":[],"
	"\"resources\":{\"requests\":{\"cpu\":\"1\"}},\"kubelet\":{\"maxPods\":20},"
	"\"nodeClassRef\":{\"kind\":\"EC2NodeClass\",\"name\":\"default\"}},\"status\":"
	"{\"nodeName\":\"node-1\",\"providerID\":\"aws:///us-west-2a/i-1\",\"imageID\":\"ami-1\"}}",
	"{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":"
	"{\"name\":\"d\"},\"spec\":{\"amiFamily\":\"AL2\",\"role\":\"r\",\"subnetSelectorTerms\":"
	"[{\"tags\":{\"a\":\"b\"}}],\"securityGroupSelectorTerms\":[{\"id\":\"sg-1\"}]}}",
	"{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":"
	"{\"name\":\"d\",\"annotations\":{\"compatibility.karpenter.k8s.aws/v1-alias-version\":"
	"\"v20240807\"}},\"spec\":{\"amiFamily\":\"Bottlerocket\",\"role\":\"r\"}}",
	"{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":"
	"{\"name\":\"u\"},\"spec\":{\"amiFamily\":\"Ubuntu\",\"role\":\"r\"}}",
	"{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":"
	"{\"name\":\"u\"},\"spec\":{\"amiFamily\":\"Ubuntu\",\"amiSelectorTerms\":[{\"name\":"
	"\"ubuntu-*\",\"owner\":\"099720109477\"}],\"blockDeviceMappings\":[{\"deviceName\":"
	"\"/dev/sda1\",\"rootVolume\":true,\"ebs\":{\"volumeSize\":\"50Gi\"}}],\"role\":\"r\"}}",
	"{\"apiVersion\":\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":"
	"{\"name\":\"w\"},\"spec\":{\"amiFamily\":\"Windows2022\",\"amiSelectorTerms\":[{\"tags\":"
	"{\"k\":\"v\"}}],\"metadataOptions\":{\"httpTokens\":\"required\"},\"role\":\"r\"}}",
};

START_TEST(round_trip_v1beta1)
{
	const char *in = round_trips[_i];
	kp_convert *up = convert_ok(in, KP_CONVERT_V1);
	char *v1 = NULL;
	ck_assert_int_eq(kp_convert_write(&v1, NULL, up, KP_FORMAT_JSON, NULL), KP_OK);
	kp_convert *down = convert_ok(v1, KP_CONVERT_V1BETA1);
	ck_assert_uint_eq(kp_convert_object_count(down), 1);
	ck_assert_str_eq(kp_convert_object_json_at(down, 0), in);
	/* and v1 -> v1beta1 -> v1 gives the v1 object back */
	char *back = NULL;
	ck_assert_int_eq(kp_convert_write(&back, NULL, down, KP_FORMAT_JSON, NULL), KP_OK);
	kp_convert *again = convert_ok(back, KP_CONVERT_V1);
	ck_assert_str_eq(kp_convert_object_json_at(again, 0), kp_convert_object_json_at(up, 0));
	kp_encoded_free(v1);
	kp_encoded_free(back);
	kp_convert_free(up);
	kp_convert_free(down);
	kp_convert_free(again);
}
END_TEST

/* Inputs the fuzzer found (tests/fuzz/fuzz_convert.c): once converted to
 * v1, v1 -> v1beta1 -> v1 gives the same objects. */
static const char *const fixed_points[] = {
	/* duplicate keys: the last wins */
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\nspec:\n"
	"  weight: 1\n  template: {spec: {requirements: [], nodeClassRef: {name: x}}}\n  weight: 2\n",
	/* no nodeClassRef: the "null" annotation */
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {template: {spec: {requirements: []}}}\n",
	/* a reference of an apiVersion only */
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {template: {spec: {requirements: [], nodeClassRef: {apiVersion: g/v1}}}}\n",
	/* consolidateAfter under the defaulted WhenUnderutilized */
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {disruption: {consolidateAfter: 60s}, template: {spec: {requirements: [], "
	"nodeClassRef: {name: x}}}}\n",
	/* annotations that are not a map are refused, so nothing to check; a
	 * reference with an unknown member keeps it */
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {template: {spec: {requirements: [], nodeClassRef: {n_me: x, kind: K}}}}\n",
	/* a group in a v1beta1 reference (pruned by the API server) before the
	 * kind: v1's group is written in Go's order, not where it stood */
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {template: {spec: {requirements: [], nodeClassRef: {group: g, kind: K, name: x}}}}\n",
	/* a null member of the reference (a YAML comment where the value
	 * should be) reads as "", as Go decodes it, in both directions */
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {template: {spec: {requirements: [], nodeClassRef: {kind: K, name: null}}}}\n",
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a}\n"
	"spec: {template: {spec: {requirements: [], nodeClassRef: {kind: null, name: x, "
	"apiVersion: null}}}}\n",
	/* null members anywhere are pruned, as the API server prunes them */
	"apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata: {name: a}\n"
	"spec: {amiFamily: Bottlerocket, role: r, kubelet: null}\n",
	/* a kubelet in a v1beta1 EC2NodeClass (not a v1beta1 field) */
	"apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata: {name: a}\n"
	"spec: {amiFamily: AL2, role: r, kubelet: {maxPods: 1}}\n",
	/* an alias term in a v1beta1 EC2NodeClass (not a v1beta1 field) */
	"apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata: {name: a}\n"
	"spec: {role: r, amiSelectorTerms: [{alias: al2023@latest}, {tags: {a: b}}]}\n",
	"apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: a, annotations: null}\n"
	"spec: {disruption: {consolidateAfter: null, budgets: [{nodes: null}]}, template: "
	"{metadata: null, spec: {requirements: [], kubelet: null, nodeClassRef: {name: x}}}}\n",
};

START_TEST(round_trip_fixed_point)
{
	kp_convert *x = convert_ok(fixed_points[_i], KP_CONVERT_V1);
	char *text = NULL;
	ck_assert_int_eq(kp_convert_write(&text, NULL, x, KP_FORMAT_JSON, NULL), KP_OK);
	kp_convert *b = convert_ok(text, KP_CONVERT_V1BETA1);
	kp_encoded_free(text);
	ck_assert_int_eq(kp_convert_write(&text, NULL, b, KP_FORMAT_JSON, NULL), KP_OK);
	kp_convert *x2 = convert_ok(text, KP_CONVERT_V1);
	kp_encoded_free(text);
	ck_assert_str_eq(kp_convert_object_json_at(x2, 0), kp_convert_object_json_at(x, 0));
	kp_convert_free(x);
	kp_convert_free(b);
	kp_convert_free(x2);
}
END_TEST

START_TEST(annotations_not_a_map_are_refused)
{
	kp_registry *reg = aws_registry();
	kp_error e = KP_ERROR_INIT;
	int rc;
	kp_convert *c = convert_text("apiVersion: karpenter.sh/v1beta1\nkind: NodePool\n"
				     "metadata: {name: a, annotations: text}\n"
				     "spec: {template: {spec: {requirements: [], nodeClassRef: "
				     "{name: x}}}}\n", KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_EINVAL);
	ck_assert_str_eq(e.message, "NodePool/a: metadata.annotations: expected an object");
	kp_convert_free(c);
	kp_registry_free(reg);
}
END_TEST

/* ---- the kubelet migration -------------------------------------------------- */

#define NODEPOOL(name, class, kubelet) \
	"---\napiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: " name "}\n" \
	"spec:\n  template:\n    spec:\n      requirements: []\n" kubelet \
	"      nodeClassRef: {apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: " \
	class "}\n"
#define CLASS(name) \
	"---\napiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata: {name: " name \
	"}\nspec: {amiFamily: AL2023, role: r}\n"

static const char *name_of(kp_convert *c, size_t i)
{
	static char buf[128];
	const char *j = kp_convert_object_json_at(c, i);
	const char *m = strstr(j, "\"metadata\":{\"name\":\"");
	ck_assert_ptr_nonnull(m);
	m += strlen("\"metadata\":{\"name\":\"");
	size_t n = strcspn(m, "\"");
	ck_assert_uint_lt(n, sizeof(buf));
	memcpy(buf, m, n);
	buf[n] = '\0';
	return buf;
}

START_TEST(kubelet_moves_and_splits)
{
	kp_convert *c = convert_ok(CLASS("default")
				   NODEPOOL("a", "default", "      kubelet: {maxPods: 10}\n")
				   NODEPOOL("b", "default", "      kubelet: {maxPods: 20}\n")
				   NODEPOOL("c", "default", "")
				   NODEPOOL("d", "default", "      kubelet: {maxPods: 10}\n")
				   CLASS("other")
				   NODEPOOL("e", "other", ""), KP_CONVERT_V1);
	/* the class, its copies in NodePool order, then the rest in order */
	static const char *const order[] = { "default", "default-b", "default-c", "a", "b", "c",
					     "d", "other", "e" };
	ck_assert_uint_eq(kp_convert_object_count(c), 9);
	for (size_t i = 0; i < 9; i++)
		ck_assert_str_eq(name_of(c, i), order[i]);
	/* the first NodePool's kubelet goes to the class */
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 0), "\"kubelet\":{\"maxPods\":10}"));
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 1), "\"kubelet\":{\"maxPods\":20}"));
	/* no kubelet counts as different: c's copy has none */
	ck_assert_ptr_null(strstr(kp_convert_object_json_at(c, 2), "kubelet"));
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 2),
				     "\"name\":\"default-c\""));
	/* the NodePools point at their classes and keep upstream's annotation */
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 4),
				     "\"nodeClassRef\":{\"group\":\"karpenter.k8s.aws\",\"kind\":"
				     "\"EC2NodeClass\",\"name\":\"default-b\"}"));
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 4),
				     "\"compatibility.karpenter.sh/v1beta1-kubelet-conversion\":"
				     "\"{\\\"maxPods\\\":20}\""));
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 6), "\"name\":\"default\"}"));
	ck_assert_ptr_null(strstr(kp_convert_object_json_at(c, 7), "kubelet"));
	ck_assert(reported(c, "split: EC2NodeClass/default-b from EC2NodeClass/default for "
			      "NodePool/b (its kubelet differs)"));
	ck_assert(reported(c, "moved: NodePool/a: spec.template.spec.kubelet -> "
			      "EC2NodeClass/default spec.kubelet"));
	kp_convert_free(c);
}
END_TEST

/* Copies of two classes made in interleaved order land after their own
 * class each, in the order they were made. */
START_TEST(kubelet_splits_of_two_classes)
{
	kp_convert *c = convert_ok(CLASS("a") CLASS("b")
				   NODEPOOL("p1", "a", "      kubelet: {maxPods: 1}\n")
				   NODEPOOL("p2", "b", "      kubelet: {maxPods: 1}\n")
				   NODEPOOL("p3", "b", "      kubelet: {maxPods: 3}\n")
				   NODEPOOL("p4", "a", "      kubelet: {maxPods: 4}\n")
				   NODEPOOL("p5", "a", "      kubelet: {maxPods: 5}\n"), KP_CONVERT_V1);
	static const char *const order[] = { "a", "a-p4", "a-p5", "b", "b-p3", "p1", "p2", "p3",
					     "p4", "p5" };
	ck_assert_uint_eq(kp_convert_object_count(c), 10);
	for (size_t i = 0; i < 10; i++)
		ck_assert_str_eq(name_of(c, i), order[i]);
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 2), "\"kubelet\":{\"maxPods\":5}"));
	kp_convert_free(c);
}
END_TEST

/* Objects already at v1 pass through: a v1 NodePool's kubelet annotation
 * (a webhook's) is left alone, and a v1 NodePool holds its class before
 * converted ones, so a converted NodePool with another kubelet splits. */
START_TEST(kubelet_migration_leaves_v1_alone)
{
	const char *v1 =
		"{\"apiVersion\":\"karpenter.k8s.aws/v1\",\"kind\":\"EC2NodeClass\",\"metadata\":"
		"{\"name\":\"default\"},\"spec\":{\"amiSelectorTerms\":[{\"alias\":\"al2023@latest\"}],"
		"\"role\":\"r\"}}\n"
		"{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":\"NodePool\",\"metadata\":{\"name\":\"old\","
		"\"annotations\":{\"compatibility.karpenter.sh/v1beta1-kubelet-conversion\":"
		"\"{\\\"maxPods\\\":7}\"}},\"spec\":{\"template\":{\"spec\":{\"requirements\":[],"
		"\"nodeClassRef\":{\"group\":\"karpenter.k8s.aws\",\"kind\":\"EC2NodeClass\","
		"\"name\":\"default\"}}}}}\n";
	kp_convert *c = convert_ok(v1, KP_CONVERT_V1);
	ck_assert_uint_eq(kp_convert_object_count(c), 2);
	ck_assert_ptr_null(strstr(kp_convert_object_json_at(c, 0), "kubelet"));
	kp_convert_free(c);
	char *mixed = NULL;
	size_t n = strlen(v1) + 512;
	mixed = malloc(n);
	snprintf(mixed, n, "%s%s", v1, "{\"apiVersion\":\"karpenter.sh/v1beta1\",\"kind\":\"NodePool\","
		 "\"metadata\":{\"name\":\"new\"},\"spec\":{\"template\":{\"spec\":{\"requirements\":[],"
		 "\"kubelet\":{\"maxPods\":9},\"nodeClassRef\":{\"name\":\"default\"}}}}}");
	c = convert_ok(mixed, KP_CONVERT_V1);
	free(mixed);
	ck_assert_uint_eq(kp_convert_object_count(c), 4);
	ck_assert_str_eq(name_of(c, 1), "default-new");
	ck_assert_ptr_null(strstr(kp_convert_object_json_at(c, 0), "kubelet"));
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 1), "\"kubelet\":{\"maxPods\":9}"));
	kp_convert_free(c);
}
END_TEST

START_TEST(kubelet_without_class_stays_annotated)
{
	kp_convert *c = convert_ok(NODEPOOL("a", "missing", "      kubelet: {maxPods: 10}\n"),
				   KP_CONVERT_V1);
	ck_assert_uint_eq(kp_convert_object_count(c), 1);
	ck_assert(reported(c, "warning: NodePool/a: EC2NodeClass/missing is not among the inputs: "
			      "its kubelet stays in metadata.annotations[compatibility.karpenter.sh/"
			      "v1beta1-kubelet-conversion]; move it to the EC2NodeClass's "
			      "spec.kubelet"));
	kp_convert_free(c);
	/* and the migration can be turned off: upstream's webhook alone */
	kp_registry *reg = aws_registry();
	kp_convert_options o = KP_CONVERT_OPTIONS_INIT;
	o.registry = reg;
	o.flags = KP_CONVERT_NO_KUBELET_MIGRATION;
	const char *in = CLASS("default") NODEPOOL("a", "default", "      kubelet: {maxPods: 10}\n");
	ck_assert_int_eq(kp_convert_new(&c, &o, NULL), KP_OK);
	ck_assert_int_eq(kp_convert_add(c, in, strlen(in), NULL, NULL), KP_OK);
	ck_assert_int_eq(kp_convert_run(c, NULL), KP_OK);
	ck_assert_ptr_null(strstr(kp_convert_object_json_at(c, 0), "kubelet"));
	kp_convert_free(c);
	kp_registry_free(reg);
}
END_TEST

/* ---- pass-through, order, formats ------------------------------------------- */

START_TEST(other_kinds_pass_through)
{
	const char *in = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"
			 "data: {b: \"1\", a: \"2\"}\n---\n"
			 "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: x}\n"
			 "spec: {requirements: [], nodeClassRef: {group: g, kind: K, name: nc1}}\n---\n"
			 "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"
			 "spec: {template: {metadata: {annotations: "
			 "{karpenter.sh/do-not-evict: \"true\"}}}}\n";
	kp_convert *c = convert_ok(in, KP_CONVERT_V1);
	ck_assert_uint_eq(kp_convert_object_count(c), 3);
	ck_assert_str_eq(kp_convert_object_json_at(c, 0), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
			 "\"metadata\":{\"name\":\"cm\"},\"data\":{\"b\":\"1\",\"a\":\"2\"}}");
	ck_assert_str_eq(kp_convert_object_json_at(c, 1), "{\"apiVersion\":\"karpenter.sh/v1\",\"kind\":"
			 "\"NodeClaim\",\"metadata\":{\"name\":\"x\"},\"spec\":{\"requirements\":[],"
			 "\"nodeClassRef\":{\"group\":\"g\",\"kind\":\"K\",\"name\":\"nc1\"}}}");
	ck_assert(reported(c, "warning: Deployment/web: the pod template carries "
			      "karpenter.sh/do-not-evict, which Karpenter v1 ignores: use "
			      "karpenter.sh/do-not-disrupt"));
	char *yaml = NULL;
	ck_assert_int_eq(kp_convert_write(&yaml, NULL, c, KP_FORMAT_YAML, NULL), KP_OK);
	ck_assert_ptr_nonnull(strstr(yaml, "data:\n  b: \"1\"\n  a: \"2\"\n---\napiVersion: "
					   "karpenter.sh/v1\n"));
	kp_encoded_free(yaml);
	char *json = NULL;
	ck_assert_int_eq(kp_convert_write(&json, NULL, c, KP_FORMAT_JSON, NULL), KP_OK);
	ck_assert(!strncmp(json, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n", 41));
	kp_encoded_free(json);
	kp_convert_free(c);
}
END_TEST

START_TEST(lists_and_json_input)
{
	const char *in = "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[{\"apiVersion\":"
			 "\"karpenter.k8s.aws/v1beta1\",\"kind\":\"EC2NodeClass\",\"metadata\":"
			 "{\"name\":\"d\"},\"spec\":{\"amiFamily\":\"AL2\",\"role\":\"r\"}}]}";
	kp_convert *c = convert_ok(in, KP_CONVERT_V1);
	ck_assert_uint_eq(kp_convert_object_count(c), 1);
	ck_assert_str_eq(kp_convert_object_json_at(c, 0), "{\"apiVersion\":\"karpenter.k8s.aws/v1\","
			 "\"kind\":\"EC2NodeClass\",\"metadata\":{\"name\":\"d\"},\"spec\":"
			 "{\"amiSelectorTerms\":[{\"alias\":\"al2@latest\"}],\"role\":\"r\"}}");
	kp_convert_free(c);
}
END_TEST

/* ---- errors and misuse ---------------------------------------------------------- */

START_TEST(bad_annotation_is_refused)
{
	kp_registry *reg = aws_registry();
	kp_error e = KP_ERROR_INIT;
	int rc;
	kp_convert *c = convert_text("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n"
				     "  name: a\n  annotations:\n"
				     "    compatibility.karpenter.sh/v1beta1-kubelet-conversion: '{'\n"
				     "spec: {template: {spec: {requirements: [], nodeClassRef: "
				     "{group: g, kind: K, name: n}}}}\n",
				     KP_CONVERT_V1BETA1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_EINVAL);
	ck_assert_str_eq(e.message, "NodePool/a: metadata.annotations[compatibility.karpenter.sh/"
				    "v1beta1-kubelet-conversion]: unmarshaling kubelet config "
				    "annotation: not a JSON object");
	ck_assert_uint_eq(kp_convert_object_count(c), 0);
	ck_assert_int_eq(kp_convert_run(c, NULL), KP_EINVAL); /* once only */
	ck_assert_int_eq(kp_convert_add(c, "{}", 2, NULL, NULL), KP_EINVAL);
	kp_convert_free(c);
	c = convert_text("a: [", KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_EPARSE);
	ck_assert(!strncmp(e.message, "test.yaml: ", 11));
	kp_convert_free(c);
	c = convert_text("- 1\n", KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_EINVAL);
	ck_assert_str_eq(e.message, "test.yaml: document 1: expected an object, got array");
	kp_convert_free(c);
	kp_convert_options o = KP_CONVERT_OPTIONS_INIT;
	o.target = 7;
	ck_assert_int_eq(kp_convert_new(&c, &o, NULL), KP_EINVAL);
	ck_assert_ptr_null(c);
	kp_registry_free(reg);
}
END_TEST

START_TEST(launch_template_is_refused)
{
	kp_registry *reg = aws_registry();
	kp_error e = KP_ERROR_INIT;
	int rc;
	kp_convert *c = convert_text("apiVersion: karpenter.k8s.aws/v1alpha1\nkind: AWSNodeTemplate\n"
				     "metadata: {name: lt}\nspec:\n  launchTemplate: my-template\n"
				     "  subnetSelector: {karpenter.sh/discovery: demo}\n",
				     KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_EINVAL);
	ck_assert_str_eq(e.field, "spec.launchTemplate");
	ck_assert_str_eq(e.message, "AWSNodeTemplate/lt: spec.launchTemplate: v1 has no launch "
				    "templates: move its settings (AMI, user data, block devices, "
				    "security groups, metadata options) into the EC2NodeClass");
	kp_convert_free(c);
	/* an inline provider block nobody converts is refused, not dropped */
	kp_registry_free(reg);
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	c = convert_text("apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata: {name: p}\n"
			 "spec: {provider: {subnetSelector: {a: b}}}\n", KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_EINVAL);
	ck_assert_str_eq(e.field, "spec.provider");
	kp_convert_free(c);
	kp_registry_free(reg);
}
END_TEST

/* Shapes the API server refuses but a file may hold (found by fuzz-convert,
 * both crashed on a member without a name): a template spec that is not an
 * object is refused, a selector written as a list converts to no terms. */
START_TEST(template_shapes_that_are_not_objects)
{
	kp_registry *reg = aws_registry();
	kp_error e = KP_ERROR_INIT;
	int rc;
	kp_convert *c = convert_text("apiVersion: karpenter.k8s.aws/v1alpha1\nkind: AWSNodeTemplate\n"
				     "metadata: {name: t}\nspec:\n - subnetSelector\n",
				     KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_EINVAL);
	ck_assert_str_eq(e.field, "spec");
	ck_assert_str_eq(e.message, "AWSNodeTemplate/t: spec: Invalid value: must be an object");
	kp_convert_free(c);
	c = convert_text("apiVersion: karpenter.k8s.aws/v1alpha1\nkind: AWSNodeTemplate\n"
			 "metadata: {name: t}\nspec:\n  subnetSelector: [a, b]\n"
			 "  securityGroupSelector: {karpenter.sh/discovery: demo}\n",
			 KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_msg(rc == KP_OK, "%s", e.message);
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 0), "\"subnetSelectorTerms\":[{}]"));
	kp_convert_free(c);
	kp_registry_free(reg);
}
END_TEST

/* The instance profile a template names is kept, and then no role is
 * written (karpenter-convert dropped it for the role placeholder). */
START_TEST(instance_profile_is_kept)
{
	kp_convert *c = convert_ok("apiVersion: karpenter.k8s.aws/v1alpha1\nkind: AWSNodeTemplate\n"
				   "metadata: {name: t}\nspec: {instanceProfile: my-profile}\n",
				   KP_CONVERT_V1);
	const char *j = kp_convert_object_json_at(c, 0);
	ck_assert_ptr_nonnull(strstr(j, "\"instanceProfile\":\"my-profile\""));
	ck_assert_ptr_null(strstr(j, "\"role\""));
	ck_assert(!reported(c, "warning: EC2NodeClass/t: spec.role is $KARPENTER_NODE_ROLE: replace "
			       "it with the name of your nodes' IAM role"));
	kp_convert_free(c);
	c = convert_ok("apiVersion: karpenter.k8s.aws/v1alpha1\nkind: AWSNodeTemplate\n"
		       "metadata: {name: t}\nspec: {}\n", KP_CONVERT_V1);
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 0),
				     "\"role\":\"$KARPENTER_NODE_ROLE\""));
	ck_assert(reported(c, "warning: EC2NodeClass/t: spec.role is $KARPENTER_NODE_ROLE: replace "
			      "it with the name of your nodes' IAM role"));
	kp_convert_free(c);
}
END_TEST

/* knative's condition severity (v1alpha5 Machines) has no place in
 * metav1.Condition: dropped, reported, and the output validates. */
START_TEST(machine_condition_severity_is_dropped)
{
	kp_convert *c = convert_ok("apiVersion: karpenter.sh/v1alpha5\nkind: Machine\n"
				   "metadata: {name: m}\nspec: {requirements: [], "
				   "machineTemplateRef: {name: d}}\nstatus:\n  conditions:\n"
				   "  - {type: MachineLaunched, status: \"True\", severity: Info}\n",
				   KP_CONVERT_V1);
	const char *j = kp_convert_object_json_at(c, 0);
	ck_assert_ptr_nonnull(strstr(j, "\"conditions\":[{\"type\":\"Launched\",\"status\":\"True\"}]"));
	ck_assert(reported(c, "dropped: Machine/m: status.conditions[0].severity"));
	kp_convert_free(c);
}
END_TEST

/* ---- a third-party provider's conversion through the registry ------------------- */

static int foo_convert(void *self, const char *json, const char *api_version, const char *kind,
		       uint32_t target, kp_conversion_sink *sink, kp_error *err)
{
	(void)self;
	(void)err;
	(void)json;
	if (target != KP_CONVERT_V1 || strcmp(api_version, "example.com/v1beta1") ||
	    strcmp(kind, "FooClass"))
		return KP_ENOTSUP;
	kp_conversion_sink_report(sink, "renamed: FooClass/f: spec.old -> spec.new");
	return kp_conversion_sink_emit(sink, "{\"apiVersion\":\"example.com/v1\",\"kind\":"
					     "\"FooClass\",\"metadata\":{\"name\":\"f\"}}");
}

static int destroyed;
static void foo_destroy(void *self)
{
	(void)self;
	destroyed++;
}

START_TEST(third_party_conversion)
{
	kp_registry *reg = NULL;
	ck_assert_int_eq(kp_registry_new(&reg, NULL), KP_OK);
	kp_conversion_ops ops = KP_CONVERSION_OPS_INIT;
	ops.flags = KP_CONVERSION_F_NODE_CLASS;
	ops.name = "foo";
	ops.node_class_group = "example.com";
	ops.node_class_kind = "FooClass";
	ops.convert = foo_convert;
	ops.destroy = foo_destroy;
	ck_assert_int_eq(kp_registry_add_conversion(reg, &ops, &ops, NULL), KP_OK);
	kp_conversion_ops bad = ops;
	bad.abi_major = 1;
	ck_assert_int_eq(kp_registry_add_conversion(reg, &bad, NULL, NULL), KP_EVERSION);
	bad = ops;
	bad.convert = NULL;
	ck_assert_int_eq(kp_registry_add_conversion(reg, &bad, NULL, NULL), KP_EINVAL);
	kp_error e = KP_ERROR_INIT;
	int rc;
	destroyed = 0;
	kp_convert *c = convert_text("apiVersion: example.com/v1beta1\nkind: FooClass\n"
				     "metadata: {name: f}\nspec: {old: 1}\n---\n"
				     "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\n"
				     "metadata: {name: p}\nspec: {template: {spec: {requirements: [],"
				     " nodeClassRef: {name: f}}}}\n", KP_CONVERT_V1, reg, &rc, &e);
	ck_assert_int_eq(rc, KP_OK);
	ck_assert_str_eq(kp_convert_object_json_at(c, 0), "{\"apiVersion\":\"example.com/v1\",\"kind\":"
			 "\"FooClass\",\"metadata\":{\"name\":\"f\"}}");
	/* the provider's node class is the default of a reference without kind */
	ck_assert_ptr_nonnull(strstr(kp_convert_object_json_at(c, 1), "\"nodeClassRef\":{\"kind\":"
				     "\"FooClass\",\"name\":\"f\",\"group\":\"example.com\"}"));
	ck_assert(reported(c, "renamed: FooClass/f: spec.old -> spec.new"));
	kp_convert_free(c);
	kp_registry_free(reg);
	ck_assert_int_eq(destroyed, 1);
}
END_TEST

/* ---- upstream's example manifests -------------------------------------------- */

/* Call fn on the text of each *.yaml file of a shared-data folder; the
 * number of files. */
static size_t each_example(const char *folder, void (*fn)(const char *file, const char *text))
{
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", kp_test_data_path(folder));
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	struct dirent *de;
	size_t files = 0;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 5, ".yaml"))
			continue;
		char path[8192];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		size_t len = 0;
		char *text = kp_test_read_file(path, &len);
		fn(de->d_name, text);
		free(text);
		files++;
	}
	closedir(d);
	return files;
}

static void v1beta1_example(const char *file, const char *text)
{
	kp_convert *c = convert_ok(text, KP_CONVERT_V1);
	char *v1 = NULL;
	ck_assert_int_eq(kp_convert_write(&v1, NULL, c, KP_FORMAT_JSON, NULL), KP_OK);
	for (size_t i = 0; i < kp_convert_object_count(c); i++)
		ck_assert_msg(!strstr(kp_convert_object_json_at(c, i), "v1beta1\",\"kind"),
			      "%s: object %zu not converted", file, i);
	kp_convert *down = convert_ok(v1, KP_CONVERT_V1BETA1);
	char *beta = NULL;
	ck_assert_int_eq(kp_convert_write(&beta, NULL, down, KP_FORMAT_JSON, NULL), KP_OK);
	kp_convert *up = convert_ok(beta, KP_CONVERT_V1);
	ck_assert_uint_eq(kp_convert_object_count(up), kp_convert_object_count(c));
	for (size_t i = 0; i < kp_convert_object_count(c); i++)
		ck_assert_str_eq(kp_convert_object_json_at(up, i), kp_convert_object_json_at(c, i));
	/* the YAML output reads back to the same objects */
	char *yaml = NULL;
	ck_assert_int_eq(kp_convert_write(&yaml, NULL, c, KP_FORMAT_YAML, NULL), KP_OK);
	kp_convert *again = convert_ok(yaml, KP_CONVERT_V1);
	ck_assert_uint_eq(kp_convert_object_count(again), kp_convert_object_count(c));
	for (size_t i = 0; i < kp_convert_object_count(c); i++)
		ck_assert_str_eq(kp_convert_object_json_at(again, i), kp_convert_object_json_at(c, i));
	kp_encoded_free(yaml);
	kp_convert_free(again);
	kp_encoded_free(v1);
	kp_encoded_free(beta);
	kp_convert_free(c);
	kp_convert_free(down);
	kp_convert_free(up);
}

/* Every v1beta1 example converts; v1 -> v1beta1 -> v1 gives the same v1. */
START_TEST(v1beta1_examples_convert)
{
	ck_assert_uint_ge(each_example("manifests/v1beta1", v1beta1_example), 20);
}
END_TEST

/*
 * Where upstream ships a v1 counterpart of a v1beta1 example, the converted
 * objects differ from it only where a rule says so: the nodeclass-reference
 * annotation conversion writes, and amiFamily AL2 becoming al2@latest where
 * upstream's v1 example moved on to AL2023. One line per difference.
 */
static void diff_json(const cJSON *a, const cJSON *b, const char *path, char *out, size_t size)
{
	char sub[1024];
	if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
		const cJSON *x;
		cJSON_ArrayForEach(x, a) {
			snprintf(sub, sizeof(sub), "%s.%s", path, x->string);
			const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
			if (!y)
				snprintf(out + strlen(out), size - strlen(out), "- %s\n", sub);
			else
				diff_json(x, y, sub, out, size);
		}
		cJSON_ArrayForEach(x, b) {
			if (!cJSON_GetObjectItemCaseSensitive(a, x->string))
				snprintf(out + strlen(out), size - strlen(out), "+ %s.%s\n", path,
					 x->string);
		}
		return;
	}
	if (cJSON_IsArray(a) && cJSON_IsArray(b) && cJSON_GetArraySize(a) == cJSON_GetArraySize(b)) {
		for (int i = 0; i < cJSON_GetArraySize(a); i++) {
			snprintf(sub, sizeof(sub), "%s[%d]", path, i);
			diff_json(cJSON_GetArrayItem(a, i), cJSON_GetArrayItem(b, i), sub, out, size);
		}
		return;
	}
	if (!cJSON_Compare(a, b, 1)) {
		char *x = cJSON_PrintUnformatted(a), *y = cJSON_PrintUnformatted(b);
		snprintf(out + strlen(out), size - strlen(out), "~ %s: %s -> %s\n", path, x, y);
		free(x);
		free(y);
	}
}

/* "- annotation": the nodeclass-reference annotation conversion writes;
 * "~ alias": AL2 becomes al2@latest, where upstream's v1 example moved to
 * AL2023 (al2023@v20240625 where it pinned a version);
 * windows-custom-userdata.yaml: upstream's v1 example writes
 * nodeClassRef.group "karpenter.k8s.aws/v1" (a version in a group, which
 * v1 validation refuses) and keeps amiFamily beside the alias. */
static const struct {
	const char *v1beta1, *v1, *diff;
} example_pairs[] = {
	{ "100-cpu-limit.yaml", "100-cpu-limit.yaml",
	  "- NodePool/limitcpu100.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/default.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "al2-custom-ami.yaml", "al2-custom-ami.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n" },
	{ "al2-custom-userdata.yaml", "al2-custom-userdata.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/al2.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "al2-kubelet-log-query.yaml", "al2-kubelet-log-query.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/al2.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "al2023-custom-userdata.yaml", "al2023-custom-userdata.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n" },
	{ "bottlerocket.yaml", "bottlerocket.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n" },
	{ "br-custom-userdata.yaml", "br-custom-userdata.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n" },
	{ "custom-family.yaml", "custom-family.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n" },
	{ "general-purpose.yaml", "general-purpose.yaml",
	  "- NodePool/general-purpose.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/default.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "instance-store-ephemeral-storage.yaml", "instance-store-ephemeral-storage.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/instance-store-ephemeral-storage.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "large-instances.yaml", "large-instances.yaml",
	  "- NodePool/large-instances.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/default.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "minValues-family.yaml", "min-values-family.yaml",
	  "- NodePool/spot.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/default.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@v20240625\"\n" },
	{ "minValues-multiple-keys.yaml", "min-values-multiple-keys.yaml",
	  "- NodePool/spot.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/default.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@v20240625\"\n" },
	{ "multiple-arch.yaml", "multiple-arch.yaml",
	  "- NodePool/amd64.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "- NodePool/arm64.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/default.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "multiple-ebs.yaml", "multiple-ebs.yaml",
	  "- NodePool/default.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/multiple-ebs.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "spot.yaml", "spot.yaml",
	  "- NodePool/spot.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ EC2NodeClass/default.spec.amiSelectorTerms[0].alias: \"al2@latest\" -> \"al2023@latest\"\n" },
	{ "windows-custom-userdata.yaml", "windows-custom-userdata.yaml",
	  "- NodePool/windows2022.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n"
	  "~ NodePool/windows2022.spec.template.spec.nodeClassRef.group: \"karpenter.k8s.aws\" -> \"karpenter.k8s.aws/v1\"\n"
	  "+ EC2NodeClass/windows2022.spec.amiFamily\n" },
	{ "windows2019.yaml", "windows-2019.yaml",
	  "- NodePool/windows2019.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n" },
	{ "windows2022.yaml", "windows-2022.yaml",
	  "- NodePool/windows2022.metadata.annotations.compatibility.karpenter.sh/v1beta1-nodeclass-reference\n" },
};

START_TEST(v1beta1_examples_differ_as_the_rules_say)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/%s", kp_test_data_path("manifests/v1beta1"),
		 example_pairs[_i].v1beta1);
	size_t len = 0;
	char *text = kp_test_read_file(path, &len);
	kp_convert *c = convert_ok(text, KP_CONVERT_V1);
	free(text);
	snprintf(path, sizeof(path), "%s/%s", kp_test_data_path("manifests/v1"),
		 example_pairs[_i].v1);
	text = kp_test_read_file(path, &len);
	kp_convert *want = convert_ok(text, KP_CONVERT_V1); /* read as it is */
	free(text);
	ck_assert_uint_eq(kp_convert_object_count(c), kp_convert_object_count(want));
	char out[8192] = "";
	for (size_t i = 0; i < kp_convert_object_count(c); i++) {
		cJSON *a = cJSON_Parse(kp_convert_object_json_at(c, i));
		cJSON *b = cJSON_Parse(kp_convert_object_json_at(want, i));
		char where[256];
		snprintf(where, sizeof(where), "%s/%s",
			 cJSON_GetObjectItem(a, "kind")->valuestring,
			 cJSON_GetObjectItem(cJSON_GetObjectItem(a, "metadata"), "name")->valuestring);
		diff_json(a, b, where, out, sizeof(out));
		cJSON_Delete(a);
		cJSON_Delete(b);
	}
	ck_assert_msg(!strcmp(out, example_pairs[_i].diff), "%s:\n%s", example_pairs[_i].v1beta1,
		      out);
	kp_convert_free(c);
	kp_convert_free(want);
}
END_TEST

static void v1alpha5_example(const char *file, const char *text)
{
	kp_convert *c = convert_ok(text, KP_CONVERT_V1);
	ck_assert_uint_ge(kp_convert_object_count(c), 2);
	for (size_t i = 0; i < kp_convert_object_count(c); i++) {
		const char *j = kp_convert_object_json_at(c, i);
		ck_assert_msg(!strncmp(j, "{\"apiVersion\":\"karpenter.sh/v1\"", 31) ||
			      !strncmp(j, "{\"apiVersion\":\"karpenter.k8s.aws/v1\"", 36),
			      "%s: object %zu: %s", file, i, j);
	}
	kp_convert_free(c);
}

/* Every v1alpha5 example converts to v1 objects only (they validate:
 * tests/tools/test-convert.sh). */
START_TEST(v1alpha5_examples_convert)
{
	ck_assert_uint_ge(each_example("manifests/v1alpha5", v1alpha5_example), 9);
}
END_TEST

static Suite *convert_suite(void)
{
	Suite *s = suite_create("convert");
	TCase *tc = tcase_create("upstream rules");
	tcase_add_loop_test(tc, upstream_rules, 0, sizeof(rule_cases) / sizeof(rule_cases[0]));
	suite_add_tcase(s, tc);
	tc = tcase_create("round trips");
	tcase_add_loop_test(tc, round_trip_v1beta1, 0, sizeof(round_trips) / sizeof(round_trips[0]));
	tcase_add_loop_test(tc, round_trip_fixed_point, 0,
			    sizeof(fixed_points) / sizeof(fixed_points[0]));
	tcase_add_test(tc, annotations_not_a_map_are_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("kubelet migration");
	tcase_add_test(tc, kubelet_moves_and_splits);
	tcase_add_test(tc, kubelet_splits_of_two_classes);
	tcase_add_test(tc, kubelet_migration_leaves_v1_alone);
	tcase_add_test(tc, kubelet_without_class_stays_annotated);
	suite_add_tcase(s, tc);
	tc = tcase_create("stream");
	tcase_add_test(tc, other_kinds_pass_through);
	tcase_add_test(tc, lists_and_json_input);
	tcase_add_test(tc, bad_annotation_is_refused);
	tcase_add_test(tc, third_party_conversion);
	tcase_add_test(tc, launch_template_is_refused);
	tcase_add_test(tc, template_shapes_that_are_not_objects);
	tcase_add_test(tc, instance_profile_is_kept);
	tcase_add_test(tc, machine_condition_severity_is_dropped);
	suite_add_tcase(s, tc);
	DIR *d = opendir(kp_test_data_path("manifests/v1beta1"));
	if (d) {
		closedir(d);
		tc = tcase_create("examples");
		tcase_set_timeout(tc, 60);
		tcase_add_test(tc, v1beta1_examples_convert);
		tcase_add_test(tc, v1alpha5_examples_convert);
		tcase_add_loop_test(tc, v1beta1_examples_differ_as_the_rules_say, 0,
				    sizeof(example_pairs) / sizeof(example_pairs[0]));
		suite_add_tcase(s, tc);
	} else {
		printf("# SKIP examples: %s is absent (meson option shared_data)\n",
		       kp_test_data_path("manifests/v1beta1"));
	}
	return s;
}

int main(void)
{
	Suite *s = convert_suite();
	return kp_test_run(&s, 1);
}
