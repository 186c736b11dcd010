#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests, on 127.0.0.1, in a temporary directory.
#
#   eval "$(scripts/postgres-cluster.sh start)"   # exports OSD_POSTGRES_URL and OSD_POSTGRES_DIR
#   swift test --filter PostgresStoreTests
#   scripts/postgres-cluster.sh stop              # stops the cluster in $OSD_POSTGRES_DIR, removes it
#
# `start` prints shell `export` lines (and nothing else on stdout); progress goes to stderr.
# initdb refuses to run as root, so as root the cluster belongs to the unprivileged `postgres`
# user (OSD_POSTGRES_OS_USER overrides it).
set -euo pipefail

find_bin() {
    if command -v initdb >/dev/null 2>&1; then dirname "$(readlink -f "$(command -v initdb)")"; return; fi
    local dir
    for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$dir/initdb" ]; then echo "$dir"; return; fi
    done
    return 1
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u "${OSD_POSTGRES_OS_USER:-postgres}" -- "$@"
    else
        "$@"
    fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start() {
    local bin dir port
    bin=$(find_bin) || { echo "postgres-cluster: initdb not found; install PostgreSQL (apt-get install postgresql)" >&2; exit 2; }
    dir=$(mktemp -d "${TMPDIR:-/tmp}/osd-postgres.XXXXXX")
    chmod 755 "$dir"
    if [ "$(id -u)" -eq 0 ]; then chown "${OSD_POSTGRES_OS_USER:-postgres}" "$dir"; fi
    as_owner "$bin/initdb" -D "$dir/data" -U osd --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    port=$(free_port)
    # No Unix socket outside the cluster directory; loopback TCP only.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" start >&2 \
        || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U osd osd >&2
    echo "postgres-cluster: started in $dir on 127.0.0.1:$port" >&2
    echo "export OSD_POSTGRES_URL=postgres://osd@127.0.0.1:$port/osd"
    echo "export OSD_POSTGRES_DIR=$dir"
}

stop() {
    local dir=${1:-${OSD_POSTGRES_DIR:-}} bin
    [ -n "$dir" ] || { echo "postgres-cluster: stop needs the cluster directory (or OSD_POSTGRES_DIR)" >&2; exit 2; }
    [ -d "$dir/data" ] || { echo "postgres-cluster: no cluster in $dir" >&2; exit 2; }
    bin=$(find_bin)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >&2 || true
    rm -rf "$dir"
    echo "postgres-cluster: stopped and removed $dir" >&2
}

case "${1:-}" in
    start) start ;;
    stop) stop "${2:-}" ;;
    *) echo "usage: $0 start | stop [directory]" >&2; exit 2 ;;
esac
