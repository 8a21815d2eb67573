#!/bin/sh
# The seed corpus of the libFuzzer targets (.ci/run section 4), into DIR:
# the codec's fixtures, the upstream v1 manifests (when SHARED_DATA has
# them), the example clusters file by file and each as one stream (what
# fuzz-simulate, fuzz-disrupt and fuzz-lifecycle want), the drift preview
# stream of examples/disruption with its --apply file after a "---" (what
# fuzz-disrupt splits), kubectl's Lists in JSON and YAML, every real-tool
# shape of a few example files (BUILD/tests/codec/test-real-shapes
# --emit: indented Lists, CRLF, BOM, escapes, nested Lists, ...), known
# crashes, and the long-value sweep's representative inputs
# (tests/robustness).
# usage: make-corpus.sh BUILD DIR [SHARED_DATA]  (relative paths: from the
# source root)
set -u
build=$1 corpus=$2 shared=${3:-../shared/data}
cd "$(dirname "$0")/../.." || exit 1
mkdir -p "$corpus"
cp tests/codec/fixtures/*.yaml "$corpus"/ 2>/dev/null
for f in "$shared"/manifests/v1/*.yaml; do [ -f "$f" ] && cp "$f" "$corpus/v1-$(basename "$f")"; done
# older API versions, for fuzz-convert (v1beta1, v1alpha5 Provisioners and
# AWSNodeTemplates)
for v in v1beta1 v1alpha5; do
	for f in "$shared"/manifests/$v/*.yaml; do [ -f "$f" ] && cp "$f" "$corpus/$v-$(basename "$f")"; done
done
for ex in cluster disruption lifecycle; do
	for f in examples/$ex/*.yaml; do cp "$f" "$corpus/example-$ex-$(basename "$f")"; done
	for f in examples/$ex/*.yaml; do cat "$f"; printf '\n---\n'; done >"$corpus/example-$ex.yaml"
done
for f in examples/disruption/*.yaml examples/disruption/preview/*.yaml; do cat "$f"; printf '\n---\n'; done \
	>"$corpus/example-disruption-preview.yaml"
# Lists as kubectl writes them ("items" before "kind"), in JSON and YAML:
# kp_decode streams their items (lib/document, lib/codec).
printf '{"apiVersion":"v1","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c","image":"i"}]}},{"apiVersion":"karpenter.sh/v1","kind":"NodePool","metadata":{"name":"p"},"spec":{"template":{"spec":{"nodeClassRef":{"group":"karpenter.kwok.sh","kind":"KWOKNodeClass","name":"d"},"requirements":[]}}}}],"kind":"List","metadata":{}}\n' \
	>"$corpus/list-kubectl.json"
printf 'apiVersion: v1\nitems:\n- &p {apiVersion: v1, kind: Pod, metadata: {name: a}}\n- *p\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: b}\nkind: List\nmetadata: {}\n' \
	>"$corpus/list-kubectl.yaml"
# Known crashes as seeds, so that a regression is found at once: a Node
# without metadata beside a NodeClaim (fuzz-disrupt: SIGSEGV in
# lib/disruption pair_nodes before its fix). The last byte is the targets'
# option byte.
printf 'apiVersion: v1\nkind: Node\n---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: a}\nspec:\n  nodeClassRef: {group: karpenter.kwok.sh, kind: KWOKNodeClass, name: d}\n  requirements: []\n\n' \
	>"$corpus/regression-node-without-metadata.yaml"
status=0
if [ -x "$build/tests/codec/test-real-shapes" ]; then
	# Of single files, a few KiB each: the shapes of whole clusters are
	# large, and slow every target down (the CLI test runs those).
	"$build/tests/codec/test-real-shapes" --emit "$corpus" examples/cluster/nodeclass.yaml \
		examples/cluster/nodepools.yaml examples/cluster/nodes.yaml \
		examples/disruption/nodepools.yaml examples/lifecycle/starting.yaml \
		examples/lifecycle/draining.yaml || status=1
else
	echo "note: no real-tool shapes ($build/tests/codec/test-real-shapes missing)"
fi
if [ -x "$build/tests/robustness/sweep-long-values" ]; then
	"$build/tests/robustness/sweep-long-values" examples/cluster "$shared/kwok/instance_types.json" \
		--emit-corpus "$corpus" || status=1
else
	echo "note: no long-value corpus ($build/tests/robustness/sweep-long-values missing)"
fi
exit $status
