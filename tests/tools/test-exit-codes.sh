#!/bin/sh
# kubectl-karpenter: every row of the README's exit-code table, for every
# command that reads manifests (validate, hash, simulate).
# usage: test-exit-codes.sh TOOL SOURCE_ROOT
tool=$1 src=$2
. "$(dirname "$0")/tap.sh"
fx=$src/tests/tools/fixtures/simulate
cluster=$src/examples/cluster

skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# Inputs shared by the rows.
printf 'apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a\n' >"$tmpd/broken.yaml"
mkdir "$tmpd/empty" "$tmpd/subdir-only" "$tmpd/subdir-only/sub.yaml" "$tmpd/catalogue-dir"
ln -s loop.yaml "$tmpd/loop.yaml"
printf 'x' >"$tmpd/plain"
printf 'x' >"$tmpd/secret.yaml"
chmod 000 "$tmpd/secret.yaml"
truncate -s $((64 * 1024 * 1024 + 1)) "$tmpd/huge.yaml"
truncate -s $((16 * 1024 * 1024 + 1)) "$tmpd/huge.json"
# five 60 MiB files: each within the 64 MiB file limit, 300 MiB together
for i in 1 2 3 4 5; do truncate -s $((60 * 1024 * 1024)) "$tmpd/big$i.yaml"; done
printf '[{"name": "x", "offerings": [{"zone": "z", "capacityType": "spot", "Price": 1.7e308}]}]' \
	>"$tmpd/absurd.json"
# a document holding more values at once than its size allows (codec.h):
# a flow sequence of 400,001 numbers in 800 KB, in a NodePool (read whole:
# a ConfigMap's data is skipped unread, see codec.h)
awk 'BEGIN { printf "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: d}\ndata: ["; for (i = 0; i < 400000; i++) printf "1,"; print "1]" }' \
	>"$tmpd/dense.yaml"

