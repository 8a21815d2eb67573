/*
 * EC2NodeClassSpec descriptors for the hash tests (see the header).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "ec2nodeclass_fixture.h"
#include "schema/schema_tables.h"
#include "hash/hashstructure.h"

/* Flags beyond the shared table macros (lib/schema/schema_tables.h). */
#define PTR KP__FF_GO_PTR
#define IGN KP__FF_HASH_IGNORE
#define PSTR(m, j, g) F_(KP__FK_STRING, OFF(m), 0, j, g, NULL, NULL, PTR, 0) /* *string */
#define PSTRUCT(m, j, g, T) F_(KP__FK_STRUCT, OFF(m), 0, j, g, &(T), NULL, PTR, 0) /* *T */
#define LISTF(m, n, j, g, T, fl) F_(KP__FK_LIST, OFF(m), OFF(n), j, g, &(T), NULL, fl, 0)
#define IGNORED_HASH(j, g) F_(KP__FK_IGNORED, 0, 0, j, g, NULL, NULL, IGN, 0)

/* ---- selector terms (all hash:"ignore" in the spec) ---- */

#define S ec2_selector_term
static const kp__field t_subnet_term_f[] = {
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
};
SIZED_FROM(t_subnet_term, "SubnetSelectorTerm", S, sizeof(S));

static const kp__field t_security_group_term_f[] = {
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
	STR(name, "name", "Name"),
};
SIZED_FROM(t_security_group_term, "SecurityGroupSelectorTerm", S, sizeof(S));

static const kp__field t_capacity_reservation_term_f[] = {
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
	STR(owner_id, "ownerID", "OwnerID"),
	STR(instance_match_criteria, "instanceMatchCriteria", "InstanceMatchCriteria"),
};
SIZED_FROM(t_capacity_reservation_term, "CapacityReservationSelectorTerm", S, sizeof(S));

static const kp__field t_ami_term_f[] = {
	STR(alias, "alias", "Alias"),
	MAP(tags, "tags", "Tags"),
	STR(id, "id", "ID"),
	STR(name, "name", "Name"),
	STR(owner, "owner", "Owner"),
	STR(ssm_parameter, "ssmParameter", "SSMParameter"),
};
SIZED_FROM(t_ami_term, "AMISelectorTerm", S, sizeof(S));
#undef S

#define S ec2_placement_group_selector
static const kp__field t_placement_group_selector_f[] = {
	PSTR(name, "name", "Name"),
	PSTR(id, "id", "ID"),
};
SIZED_FROM(t_placement_group_selector, "PlacementGroupSelector", S, sizeof(S));
#undef S

/* v1.14.1 KubeletConfiguration. EvictionSoftGracePeriod is a
 * map[string]metav1.Duration, which the descriptor engine has no kind for;
 * no vector sets it, so it is accepted and not hashed here. */
#define S ec2_kubelet
static const kp__field t_kubelet_f[] = {
	STRINGS(cluster_dns, n_cluster_dns, "clusterDNS", "ClusterDNS"),
	OPT_I32(max_pods, has_max_pods, "maxPods", "MaxPods"),
	OPT_I32(pods_per_core, has_pods_per_core, "podsPerCore", "PodsPerCore"),
	MAP(system_reserved, "systemReserved", "SystemReserved"),
	MAP(kube_reserved, "kubeReserved", "KubeReserved"),
	MAP(eviction_hard, "evictionHard", "EvictionHard"),
	MAP(eviction_soft, "evictionSoft", "EvictionSoft"),
	IGNORED_HASH("evictionSoftGracePeriod", "EvictionSoftGracePeriod"),
	OPT_I32(eviction_max_pod_grace_period, has_eviction_max_pod_grace_period,
		"evictionMaxPodGracePeriod", "EvictionMaxPodGracePeriod"),
	OPT_I32(image_gc_high, has_image_gc_high, "imageGCHighThresholdPercent",
		"ImageGCHighThresholdPercent"),
	OPT_I32(image_gc_low, has_image_gc_low, "imageGCLowThresholdPercent",
		"ImageGCLowThresholdPercent"),
	OPT_BOOL(cpu_cfs_quota, has_cpu_cfs_quota, "cpuCFSQuota", "CPUCFSQuota"),
};
SIZED_FROM(t_kubelet, "KubeletConfiguration", S, sizeof(S));
#undef S

