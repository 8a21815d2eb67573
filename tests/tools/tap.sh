# Minimal TAP helpers for the command-line tests (sourced).
# run_cmd CMD...      runs CMD, sets $out (stdout), $errout (stderr), $rc
# check NAME COND...  one TAP line; COND is a test(1) expression or command
n=0
fails=0
tmpd=$(mktemp -d)
trap 'rm -rf "$tmpd"' EXIT
run_cmd() {
	"$@" >"$tmpd/out" 2>"$tmpd/err"
	rc=$?
	out=$(cat "$tmpd/out")
	errout=$(cat "$tmpd/err")
}
check() {
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
	else
		echo "not ok $n - $name"
		echo "# rc=$rc"
		printf '%s\n' "$out" | sed 's/^/# stdout: /'
		printf '%s\n' "$errout" | sed 's/^/# stderr: /'
		fails=$((fails + 1))
	fi
}
contains() { printf '%s\n' "$1" | grep -qF -- "$2"; }
finish() {
	echo "1..$n"
	[ "$fails" -eq 0 ]
}
