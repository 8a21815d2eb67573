/*
 * EC2NodeClass (karpenter.k8s.aws/v1) described as data for the core's
 * provider-kind API: Go type and field names, declaration order and hash
 * tags as in aws/karpenter-provider-aws pkg/apis/v1 (main, hash version
 * v6; v1.14.1, v5), and the hash upstream's EC2NodeClass.Hash computes.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#define KP_EXPERIMENTAL_API 1
#include <stddef.h>
#include <string.h>

#include <karpenter/aws_ec2nodeclass.h>
#include <karpenter/quantity.h>

#include "aws_private.h"

#define F(k, fl, m, a, j, g, e, ct) \
	{ (k), (fl), (j), (g), offsetof(S, m), (a), (e), NULL, 0, (ct), 0 }
#define NOAUX 0
#define STR(m, j, g) F(KP_FIELD_STRING, 0, m, NOAUX, j, g, NULL, 0)
#define PSTR(m, j, g) F(KP_FIELD_STRING, KP_FIELD_F_GO_PTR, m, NOAUX, j, g, NULL, 0)
#define BOOL(m, j, g) F(KP_FIELD_BOOL, 0, m, NOAUX, j, g, NULL, 0)
#define OPT(k, m, has, j, g, fl) F(k, fl, m, offsetof(S, has), j, g, NULL, 0)
#define I32(m, j, g) F(KP_FIELD_INT32, 0, m, NOAUX, j, g, NULL, 0)
#define MAP(m, j, g) F(KP_FIELD_MAP, 0, m, NOAUX, j, g, NULL, 0)
#define STRINGS(m, n, j, g) F(KP_FIELD_STRINGS, 0, m, offsetof(S, n), j, g, NULL, 0)
#define PSTRUCT(m, j, g, T) F(KP_FIELD_STRUCT, KP_FIELD_F_GO_PTR, m, NOAUX, j, g, &(T), 0)
#define LIST(m, n, j, g, T, fl) F(KP_FIELD_LIST, fl, m, offsetof(S, n), j, g, &(T), 0)
#define IGNORED(j, g, fl) { KP_FIELD_IGNORED, (fl), (j), (g), 0, 0, NULL, NULL, 0, 0, 0 }
#define IGN KP_FIELD_F_HASH_IGNORE
#define N_(a) (sizeof(a) / sizeof((a)[0]))
#define TYPE(name, goname) \
	static const kp_schema_type name = { sizeof(kp_schema_type), sizeof(kp_schema_field), \
					     goname, sizeof(S), 0, 0, 1, 0, name##_f, N_(name##_f) }

/* ---- selector terms (all hash:"ignore" in the spec) ---- */

#define S kp_aws_selector_term
static const kp_schema_field t_subnet_term_f[] = {
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
};
TYPE(t_subnet_term, "SubnetSelectorTerm");

static const kp_schema_field t_security_group_term_f[] = {
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
	STR(name, "name", "Name"),
};
TYPE(t_security_group_term, "SecurityGroupSelectorTerm");

static const kp_schema_field t_capacity_reservation_term_f[] = {
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
	STR(owner_id, "ownerID", "OwnerID"),
	STR(instance_match_criteria, "instanceMatchCriteria", "InstanceMatchCriteria"),
};
TYPE(t_capacity_reservation_term, "CapacityReservationSelectorTerm");

static const kp_schema_field t_ami_term_f[] = {
	STR(alias, "alias", "Alias"),
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
	STR(name, "name", "Name"),
	STR(owner, "owner", "Owner"),
	STR(ssm_parameter, "ssmParameter", "SSMParameter"),
};
TYPE(t_ami_term, "AMISelectorTerm");
#undef S

#define S kp_aws_placement_group_selector
static const kp_schema_field t_placement_group_f[] = {
	PSTR(name, "name", "Name"),
	PSTR(id, "id", "ID"),
};
TYPE(t_placement_group, "PlacementGroupSelector");
#undef S