#define S ec2_block_device
static const kp__field t_block_device_f[] = {
	OPT_BOOL(delete_on_termination, has_delete_on_termination, "deleteOnTermination",
		 "DeleteOnTermination"),
	OPT_BOOL(encrypted, has_encrypted, "encrypted", "Encrypted"),
	OPT_I64(iops, has_iops, "iops", "IOPS"),
	PSTR(kms_key_id, "kmsKeyID", "KMSKeyID"),
	PSTR(snapshot_id, "snapshotID", "SnapshotID"),
	OPT_I64(throughput, has_throughput, "throughput", "Throughput"),
	OPT_I32(volume_initialization_rate, has_volume_initialization_rate,
		"volumeInitializationRate", "VolumeInitializationRate"),
	F_(KP__FK_STRING, OFF(volume_size), 0, "volumeSize", "VolumeSize", NULL, NULL,
	   PTR | KP__FF_HASH_STRING, 0),
	PSTR(volume_type, "volumeType", "VolumeType"),
};
SIZED_FROM(t_block_device, "BlockDevice", S, sizeof(S));
#undef S

#define S ec2_block_device_mapping
static const kp__field t_block_device_mapping_f[] = {
	PSTR(device_name, "deviceName", "DeviceName"),
	PSTRUCT(ebs, "ebs", "EBS", t_block_device),
	BOOL(root_volume, "rootVolume", "RootVolume"),
};
SIZED_FROM(t_block_device_mapping, "BlockDeviceMapping", S, sizeof(S));
#undef S

#define S ec2_network_interface
static const kp__field t_network_interface_f[] = {
	I32(network_card_index, "networkCardIndex", "NetworkCardIndex"),
	I32(device_index, "deviceIndex", "DeviceIndex"),
	STR(interface_type, "interfaceType", "InterfaceType"),
};
SIZED_FROM(t_network_interface, "NetworkInterface", S, sizeof(S));
#undef S

#define S ec2_metadata_options
static const kp__field t_metadata_options_f[] = {
	PSTR(http_endpoint, "httpEndpoint", "HTTPEndpoint"),
	PSTR(http_protocol_ipv6, "httpProtocolIPv6", "HTTPProtocolIPv6"),
	OPT_I64(http_put_response_hop_limit, has_http_put_response_hop_limit,
		"httpPutResponseHopLimit", "HTTPPutResponseHopLimit"),
	PSTR(http_tokens, "httpTokens", "HTTPTokens"),
};
SIZED_FROM(t_metadata_options, "MetadataOptions", S, sizeof(S));
#undef S

#define S ec2_connection_tracking
static const kp__field t_connection_tracking_f[] = {
	OPT_I32(tcp_established_timeout, has_tcp_established_timeout, "tcpEstablishedTimeout",
		"TCPEstablishedTimeout"),
	OPT_I32(udp_stream_timeout, has_udp_stream_timeout, "udpStreamTimeout", "UDPStreamTimeout"),
	OPT_I32(udp_timeout, has_udp_timeout, "udpTimeout", "UDPTimeout"),
};
SIZED_FROM(t_connection_tracking, "ConnectionTracking", S, sizeof(S));
#undef S

#define S ec2_cpu_options
static const kp__field t_cpu_options_f[] = {
	PSTR(nested_virtualization, "nestedVirtualization", "NestedVirtualization"),
};
SIZED_FROM(t_cpu_options, "CPUOptions", S, sizeof(S));
#undef S

/* The spec: the two layouts differ only in Kubelet. */
#define S ec2_nodeclass_spec
#define SPEC_FIELDS(KUBELET) \
	LISTF(subnet_selector_terms, n_subnet_selector_terms, "subnetSelectorTerms", \
	     "SubnetSelectorTerms", t_subnet_term, IGN), \
	LISTF(security_group_selector_terms, n_security_group_selector_terms, \
	     "securityGroupSelectorTerms", "SecurityGroupSelectorTerms", t_security_group_term, IGN), \
	LISTF(capacity_reservation_selector_terms, n_capacity_reservation_selector_terms, \
	     "capacityReservationSelectorTerms", "CapacityReservationSelectorTerms", \
	     t_capacity_reservation_term, IGN), \
	PSTRUCT(placement_group_selector, "placementGroupSelector", "PlacementGroupSelector", \
		t_placement_group_selector), \
	OPT_BOOL(associate_public_ip_address, has_associate_public_ip_address, \
		 "associatePublicIPAddress", "AssociatePublicIPAddress"), \
	F_(KP__FK_OPT_INT32, OFF(ip_prefix_count), OFF(has_ip_prefix_count), "ipPrefixCount", \
	   "IPPrefixCount", NULL, NULL, IGN, 0), \
	LISTF(ami_selector_terms, n_ami_selector_terms, "amiSelectorTerms", "AMISelectorTerms", \
	     t_ami_term, IGN), \
	F_(KP__FK_STRING, OFF(ami_family), 0, "amiFamily", "AMIFamily", NULL, NULL, PTR | IGN, 0), \
	PSTR(user_data, "userData", "UserData"), \
	STR(role, "role", "Role"), \
	PSTR(instance_profile, "instanceProfile", "InstanceProfile"), \
	MAP(tags, "tags", "Tags"), \
	KUBELET, \
	LISTF(block_device_mappings, n_block_device_mappings, "blockDeviceMappings", \
	     "BlockDeviceMappings", t_block_device_mapping, 0), \
	PSTR(instance_store_policy, "instanceStorePolicy", "InstanceStorePolicy"), \
	LISTF(network_interfaces, n_network_interfaces, "networkInterfaces", "NetworkInterfaces", \
	     t_network_interface, 0), \
	OPT_BOOL(detailed_monitoring, has_detailed_monitoring, "detailedMonitoring", \
		 "DetailedMonitoring"), \
	PSTRUCT(metadata_options, "metadataOptions", "MetadataOptions", t_metadata_options), \
	PSTRUCT(connection_tracking, "connectionTracking", "ConnectionTracking", \
		t_connection_tracking), \
	PSTR(context, "context", "Context"), \
	PSTRUCT(cpu_options, "cpuOptions", "CPUOptions", t_cpu_options)

