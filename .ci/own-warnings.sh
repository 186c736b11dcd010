#!/usr/bin/env bash
# Fails, naming them, if a build log holds warnings from this project's own files (not from
# .build/checkouts), so that a new warning is seen the day it appears: apps that build with
# -warnings-as-errors against this package stay clean.
#
#     .ci/own-warnings.sh BUILD_LOG...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
own=$(grep -hE "^${root}/(Sources|Tests|Plugins|OpenSwiftDataVapor/(Sources|Tests)|Fuzz)/[^ ]*: warning: " "$@" | sort -u || true)
if [ -n "$own" ]; then
    echo "own-warnings: the build warned in this project's own files:" >&2
    echo "$own" >&2
    exit 1
fi
echo "own-warnings: no warning from this project's own files"