/* v1.14.1 KubeletConfiguration. */
#define S kp_aws_kubelet
static const kp_schema_field t_kubelet_f[] = {
	STRINGS(cluster_dns, n_cluster_dns, "clusterDNS", "ClusterDNS"),
	OPT(KP_FIELD_OPT_INT32, max_pods, has_max_pods, "maxPods", "MaxPods", 0),
	OPT(KP_FIELD_OPT_INT32, pods_per_core, has_pods_per_core, "podsPerCore", "PodsPerCore", 0),
	MAP(system_reserved, "systemReserved", "SystemReserved"),
	MAP(kube_reserved, "kubeReserved", "KubeReserved"),
	MAP(eviction_hard, "evictionHard", "EvictionHard"),
	MAP(eviction_soft, "evictionSoft", "EvictionSoft"),
	F(KP_FIELD_DURATION_MAP, 0, eviction_soft_grace_period, NOAUX, "evictionSoftGracePeriod",
	  "EvictionSoftGracePeriod", NULL, 0),
	OPT(KP_FIELD_OPT_INT32, eviction_max_pod_grace_period, has_eviction_max_pod_grace_period,
	    "evictionMaxPodGracePeriod", "EvictionMaxPodGracePeriod", 0),
	OPT(KP_FIELD_OPT_INT32, image_gc_high, has_image_gc_high, "imageGCHighThresholdPercent",
	    "ImageGCHighThresholdPercent", 0),
	OPT(KP_FIELD_OPT_INT32, image_gc_low, has_image_gc_low, "imageGCLowThresholdPercent",
	    "ImageGCLowThresholdPercent", 0),
	OPT(KP_FIELD_OPT_BOOL, cpu_cfs_quota, has_cpu_cfs_quota, "cpuCFSQuota", "CPUCFSQuota", 0),
};
TYPE(t_kubelet, "KubeletConfiguration");
#undef S

#define S kp_aws_block_device
static const kp_schema_field t_block_device_f[] = {
	OPT(KP_FIELD_OPT_BOOL, delete_on_termination, has_delete_on_termination,
	    "deleteOnTermination", "DeleteOnTermination", 0),
	OPT(KP_FIELD_OPT_BOOL, encrypted, has_encrypted, "encrypted", "Encrypted", 0),
	OPT(KP_FIELD_OPT_INT64, iops, has_iops, "iops", "IOPS", 0),
	PSTR(kms_key_id, "kmsKeyID", "KMSKeyID"),
	PSTR(snapshot_id, "snapshotID", "SnapshotID"),
	OPT(KP_FIELD_OPT_INT64, throughput, has_throughput, "throughput", "Throughput", 0),
	OPT(KP_FIELD_OPT_INT32, volume_initialization_rate, has_volume_initialization_rate,
	    "volumeInitializationRate", "VolumeInitializationRate", 0),
	/* *resource.Quantity, hash:"string": hashed as its String() (the hash
	 * canonicalizes the text first) */
	F(KP_FIELD_STRING, KP_FIELD_F_GO_PTR | KP_FIELD_F_HASH_STRING, volume_size, NOAUX,
	  "volumeSize", "VolumeSize", NULL, 0),
	PSTR(volume_type, "volumeType", "VolumeType"),
};
TYPE(t_block_device, "BlockDevice");
#undef S

#define S kp_aws_block_device_mapping
static const kp_schema_field t_block_device_mapping_f[] = {
	PSTR(device_name, "deviceName", "DeviceName"),
	PSTRUCT(ebs, "ebs", "EBS", t_block_device),
	BOOL(root_volume, "rootVolume", "RootVolume"),
};
TYPE(t_block_device_mapping, "BlockDeviceMapping");
#undef S

