#!/bin/sh
# dump-bench: kubectl-karpenter on cluster dumps shaped like what
# `kubectl get -A -o json` / `-o yaml` writes for a real cluster
# (../shared/bench/gen_dump.py), end to end: wall time, MB/s and peak RSS
# of validate and simulate, and cli-bench's decode stage. Prints a
# Markdown table for bench/RESULTS.md. Run it on a release build:
#
#   meson setup build-bench -Dbuildtype=release && meson compile -C build-bench
#   bench/dump-bench.sh build-bench 1000 20000 [DIR]
#
# DIR keeps the generated dumps (default: a temporary directory, removed
# at the end); a dump already there is reused.
set -eu
build=${1:?usage: dump-bench.sh BUILD_DIR NODES PODS [DIR]}
nodes=${2:?nodes}
pods=${3:?pods}
here=$(cd "$(dirname "$0")/.." && pwd)
gen=${KP_GEN_DUMP:-$here/../shared/bench/gen_dump.py}
tool=$build/tools/kubectl-karpenter/kubectl-karpenter
bench=$build/bench/cli-bench
[ -f "$gen" ] || { echo "dump-bench: $gen not found (set KP_GEN_DUMP)" >&2; exit 2; }
if [ $# -ge 4 ]; then dir=$4; mkdir -p "$dir"; keep=1; else dir=$(mktemp -d); keep=0; fi
cleanup() { [ "$keep" = 1 ] || rm -rf "$dir"; }
trap cleanup EXIT INT TERM

echo "| input | command | MB | wall s | MB/s | peak RSS MiB | RSS / input |"
echo "|---|---|--:|--:|--:|--:|--:|"
for fmt in json yaml; do
	f=$dir/dump-$nodes-$pods.$fmt
	if [ ! -s "$f" ]; then
		if [ $fmt = yaml ]; then python3 "$gen" "$nodes" "$pods" "$f" --yaml >/dev/null
		else python3 "$gen" "$nodes" "$pods" "$f" >/dev/null; fi
	fi
	bytes=$(wc -c <"$f")
	for cmd in validate simulate; do
		/usr/bin/time -f '%e %M' -o "$dir/time" "$tool" $cmd -f "$f" >/dev/null 2>"$dir/err" || true
		read -r wall rss <"$dir/time"
		awk -v b="$bytes" -v w="$wall" -v r="$rss" -v f="$fmt" -v c="$cmd" 'BEGIN {
			printf "| %s | %s | %.0f | %.2f | %.0f | %.0f | %.2fx |\n",
			       f, c, b / 1e6, w, (w > 0 ? b / 1e6 / w : 0), r / 1024, r * 1024 / b }'
	done
	# stdin from a pipe, as `kubectl get ... | kubectl-karpenter simulate -f -`
	/usr/bin/time -f '%e %M' -o "$dir/time" sh -c 'cat "$1" | "$2" simulate -f - >/dev/null 2>&1' _ \
		"$f" "$tool" || true
	read -r wall rss <"$dir/time"
	awk -v b="$bytes" -v w="$wall" -v r="$rss" -v f="$fmt" 'BEGIN {
		printf "| %s | simulate -f - (pipe) | %.0f | %.2f | %.0f | %.0f | %.2fx |\n",
		       f, b / 1e6, w, (w > 0 ? b / 1e6 / w : 0), r / 1024, r * 1024 / b }'
done
echo
echo "cli-bench (simulate's stages through the command's own code, JSON dump):"
"$bench" -f "$dir/dump-$nodes-$pods.json" --repeat 3
