#!/bin/sh
# aws-types-bench: kubectl-karpenter instance-types --provider aws on
# synthetic DescribeInstanceTypes / -Offerings dumps of N types (copies of
# the shipped 17 under new family names, each offered in 3 zones), to show
# the build is linear in the number of types. Generated files stay in a
# temporary folder; nothing of the shared data is copied into the tree.
# usage: bench/aws-types-bench.sh TOOL SHARED_DATA [N ...]
set -eu
tool=$1
data=$2
shift 2
[ $# -gt 0 ] || set -- 2000 4000 8000 16000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export KARPENTER_AWS_DATA="$data/aws"
printf '%8s %10s %10s\n' types seconds us/type
for n in "$@"; do
	python3 - "$data/aws/instance-types.json" "$n" "$tmp" <<'PY'
import json, sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
base = json.load(open(src))["InstanceTypes"]
types, offers = [], []
for i in range(n):
    t = dict(base[i % len(base)])
    fam, size = t["InstanceType"].split(".", 1)
    t["InstanceType"] = "%sz%d.%s" % (fam, i, size)
    types.append(t)
    for z in ("a", "b", "c"):
        offers.append({"InstanceType": t["InstanceType"], "Location": "bench-zone-1" + z})
json.dump({"InstanceTypes": types}, open(out + "/types.json", "w"))
json.dump({"InstanceTypeOfferings": offers}, open(out + "/offerings.json", "w"))
PY
	start=$(date +%s.%N)
	"$tool" instance-types --provider aws --instance-types "$tmp/types.json" \
		--offerings "$tmp/offerings.json" -o json >/dev/null
	end=$(date +%s.%N)
	python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); n=int(sys.argv[3]); print('%8d %10.3f %10.1f' % (n, s, s/n*1e6))" "$start" "$end" "$n"
done