#define S kp_aws_network_interface
static const kp_schema_field t_network_interface_f[] = {
	I32(network_card_index, "networkCardIndex", "NetworkCardIndex"),
	I32(device_index, "deviceIndex", "DeviceIndex"),
	STR(interface_type, "interfaceType", "InterfaceType"),
};
TYPE(t_network_interface, "NetworkInterface");
#undef S

#define S kp_aws_metadata_options
static const kp_schema_field t_metadata_options_f[] = {
	PSTR(http_endpoint, "httpEndpoint", "HTTPEndpoint"),
	PSTR(http_protocol_ipv6, "httpProtocolIPv6", "HTTPProtocolIPv6"),
	OPT(KP_FIELD_OPT_INT64, http_put_response_hop_limit, has_http_put_response_hop_limit,
	    "httpPutResponseHopLimit", "HTTPPutResponseHopLimit", 0),
	PSTR(http_tokens, "httpTokens", "HTTPTokens"),
};
TYPE(t_metadata_options, "MetadataOptions");
#undef S

#define S kp_aws_connection_tracking
static const kp_schema_field t_connection_tracking_f[] = {
	OPT(KP_FIELD_OPT_INT32, tcp_established_timeout, has_tcp_established_timeout,
	    "tcpEstablishedTimeout", "TCPEstablishedTimeout", 0),
	OPT(KP_FIELD_OPT_INT32, udp_stream_timeout, has_udp_stream_timeout, "udpStreamTimeout",
	    "UDPStreamTimeout", 0),
	OPT(KP_FIELD_OPT_INT32, udp_timeout, has_udp_timeout, "udpTimeout", "UDPTimeout", 0),
};
TYPE(t_connection_tracking, "ConnectionTracking");
#undef S

#define S kp_aws_cpu_options
static const kp_schema_field t_cpu_options_f[] = {
	PSTR(nested_virtualization, "nestedVirtualization", "NestedVirtualization"),
};
TYPE(t_cpu_options, "CPUOptions");
#undef S

/* The spec: the two layouts differ only in Kubelet (main: an open map,
 * hash:"ignore", kept as its JSON and hashed beside the spec as String();
 * v1.14: *KubeletConfiguration, hashed in the spec). */
#define S kp_aws_ec2nodeclass_spec
#define SPEC_FIELDS(...) \
	LIST(subnet_selector_terms, n_subnet_selector_terms, "subnetSelectorTerms", \
	     "SubnetSelectorTerms", t_subnet_term, IGN), \
	LIST(security_group_selector_terms, n_security_group_selector_terms, \
	     "securityGroupSelectorTerms", "SecurityGroupSelectorTerms", t_security_group_term, IGN), \
	LIST(capacity_reservation_selector_terms, n_capacity_reservation_selector_terms, \
	     "capacityReservationSelectorTerms", "CapacityReservationSelectorTerms", \
	     t_capacity_reservation_term, IGN), \
	PSTRUCT(placement_group_selector, "placementGroupSelector", "PlacementGroupSelector", \
		t_placement_group), \
	OPT(KP_FIELD_OPT_BOOL, associate_public_ip_address, has_associate_public_ip_address, \
	    "associatePublicIPAddress", "AssociatePublicIPAddress", 0), \
	OPT(KP_FIELD_OPT_INT32, ip_prefix_count, has_ip_prefix_count, "ipPrefixCount", \
	    "IPPrefixCount", IGN), \
	LIST(ami_selector_terms, n_ami_selector_terms, "amiSelectorTerms", "AMISelectorTerms", \
	     t_ami_term, IGN), \
	F(KP_FIELD_STRING, KP_FIELD_F_GO_PTR | IGN, ami_family, NOAUX, "amiFamily", "AMIFamily", \
	  NULL, 0), \
	PSTR(user_data, "userData", "UserData"), \
	STR(role, "role", "Role"), \
	PSTR(instance_profile, "instanceProfile", "InstanceProfile"), \
	MAP(tags, "tags", "Tags"), \
	__VA_ARGS__ \
	LIST(block_device_mappings, n_block_device_mappings, "blockDeviceMappings", \
	     "BlockDeviceMappings", t_block_device_mapping, 0), \
	PSTR(instance_store_policy, "instanceStorePolicy", "InstanceStorePolicy"), \
	LIST(network_interfaces, n_network_interfaces, "networkInterfaces", "NetworkInterfaces", \
	     t_network_interface, 0), \
	OPT(KP_FIELD_OPT_BOOL, detailed_monitoring, has_detailed_monitoring, "detailedMonitoring", \
	    "DetailedMonitoring", 0), \
	PSTRUCT(metadata_options, "metadataOptions", "MetadataOptions", t_metadata_options), \
	PSTRUCT(connection_tracking, "connectionTracking", "ConnectionTracking", \
		t_connection_tracking), \
	PSTR(context, "context", "Context"), \
	PSTRUCT(cpu_options, "cpuOptions", "CPUOptions", t_cpu_options)