for cmd in validate hash simulate; do
	# 0: success.
	run_cmd "$tool" $cmd -f "$fx/nodepool.yaml" -f "$fx/pods.yaml"
	check "$cmd: valid input exits 0" [ "$rc" -eq 0 ]

	# 1: invalid input.
	run_cmd "$tool" $cmd -f "$tmpd/broken.yaml"
	check "$cmd: a file that cannot be decoded exits 1" [ "$rc" -eq 1 ]
	run_cmd "$tool" $cmd -f "$tmpd/dense.yaml"
	check "$cmd: a document denser than the value limit exits 1" [ "$rc" -eq 1 ]
	check "$cmd: a document denser than the value limit says so" contains "$out$errout" \
		"document 1: line 4: the document holds more than "

	# 1 for simulate only: a pod that cannot be placed (examples/cluster
	# has one); validate and hash do not decide placement.
	run_cmd "$tool" $cmd -f "$cluster"
	if [ $cmd = simulate ]; then
		check "$cmd: a pod that cannot be placed exits 1" [ "$rc" -eq 1 ]
	else
		check "$cmd: a pod that cannot be placed is not its decision (exit 0)" [ "$rc" -eq 0 ]
	fi

	# 2: usage errors.
	run_cmd "$tool" $cmd -f "$fx/nodepool.yaml" --frobnicate
	check "$cmd: an unknown option exits 2" [ "$rc" -eq 2 ]
	run_cmd "$tool" $cmd
	check "$cmd: no -f exits 2" [ "$rc" -eq 2 ]
	run_cmd sh -c "\"\$1\" $cmd -f - -f - </dev/null" _ "$tool"
	check "$cmd: stdin given twice exits 2" [ "$rc" -eq 2 ]

	# 2: a path that cannot be read.
	run_cmd "$tool" $cmd -f "$tmpd/missing.yaml"
	check "$cmd: a missing file exits 2" [ "$rc" -eq 2 ]
	check "$cmd: a missing file is named" contains "$errout" \
		"kubectl-karpenter $cmd: cannot read \"$tmpd/missing.yaml\": No such file or directory"
	run_cmd "$tool" $cmd -f "$tmpd/plain/x.yaml"
	check "$cmd: a path through a file exits 2" [ "$rc" -eq 2 ]
	check "$cmd: a path through a file says why" contains "$errout" "Not a directory"
	run_cmd "$tool" $cmd -f "$tmpd/loop.yaml"
	check "$cmd: a symbolic-link loop exits 2" [ "$rc" -eq 2 ]
	check "$cmd: a symbolic-link loop says why" contains "$errout" "Too many levels of symbolic links"
	if [ "$(id -u)" -eq 0 ]; then
		skip "$cmd: a file without read permission exits 2" \
			"running as root, who reads any file (the loop above is unreadable to root too)"
	else
		run_cmd "$tool" $cmd -f "$tmpd/secret.yaml"
		check "$cmd: a file without read permission exits 2" [ "$rc" -eq 2 ]
		check "$cmd: a file without read permission says why" contains "$errout" "Permission denied"
	fi
	# A dangling entry of a directory is read, not skipped.
	mkdir "$tmpd/dangling" && ln -s nowhere "$tmpd/dangling/x.yaml"
	run_cmd "$tool" $cmd -f "$tmpd/dangling"
	check "$cmd: a dangling link in a directory exits 2" [ "$rc" -eq 2 ]
	rm -r "$tmpd/dangling"

	# 2: a directory with no manifest file, sub-directories named like
	# one included.
	run_cmd "$tool" $cmd -f "$tmpd/empty"
	check "$cmd: an empty directory exits 2" [ "$rc" -eq 2 ]
	check "$cmd: an empty directory says so" contains "$errout" \
		"kubectl-karpenter $cmd: \"$tmpd/empty\" has no *.yaml, *.yml or *.json file"
	run_cmd "$tool" $cmd -f "$tmpd/subdir-only"
	check "$cmd: a directory whose only entry is a sub-directory sub.yaml exits 2" [ "$rc" -eq 2 ]
	check "$cmd: a directory whose only entry is a sub-directory says so" contains "$errout" \
		"kubectl-karpenter $cmd: \"$tmpd/subdir-only\" has no *.yaml, *.yml or *.json file"
	check "$cmd: a directory without manifest prints nothing" [ -z "$out" ]

	# 2: input over the size limit (--max-file-size, --max-input-size;
	# set low here, the defaults read a 5,000-node cluster's dump).
	lim="--max-file-size 64Mi --max-input-size=256Mi"
	run_cmd "$tool" $cmd -f "$tmpd/huge.yaml" $lim
	check "$cmd: a file over --max-file-size exits 2" [ "$rc" -eq 2 ]
	check "$cmd: a file over --max-file-size says so, naming the option" contains "$errout" \
		"kubectl-karpenter $cmd: \"$tmpd/huge.yaml\" is larger than 64 MiB, the most a manifest may be; raise it with --max-file-size"
	check "$cmd: a file over --max-file-size prints nothing" [ -z "$out" ]
	run_cmd sh -c "\"\$1\" $cmd -f - $lim <\"\$2\"" _ "$tool" "$tmpd/huge.yaml"
	check "$cmd: stdin over --max-file-size exits 2" [ "$rc" -eq 2 ]
	check "$cmd: stdin over --max-file-size says so" contains "$errout" \
		"kubectl-karpenter $cmd: stdin is larger than 64 MiB, the most a manifest may be; raise it with --max-file-size"
	# a pipe has no size: refused as it is read (2 MiB of YAML comments)
	run_cmd sh -c "yes '# a comment line' | head -c 2097152 | \"\$1\" $cmd -f - --max-file-size 1Mi" _ "$tool"
	check "$cmd: a pipe over --max-file-size exits 2" [ "$rc" -eq 2 ]
	check "$cmd: a pipe over --max-file-size says so" contains "$errout" \
		"kubectl-karpenter $cmd: stdin is larger than 1 MiB, the most a manifest may be; raise it with --max-file-size"
	run_cmd "$tool" $cmd $lim -f "$tmpd/big1.yaml" -f "$tmpd/big2.yaml" -f "$tmpd/big3.yaml" \
		-f "$tmpd/big4.yaml" -f "$tmpd/big5.yaml"
	check "$cmd: inputs over --max-input-size together exit 2" [ "$rc" -eq 2 ]
	check "$cmd: inputs over --max-input-size together say so, naming the file and the option" contains "$errout" \
		"kubectl-karpenter $cmd: the inputs are larger than 256 MiB together, the most one command reads (at \"$tmpd/big5.yaml\"); raise it with --max-input-size"
	run_cmd sh -c "\"\$1\" $cmd $lim -f \"\$2\" -f \"\$3\" -f \"\$4\" -f \"\$5\" -f - <\"\$6\"" _ \
		"$tool" "$tmpd/big1.yaml" "$tmpd/big2.yaml" "$tmpd/big3.yaml" "$tmpd/big4.yaml" \
		"$tmpd/big5.yaml"
	check "$cmd: stdin passing --max-input-size together exits 2" [ "$rc" -eq 2 ]
	check "$cmd: stdin passing --max-input-size together says so" contains "$errout" \
		"kubectl-karpenter $cmd: the inputs are larger than 256 MiB together, the most one command reads (at stdin); raise it with --max-input-size"
	# the defaults read files far larger than 64 MiB (this one is all NUL
	# bytes: read, then refused as input that cannot be decoded)
	run_cmd "$tool" $cmd -f "$tmpd/huge.yaml"
	check "$cmd: a 64 MiB file is within the default limits (decoded: exit 1)" [ "$rc" -eq 1 ]
	run_cmd "$tool" $cmd -f "$fx/nodepool.yaml" --max-file-size 0
	check "$cmd: --max-file-size 0 exits 2" [ "$rc" -eq 2 ]
	check "$cmd: --max-file-size 0 says so" contains "$errout" \
		"kubectl-karpenter: --max-file-size needs a size greater than 0 (bytes, or with Ki, Mi, Gi, Ti), got \"0\""
	run_cmd "$tool" $cmd -f "$fx/nodepool.yaml" --max-input-size=12Qi
	check "$cmd: --max-input-size with a bad unit exits 2" [ "$rc" -eq 2 ]
	run_cmd "$tool" $cmd -f "$fx/nodepool.yaml" --max-input-size
	check "$cmd: --max-input-size without a value exits 2" [ "$rc" -eq 2 ]

	# 1: output that cannot be written.
	if [ -w /dev/full ]; then
		run_cmd sh -c "\"\$1\" $cmd -f \"\$2\" -f \"\$3\" >/dev/full" _ "$tool" \
			"$fx/nodepool.yaml" "$fx/pods.yaml"
		check "$cmd: output that cannot be written exits 1" [ "$rc" -eq 1 ]
		check "$cmd: output that cannot be written says so" contains "$errout" \
			"kubectl-karpenter: cannot write the output"
	else
		skip "$cmd: output that cannot be written exits 1" "no /dev/full"
	fi