/* main (v6): KubeletConfiguration is map[string]apiextensionsv1.JSON,
 * hash:"ignore"; its String() is hashed beside the spec instead. */
static const kp__field t_spec_v6_f[] = { SPEC_FIELDS(IGNORED_HASH("kubelet", "Kubelet")) };
SIZED_FROM(t_spec_v6, "EC2NodeClassSpec", S, sizeof(S));
/* v1.14.1 (v5): *KubeletConfiguration, hashed. */
static const kp__field t_spec_v5_f[] = { SPEC_FIELDS(PSTRUCT(kubelet, "kubelet", "Kubelet",
							    t_kubelet)) };
SIZED_FROM(t_spec_v5, "EC2NodeClassSpec", S, sizeof(S));
#undef S

const kp__type *ec2_spec_type(int layout)
{
	return layout == EC2_LAYOUT_V6_MAIN ? &t_spec_v6 : &t_spec_v5;
}

/* Quantity String(): the canonical form of the text. */
static void canonical_quantity(const char **text)
{
	if (!*text)
		return;
	kp_quantity q;
	ck_assert_int_eq(kp_quantity_parse(&q, *text, NULL), KP_OK);
	char buf[KP_QUANTITY_STRING_MAX];
	ck_assert_int_eq(kp_quantity_format(&q, buf, sizeof(buf)), KP_OK);
	kp__free((void *)(uintptr_t)*text);
	*text = kp__strdup(buf);
	ck_assert_ptr_nonnull(*text);
}

ec2_nodeclass_spec *ec2_spec_decode(int layout, kp__node *spec)
{
	kp__dctx ctx;
	kp_error e;
	memset(&ctx, 0, sizeof(ctx));
	memset(&e, 0, sizeof(e));
	ctx.unknown_mode = KP__UNKNOWN_ERROR;
	ctx.ident = "EC2NodeClass";
	ctx.err = &e;
	void *out = NULL;
	int rc = kp__schema_decode(ec2_spec_type(layout), spec, &out, &ctx);
	kp__dctx_dispose(&ctx);
	ck_assert_msg(rc == KP_OK, "decode EC2NodeClassSpec: %s", e.message);
	ec2_nodeclass_spec *s = out;
	for (size_t i = 0; i < s->n_block_device_mappings; i++)
		if (s->block_device_mappings[i]->ebs)
			canonical_quantity(&s->block_device_mappings[i]->ebs->volume_size);
	return s;
}

void ec2_spec_free(int layout, ec2_nodeclass_spec *spec)
{
	kp__schema_free(ec2_spec_type(layout), spec);
}

int ec2_hash(int layout, const ec2_nodeclass_spec *spec, const char *ami_family,
	     const char *ca_bundle, const char *kubelet, uint64_t *out, kp_error *err)
{
	kp__hs_opts o;
	kp__hs_opts_karpenter(&o);
	uint64_t h;
	int rc = kp__hs_struct(&o, ec2_spec_type(layout), spec, &h, err);
	if (rc)
		return rc;
	/* []any{...} is a slice: SlicesAsSets XORs its elements, no finish. */
	h ^= kp__hs_string(ami_family);
	h ^= kp__hs_string(ca_bundle);
	if (layout == EC2_LAYOUT_V6_MAIN)
		h ^= kp__hs_string(kubelet);
	*out = h;
	return KP_OK;
}
