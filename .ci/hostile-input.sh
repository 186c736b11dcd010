#!/usr/bin/env bash
# The server under hostile input and overload (issue 23), after `swift build --build-tests`:
# libFuzzer targets, schemathesis against the served OpenAPI document, kill -9 loops over both
# stores (saves through the server, and schema migrations), and light requests timed beside
# heavy ones. About 6–8 minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v python3 >/dev/null || { echo "hostile-input: python3 is missing" >&2; exit 1; }
command -v curl >/dev/null || { echo "hostile-input: curl is missing" >&2; exit 1; }
if ! command -v schemathesis >/dev/null; then
    # A Debian-managed python3 refuses plain pip installs (PEP 668).
    python3 -m pip install --quiet schemathesis || python3 -m pip install --quiet --break-system-packages schemathesis
    export PATH="$HOME/.local/bin:$PATH"
fi
command -v schemathesis >/dev/null || { echo "hostile-input: schemathesis did not install (pip install schemathesis)" >&2; exit 1; }

server=$(swift build --show-bin-path)/openswiftdata-server
[ -x "$server" ] || { echo "hostile-input: $server is missing; run swift build first" >&2; exit 1; }

bash .ci/fuzz.sh
bash .ci/fuzz-http.sh "$server"
python3 .ci/kill_loop.py "$server"
# 50 kills per store keeps this to minutes; MIGRATION_KILLS=200 is the issue's full run.
MIGRATION_KILLS=${MIGRATION_KILLS:-50} python3 .ci/migration_kill_loop.py "$(dirname "$server")/MigrationCrashChild"
python3 .ci/isolation_probe.py "$server"
