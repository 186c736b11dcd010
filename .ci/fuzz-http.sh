#!/usr/bin/env bash
# Schemathesis against openswiftdata-server over each store, from the OpenAPI document it serves:
# FUZZ_HTTP_EXAMPLES cases per operation (1,000 unless set), fixed seed. Fails on any 5xx, on a
# crash, when the server no longer answers afterwards, or when its store fails its integrity check.
set -euo pipefail
server=${1:?usage: fuzz-http.sh SERVER_BINARY}
examples=${FUZZ_HTTP_EXAMPLES:-1000}
token=fuzz-http-token

command -v schemathesis >/dev/null || { echo "fuzz-http: schemathesis is missing (pip install schemathesis)" >&2; exit 1; }

run() {
    local kind=$1 file=$2
    local directory; directory=$(mktemp -d)
    "$server" --store "$kind:$directory/$file" --port 0 --admin-token "$token" --log-level info >"$directory/out" 2>"$directory/err" &
    local pid=$!
    local port=""
    for _ in $(seq 100); do
        port=$(grep -o 'http://127.0.0.1:[0-9]*' "$directory/err" 2>/dev/null | head -1 | cut -d: -f3 || true)
        [ -n "$port" ] && break
        sleep 0.2
    done
    [ -n "$port" ] || { echo "fuzz-http ($kind): the server did not start" >&2; cat "$directory/err" >&2; exit 1; }
    local url=http://127.0.0.1:$port
    local status=0
    # history/events is left out: its answer is an event stream that never completes, so every
    # case would wait for the request timeout. RemoteHistoryTests cover its errors and events.
    schemathesis run "$url/v1/openapi.yaml" --url "$url" -H "Authorization: Bearer $token" \
        --exclude-path /v1/history/events \
        --checks not_a_server_error --max-examples "$examples" --seed 23 \
        --phases examples,coverage,fuzzing --workers 2 --request-timeout 60 --no-color \
        --report ndjson --report-ndjson-path "$directory/events.ndjson" >"$directory/schemathesis.log" 2>&1 || status=$?
    tail -25 "$directory/schemathesis.log"
    python3 .ci/fuzz_http_counts.py "$directory/events.ndjson" "$kind"
    kill -0 "$pid" 2>/dev/null || { echo "fuzz-http ($kind): the server crashed" >&2; cat "$directory/err" >&2; exit 1; }
    curl -fsS "$url/v1/health" >/dev/null || { echo "fuzz-http ($kind): the server no longer answers" >&2; exit 1; }
    kill -TERM "$pid"; wait "$pid" || true
    if [ "$kind" = sqlite ]; then
        python3 -c 'import sqlite3, sys; r = sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0]; print("fuzz-http (sqlite): integrity_check", r); sys.exit(r != "ok")' "$directory/$file"
    else
        # The store must open its file again and answer from it.
        "$server" --store "$kind:$directory/$file" --port 0 --admin-token "$token" --log-level info >"$directory/out2" 2>&1 &
        local again=$!
        for _ in $(seq 100); do grep -q 'http://127.0.0.1' "$directory/out2" 2>/dev/null && break; sleep 0.2; done
        port=$(grep -o 'http://127.0.0.1:[0-9]*' "$directory/out2" | head -1 | cut -d: -f3)
        curl -fsS -H "Authorization: Bearer $token" -d '{"query":{"entityName":"Trip","sortBy":[]}}' "http://127.0.0.1:$port/v1/count" \
            || { echo "fuzz-http (json): the store cannot read its file after the run" >&2; exit 1; }
        echo
        echo " fuzz-http (json): the file reads back"
        kill -TERM "$again"; wait "$again" || true
    fi
    rm -rf "$directory"
    [ "$status" -eq 0 ] || { echo "fuzz-http ($kind): schemathesis found failures (see above)" >&2; exit 1; }
}

# The two stores at once: schemathesis spends most of its time generating cases, on one core each.
logs=$(mktemp -d)
run sqlite trips.store >"$logs/sqlite" 2>&1 & sqlite=$!
run json trips.json >"$logs/json" 2>&1 & json=$!
failed=0
wait "$sqlite" || failed=1
wait "$json" || failed=1
cat "$logs/sqlite" "$logs/json"
rm -rf "$logs"
exit "$failed"