static const kp_schema_field t_spec_v6_f[] = { SPEC_FIELDS(
	F(KP_FIELD_JSON, IGN, kubelet_json, NOAUX, "kubelet", "Kubelet", NULL, 0),) };
TYPE(t_spec_v6, "EC2NodeClassSpec");
static const kp_schema_field t_spec_v5_f[] = {
	SPEC_FIELDS(PSTRUCT(kubelet, "kubelet", "Kubelet", t_kubelet),)
};
TYPE(t_spec_v5, "EC2NodeClassSpec");
#undef S

/* ---- status (hash:"ignore" as a whole; decoded, encoded, not validated) ---- */

#define S kp_aws_subnet_status
static const kp_schema_field t_subnet_status_f[] = {
	STR(id, "id", "ID"),
	STR(zone, "zone", "Zone"),
	STR(zone_id, "zoneID", "ZoneID"),
};
TYPE(t_subnet_status, "Subnet");
#undef S

#define S kp_aws_security_group_status
static const kp_schema_field t_security_group_status_f[] = {
	STR(id, "id", "ID"),
	STR(name, "name", "Name"),
};
TYPE(t_security_group_status, "SecurityGroup");
#undef S

#define S kp_aws_ami_requirement
static const kp_schema_field t_ami_requirement_f[] = {
	STR(key, "key", "Key"),
	STR(operator_, "operator", "Operator"),
	STRINGS(values, n_values, "values", "Values"),
};
TYPE(t_ami_requirement, "NodeSelectorRequirement");
#undef S

#define S kp_aws_ami_status
static const kp_schema_field t_ami_status_f[] = {
	STR(id, "id", "ID"),
	BOOL(deprecated, "deprecated", "Deprecated"),
	STR(name, "name", "Name"),
	LIST(requirements, n_requirements, "requirements", "Requirements", t_ami_requirement, 0),
};
TYPE(t_ami_status, "AMI");
#undef S

#define S kp_aws_capacity_reservation_status
static const kp_schema_field t_capacity_reservation_status_f[] = {
	STR(availability_zone, "availabilityZone", "AvailabilityZone"),
	F(KP_FIELD_TIME, KP_FIELD_F_GO_PTR | IGN, end_time_ms, NOAUX, "endTime", "EndTime", NULL,
	  0),
	STR(id, "id", "ID"),
	STR(instance_match_criteria, "instanceMatchCriteria", "InstanceMatchCriteria"),
	STR(instance_type, "instanceType", "InstanceType"),
	BOOL(interruptible, "interruptible", "Interruptible"),
	STR(owner_id, "ownerID", "OwnerID"),
	STR(reservation_type, "reservationType", "ReservationType"),
	STR(state, "state", "State"),
};
TYPE(t_capacity_reservation_status, "CapacityReservation");
#undef S

