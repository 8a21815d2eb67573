#!/bin/sh
# Installs the Debian 12 packages libkarpenter needs to build and test, if
# any is missing. Sourced or run by tools/run-example.sh, tools/run-tests.sh
# and .ci/run; safe to run again (does nothing when all are present).
set -eu
KP_DEB_PACKAGES="meson ninja-build gcc g++ make pkg-config binutils python3 \
libcjson-dev libyaml-dev libcurl4-openssl-dev check libsubunit-dev abigail-tools pmccabe"
# --fuzz: also what the libFuzzer build needs (clang and its runtimes).
if [ "${1:-}" = "--fuzz" ]; then
	KP_DEB_PACKAGES="$KP_DEB_PACKAGES clang libclang-rt-14-dev"
fi

missing=""
for p in $KP_DEB_PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
		|| missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "Installing missing packages:$missing"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
