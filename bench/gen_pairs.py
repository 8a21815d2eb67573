#!/usr/bin/env python3
"""A cluster of N registered Node/NodeClaim pairs and one pending pod, as a
v1 List, for timing how kp_cluster_new pairs Nodes with NodeClaims
(lib/state): with --reverse the Nodes are named in the reverse order of
their NodeClaims' provider IDs, so names and IDs sort differently.

usage: gen_pairs.py N OUT [--reverse]
  bench/gen_pairs.py 20000 /tmp/pairs-reverse.json --reverse
  build/bench/cli-bench -f /tmp/pairs-reverse.json --cpu   # the "build" stage
"""
import json
import sys


def main():
    args = [a for a in sys.argv[1:] if a != '--reverse']
    if len(args) != 2:
        sys.exit(__doc__)
    n, out, reverse = int(args[0]), args[1], '--reverse' in sys.argv
    ref = {"group": "karpenter.kwok.sh", "kind": "KWOKNodeClass", "name": "default"}
    items = [
        {"apiVersion": "karpenter.kwok.sh/v1alpha1", "kind": "KWOKNodeClass",
         "metadata": {"name": "default"}},
        {"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": {"name": "default"},
         "spec": {"template": {"spec": {"nodeClassRef": ref, "requirements": []}}}},
    ]
    for i in range(n):
        pid = "kwok://n%05d" % i
        name = "node-%05d" % (n - 1 - i if reverse else i)
        labels = {"karpenter.sh/nodepool": "default", "karpenter.sh/registered": "true",
                  "karpenter.sh/initialized": "true",
                  "node.kubernetes.io/instance-type": "c-4x-amd64-linux",
                  "topology.kubernetes.io/zone": "test-zone-a",
                  "karpenter.sh/capacity-type": "on-demand", "kubernetes.io/hostname": name}
        res = {"cpu": "4", "memory": "16Gi", "pods": "110"}
        items.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": name, "labels": labels},
                      "spec": {"providerID": pid},
                      "status": {"capacity": res, "allocatable": res}})
        items.append({"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
                      "metadata": {"name": "default-%05d" % i,
                                   "labels": {"karpenter.sh/nodepool": "default"}},
                      "spec": {"nodeClassRef": ref, "requirements": []},
                      "status": {"providerID": pid, "nodeName": name}})
    items.append({"apiVersion": "v1", "kind": "Pod",
                  "metadata": {"name": "p", "namespace": "default"},
                  "spec": {"containers": [{"name": "c", "image": "i",
                                           "resources": {"requests": {"cpu": "1"}}}]}})
    with open(out, "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)


if __name__ == "__main__":
    main()