#define S kp_aws_ec2nodeclass_status
static const kp_schema_field t_status_f[] = {
	LIST(subnets, n_subnets, "subnets", "Subnets", t_subnet_status, 0),
	LIST(security_groups, n_security_groups, "securityGroups", "SecurityGroups",
	     t_security_group_status, 0),
	LIST(capacity_reservations, n_capacity_reservations, "capacityReservations",
	     "CapacityReservations", t_capacity_reservation_status, 0),
	LIST(amis, n_amis, "amis", "AMIs", t_ami_status, 0),
	STR(instance_profile, "instanceProfile", "InstanceProfile"),
	F(KP_FIELD_LIST, 0, conditions, offsetof(S, n_conditions), "conditions", "Conditions", NULL,
	  KP_CORE_TYPE_CONDITION),
};
TYPE(t_status, "EC2NodeClassStatus");
#undef S

#define S kp_aws_ec2nodeclass
#define TOP_FIELDS(SPEC) \
	F(KP_FIELD_API_VERSION, 0, api_version, NOAUX, "apiVersion", "APIVersion", NULL, 0), \
	F(KP_FIELD_KIND, 0, kind, NOAUX, "kind", "Kind", NULL, 0), \
	F(KP_FIELD_STRUCT, 0, metadata, NOAUX, "metadata", "ObjectMeta", NULL, \
	  KP_CORE_TYPE_OBJECT_META), \
	F(KP_FIELD_STRUCT, 0, spec, NOAUX, "spec", "Spec", &(SPEC), 0), \
	F(KP_FIELD_STRUCT, IGN, status, NOAUX, "status", "Status", &t_status, 0)
static const kp_schema_field t_nodeclass_v6_f[] = { TOP_FIELDS(t_spec_v6) };
TYPE(t_nodeclass_v6, "EC2NodeClass");
static const kp_schema_field t_nodeclass_v5_f[] = { TOP_FIELDS(t_spec_v5) };
TYPE(t_nodeclass_v5, "EC2NodeClass");
#undef S

char *kp__aws_object_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = kp_malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

/* ---- the drift hash ------------------------------------------------------- */

/* The kind's state: its layout, CA bundle and compiled spec type. */
typedef struct ec2_kind {
	uint32_t flags;
	char *ca_bundle;
	kp_schema *spec;
} ec2_kind;

static void ec2_kind_free(void *self)
{
	ec2_kind *k = self;
	if (!k)
		return;
	kp_schema_free(k->spec);
	kp_free(k->ca_bundle);
	kp_free(k);
}

/* EC2NodeClass.AMIFamily(): spec.amiFamily, else the family of the first
 * amiSelectorTerm alias ("al2023@latest" -> "AL2023"), else "Custom". */
static const char *ami_family(const kp_aws_ec2nodeclass_spec *spec, char *buf, size_t size)
{
	if (spec && spec->ami_family)
		return spec->ami_family;
	for (size_t i = 0; spec && i < spec->n_ami_selector_terms; i++) {
		const kp_aws_selector_term *t = spec->ami_selector_terms[i];
		if (!t || !t->alias)
			continue;
		static const char *const families[] = { "AL2", "AL2023", "Bottlerocket",
							"Windows2019", "Windows2022", "Windows2025" };
		size_t n = strcspn(t->alias, "@");
		for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++)
			if (strlen(families[f]) == n && !strncasecmp_ascii(families[f], t->alias, n) &&
			    n < size) {
				memcpy(buf, families[f], n + 1);
				return buf;
			}
		break;
	}
	return "Custom";
}

/* The spec with every volumeSize as its Quantity String(), for hashing
 * (hash:"string"): shallow copies of what changes, freed by the caller. */
typedef struct canon {
	kp_aws_ec2nodeclass_spec spec;
	kp_aws_block_device_mapping **maps;
	kp_aws_block_device_mapping *map_vals;
	kp_aws_block_device *ebs_vals;
	char *texts;
} canon;

