#!/usr/bin/env bash
# The data browser in headless Chromium (issue 50), after `swift build`: .ci/browser_test.py
# against openswiftdata-server --browse=edit over a SQLite store and over a PostgreSQL database.
# Screenshots of every step go to $OSD_CI_OUTPUT/browser/<store>/ (default: ci-output/ here).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
for binary in openswiftdata-server trips; do
    [ -x "$bin/$binary" ] || { echo "browser-test: $bin/$binary is missing; run swift build first" >&2; exit 1; }
done
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "browser-test: chromium is missing (apt-get install chromium)" >&2; exit 1; }
output=${OSD_CI_OUTPUT:-$PWD/ci-output}/browser
scratch=$(mktemp -d "${TMPDIR:-/tmp}/osd-browser.XXXXXX")
cleanup=(rm -rf "$scratch")

# A database of its own on the run's PostgreSQL cluster, or on one started here.
if [ -z "${OSD_POSTGRES_URL:-}" ]; then
    eval "$(scripts/postgres-cluster.sh start)"
    trap 'scripts/postgres-cluster.sh stop "$OSD_POSTGRES_DIR"; "${cleanup[@]}"' EXIT
else
    trap '"${cleanup[@]}"' EXIT
fi
database="osd_browser_$$"
psql -q "$OSD_POSTGRES_URL" -c "CREATE DATABASE $database" >/dev/null

started=$SECONDS
python3 .ci/browser_test.py "$bin/openswiftdata-server" "$bin/trips" "$chromium" "sqlite:$scratch/trips.store" "$output/sqlite"
echo "browser-test: sqlite passed in $((SECONDS - started)) s"
started=$SECONDS
python3 .ci/browser_test.py "$bin/openswiftdata-server" "$bin/trips" "$chromium" "${OSD_POSTGRES_URL%/*}/$database" "$output/postgres"
echo "browser-test: postgres passed in $((SECONDS - started)) s"
psql -q "$OSD_POSTGRES_URL" -c "DROP DATABASE $database" >/dev/null
