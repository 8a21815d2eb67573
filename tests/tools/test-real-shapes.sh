#!/bin/sh
# Every shape real tools write (tests/codec/test_real_shapes.c: kubectl's
# indented JSON Lists, other indents and member orders, CRLF, BOM, escapes,
# Lists in Lists, streams of objects and of Lists, kubectl's -o yaml List)
# made from each example cluster gives the same exit code, stdout and
# stderr as the YAML it was made from, through validate, hash, simulate,
# disrupt and reconcile. The shapes with an extra annotation that holds
# every JSON escape are compared with their plain JSON instead.
# usage: test-real-shapes.sh TOOL SHAPES_PROGRAM SOURCE_ROOT
tool=$1 shapes=$2 src=$3
. "$(dirname "$0")/tap.sh"
now=2025-06-01T12:00:00Z

# outputs NAME FILE: every command's exit code, stdout and stderr on FILE,
# into $tmpd/NAME.out (the file's name replaced by FILE).
outputs() {
	: >"$tmpd/$1.out"
	# (the input's shape matters to the reading only: one output format
	# per command)
	for cmd in "validate" "hash -o json" "simulate -o json" \
		"disrupt --now $now -o json --passes 0" "reconcile --now $now -o yaml"; do
		# shellcheck disable=SC2086
		"$tool" $cmd -f "$2" >"$tmpd/o" 2>"$tmpd/e"
		echo "== $cmd: exit $?" >>"$tmpd/$1.out"
		cat "$tmpd/o" "$tmpd/e" | sed "s|$2|FILE|g" >>"$tmpd/$1.out"
	done
}

for ex in cluster disruption lifecycle; do
	mkdir -p "$tmpd/$ex"
	for f in "$src/examples/$ex"/*.yaml; do
		cat "$f"
		printf -- '---\n'
	done >"$tmpd/$ex/$ex.yaml"
	run_cmd "$shapes" --emit "$tmpd/$ex" "$tmpd/$ex/$ex.yaml"
	check "$ex: the shapes are written" [ "$rc" -eq 0 ]
	count=$(ls "$tmpd/$ex" | wc -l)
	check "$ex: 23 shapes besides the YAML ($((count - 1)))" [ "$count" -eq 24 ]
	outputs want "$tmpd/$ex/$ex.yaml"
	outputs want-odd "$tmpd/$ex/$ex.odd-list-plain.json"
	check "$ex: the YAML is read (objects validated)" grep -q "objects in 1 file" "$tmpd/want.out"
	for shape in "$tmpd/$ex/$ex".*.json "$tmpd/$ex/$ex".*.yaml; do
		name=$(basename "$shape")
		want=want
		case $name in *.odd-*) want=want-odd ;; esac
		outputs got "$shape"
		run_cmd diff "$tmpd/$want.out" "$tmpd/got.out"
		check "$ex: $name: exit codes and outputs as the YAML's" [ "$rc" -eq 0 ]
	done
done
finish