static void canon_free(canon *c)
{
	kp_free(c->maps);
	kp_free(c->map_vals);
	kp_free(c->ebs_vals);
	kp_free(c->texts);
}

static int canon_spec(canon *c, const kp_aws_ec2nodeclass_spec *spec, kp_error *err)
{
	memset(c, 0, sizeof(*c));
	size_t n = spec->n_block_device_mappings;
	memcpy(&c->spec, spec, spec->struct_size < sizeof(c->spec) ? spec->struct_size
								    : sizeof(c->spec));
	if (!n || !spec->block_device_mappings)
		return KP_OK;
	c->maps = kp_calloc(n, sizeof(*c->maps));
	c->map_vals = kp_calloc(n, sizeof(*c->map_vals));
	c->ebs_vals = kp_calloc(n, sizeof(*c->ebs_vals));
	c->texts = kp_calloc(n, KP_QUANTITY_STRING_MAX);
	if (!c->maps || !c->map_vals || !c->ebs_vals || !c->texts)
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const kp_aws_block_device_mapping *m = spec->block_device_mappings[i];
		if (!m) {
			c->maps[i] = NULL;
			continue;
		}
		c->map_vals[i] = *m;
		c->maps[i] = &c->map_vals[i];
		if (!m->ebs || !m->ebs->volume_size)
			continue;
		kp_quantity q;
		char *text = c->texts + i * KP_QUANTITY_STRING_MAX;
		int rc = kp_quantity_parse(&q, m->ebs->volume_size, err);
		if (rc == KP_OK)
			rc = kp_quantity_format(&q, text, KP_QUANTITY_STRING_MAX);
		if (rc)
			return kp_error_set(err, rc, "spec.blockDeviceMappings.ebs.volumeSize",
					    "invalid quantity");
		c->ebs_vals[i] = *m->ebs;
		c->ebs_vals[i].volume_size = text;
		c->map_vals[i].ebs = &c->ebs_vals[i];
	}
	c->spec.block_device_mappings = c->maps;
	return KP_OK;
}

static int hash_with(const kp_schema *spec_schema, uint32_t flags,
		     const kp_aws_ec2nodeclass *nc, const char *ca_bundle, const char *kubelet,
		     uint64_t *out, kp_error *err)
{
	if (!nc || !out)
		return kp_error_set(err, KP_EINVAL, NULL, "NULL argument");
	const kp_aws_ec2nodeclass_spec *spec =
		nc->struct_size >= offsetof(kp_aws_ec2nodeclass, spec) + sizeof(nc->spec) ? nc->spec
											 : NULL;
	canon c;
	memset(&c, 0, sizeof(c));
	int rc = spec ? canon_spec(&c, spec, err) : KP_OK;
	uint64_t h = 0;
	if (rc == KP_OK)
		rc = kp_schema_hash(spec_schema, spec ? &c.spec : NULL, NULL, &h, err);
	canon_free(&c);
	if (rc)
		return rc;
	char fam[32];
	/* []any{spec, AMIFamily(), caBundle[, kubelet.String()]} with
	 * SlicesAsSets: the XOR of the elements, not finished. */
	h ^= kp_hash_go_string(ami_family(spec, fam, sizeof(fam)));
	h ^= kp_hash_go_string(ca_bundle ? ca_bundle : "");
	if (!(flags & KP_AWS_REGISTER_V1_14)) {
		/* KubeletConfiguration.String(): json.Marshal of the map */
		if (!kubelet)
			kubelet = spec && spec->kubelet_json ? spec->kubelet_json : "null";
		h ^= kp_hash_go_string(kubelet);
	}
	*out = h;
	return KP_OK;
}

static int ec2_hash(void *self, const void *object, const kp_hash_options *opts, uint64_t *out,
		    kp_error *err)
{
	(void)opts; /* EC2NodeClassSpec has no time fields */
	ec2_kind *k = self;
	return hash_with(k->spec, k->flags, object, k->ca_bundle, NULL, out, err);
}

