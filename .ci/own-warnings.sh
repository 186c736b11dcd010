#!/usr/bin/env bash
# Fails, naming them, if a build log holds warnings from this project's own files (not from
# .build/checkouts), so that a new warning is seen the day it appears: apps that build with
# -warnings-as-errors against this package stay clean.
#
#     .ci/own-warnings.sh BUILD_LOG...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
paths="^${root}/(Sources|Tests|Plugins|OpenSwiftDataVapor/(Sources|Tests)|Fuzz)/"
direct=$(grep -hE "${paths}[^ ]*: warning: " "$@" || true)
# A warning in a macro's expansion is printed at "macro expansion @Model:26:77", with the file it
# came from on the next line ("`- FILE:LINE:COL: note: expanded code originates here").
expanded=$(awk -v paths="$paths" '
    /^macro expansion [^ ]*: warning: / { warning = $0; next }
    warning != "" && /: note: expanded code originates here/ {
        origin = $0; sub(/^`- /, "", origin); sub(/: note: expanded code originates here.*/, "", origin)
        if (origin ~ paths) { sub(/^macro expansion [^ ]*: /, "", warning); print origin ": (in a macro expansion) " warning }
    }
    { warning = "" }' "$@")
own=$(printf '%s\n%s\n' "$direct" "$expanded" | grep -v '^$' | sort -u || true)
if [ -n "$own" ]; then
    echo "own-warnings: the build warned in this project's own files:" >&2
    echo "$own" >&2
    exit 1
fi
echo "own-warnings: no warning from this project's own files"
