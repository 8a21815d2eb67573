#!/bin/sh
# Only libkarpenter-aws may link libcurl.
# usage: check-needed.sh LIBRARY.so
set -eu
if readelf -d "$1" | grep -q 'NEEDED.*libcurl'; then
	echo "FAIL: $(basename "$1") links libcurl"
	exit 1
fi
echo "ok: $(basename "$1") does not link libcurl"