KP_EXPORT int kp_aws_ec2nodeclass_hash(const kp_aws_ec2nodeclass *nodeclass, uint32_t flags,
				       const char *ca_bundle, const char *kubelet_json,
				       uint64_t *out, kp_error *err)
{
	if (flags & ~(uint32_t)KP_AWS_REGISTER_V1_14)
		return kp_error_set(err, KP_EINVAL, "flags", "unknown flags");
	kp_schema *s = NULL;
	int rc = kp_schema_compile(&s, (flags & KP_AWS_REGISTER_V1_14) ? &t_spec_v5 : &t_spec_v6,
				   err);
	if (rc)
		return rc;
	rc = hash_with(s, flags, nodeclass, ca_bundle, kubelet_json, out, err);
	kp_schema_free(s);
	return rc;
}

/* ---- registration --------------------------------------------------------- */

KP_EXPORT int kp_aws_register(kp_registry *registry, const kp_aws_register_options *opts,
			      uint32_t *out_kind, kp_error *err)
{
	kp_aws_register_options o = KP_AWS_REGISTER_OPTIONS_INIT;
	if (out_kind)
		*out_kind = KP_KIND_UNKNOWN;
	if (!registry)
		return kp_error_set(err, KP_EINVAL, NULL, "NULL argument");
	if (opts) {
		if (opts->struct_size < offsetof(kp_aws_register_options, ca_bundle) +
					sizeof(opts->ca_bundle) || opts->struct_size > sizeof(o))
			return kp_error_set(err, KP_EVERSION, "struct_size",
					    "kp_aws_register_options: unsupported struct_size");
		memcpy(&o, opts, sizeof(o));
	}
	if (o.flags & ~(uint32_t)KP_AWS_REGISTER_V1_14)
		return kp_error_set(err, KP_EINVAL, "flags", "unknown flags");
	int v5 = (o.flags & KP_AWS_REGISTER_V1_14) != 0;
	ec2_kind *k = kp_calloc(1, sizeof(*k));
	if (!k)
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	k->flags = o.flags;
	size_t n = o.ca_bundle ? strlen(o.ca_bundle) + 1 : 1;
	k->ca_bundle = kp_malloc(n);
	if (!k->ca_bundle) {
		ec2_kind_free(k);
		return kp_error_set(err, KP_ENOMEM, NULL, "out of memory");
	}
	memcpy(k->ca_bundle, o.ca_bundle ? o.ca_bundle : "", n);
	int rc = kp_schema_compile(&k->spec, v5 ? &t_spec_v5 : &t_spec_v6, err);
	if (rc) {
		ec2_kind_free(k);
		return rc;
	}
	kp_kind_spec spec = KP_KIND_SPEC_INIT;
	spec.flags = KP_KIND_F_CRD;
	spec.group = "karpenter.k8s.aws";
	spec.version = "v1";
	spec.kind = "EC2NodeClass";
	spec.type = v5 ? &t_nodeclass_v5 : &t_nodeclass_v6;
	spec.hash_root = "spec";
	spec.hash_version = v5 ? "v5" : "v6";
	spec.rules = kp__aws_ec2nodeclass_rules(&spec.n_rules);
	kp_kind_ops ops = KP_KIND_OPS_INIT;
	ops.name = "aws";
	ops.apply_defaults = kp__aws_ec2nodeclass_defaults;
	ops.validate = kp__aws_ec2nodeclass_validate;
	ops.hash = ec2_hash;
	ops.destroy = ec2_kind_free;
	rc = kp_registry_add_kind(registry, &spec, &ops, k, out_kind, err);
	if (rc) {
		ec2_kind_free(k);
		return rc;
	}
	rc = kp__aws_register_validators(registry, err);
	return rc ? rc : kp__aws_register_conversions(registry, err);
}