done

# simulate --instance-types FILE: the same rows for the catalogue.
sim() { run_cmd "$tool" simulate -f "$fx/nodepool.yaml" -f "$fx/pods.yaml" "$@"; }
sim --instance-types "$tmpd/missing.json"
check "--instance-types: a missing file exits 2" [ "$rc" -eq 2 ]
check "--instance-types: a missing file is named" contains "$errout" \
	"kubectl-karpenter simulate: --instance-types: cannot read \"$tmpd/missing.json\": No such file or directory"
sim --instance-types "$tmpd/catalogue-dir"
check "--instance-types: a directory exits 2" [ "$rc" -eq 2 ]
check "--instance-types: a directory says why" contains "$errout" \
	"kubectl-karpenter simulate: --instance-types: cannot read \"$tmpd/catalogue-dir\": Is a directory"
sim --instance-types "$tmpd/loop.yaml"
check "--instance-types: a symbolic-link loop exits 2" [ "$rc" -eq 2 ]
sim --instance-types "$tmpd/huge.json"
check "--instance-types: a catalogue over 16 MiB exits 2" [ "$rc" -eq 2 ]
check "--instance-types: a catalogue over 16 MiB says so" contains "$errout" \
	"is larger than 16 MiB, the most an instance-type catalogue may be"
sim --instance-types "$tmpd/absurd.json"
check "--instance-types: an absurd price is invalid input (exit 1)" [ "$rc" -eq 1 ]
check "--instance-types: an absurd price names its field" contains "$errout" \
	"kubectl-karpenter simulate: --instance-types: $tmpd/absurd.json: [0].offerings[0].Price: price 1.7e+308 is not a finite number from 0 to 1000000"
sim --instance-types=
check "--instance-types: an empty name exits 2" [ "$rc" -eq 2 ]
finish
