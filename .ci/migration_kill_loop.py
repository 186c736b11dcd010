#!/usr/bin/env python3
"""kill -9 during schema migrations (issue 25): a trips store of version 1 trips is migrated to
version 2 (TripsMigrationPlan's custom stage) by the MigrationCrashChild executable, which is
killed with SIGKILL at a random moment of the migration (after it says it starts migrating),
MIGRATION_KILLS times per store, each time on a fresh copy of the version 1 store. After each
kill the store must open at exactly version 1 or version 2 with all its trips and the budgets of
that version; every tenth time the next open must then finish the migration.

Usage: migration_kill_loop.py CHILD_BINARY
Environment: MIGRATION_KILLS (default 200), MIGRATION_STORES (default sqlite,json),
MIGRATION_MODELS (SQLite store, default 100000), MIGRATION_JSON_MODELS (default 20000, the size
JSONStore is made for; a debug build takes over a minute to migrate 100,000 JSON models).
"""
import os, random, shutil, signal, subprocess, sys, tempfile, time

KILLS = int(os.environ.get("MIGRATION_KILLS", "200"))
MODELS = {"sqlite": int(os.environ.get("MIGRATION_MODELS", "100000")),
          "json": int(os.environ.get("MIGRATION_JSON_MODELS", "20000"))}
STORES = os.environ.get("MIGRATION_STORES", "sqlite,json").split(",")
SIDE_FILES = ["", "-wal", "-shm"]
random.seed(25)


def child(binary, kind, *arguments):
    result = subprocess.run([binary, arguments[0], kind, *arguments[1:]], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"migration-kill-loop ({kind}): {' '.join(arguments)} failed: {result.stderr.strip()}")
    return result.stdout.strip()


def restore(template, store):
    """The version 1 store again, with its WAL if it has one; nothing else beside it."""
    directory = os.path.dirname(store)
    for name in os.listdir(directory):
        if name != os.path.basename(template) and not name.startswith(os.path.basename(template) + "-"):
            os.remove(os.path.join(directory, name))
    for suffix in SIDE_FILES:
        if os.path.exists(template + suffix):
            shutil.copyfile(template + suffix, store + suffix)


def run(binary, kind):
    models = MODELS[kind]
    directory = tempfile.mkdtemp(prefix=f"migration-kill-{kind}-")
    extension = "store" if kind == "sqlite" else "json"
    template, store = os.path.join(directory, f"v1.{extension}"), os.path.join(directory, f"trips.{extension}")
    child(binary, kind, "seed", template, str(models))
    restore(template, store)
    process = subprocess.Popen([binary, "migrate", kind, store], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.readline()
    started = time.monotonic()
    _, errors = process.communicate()
    duration = time.monotonic() - started
    if process.returncode != 0:
        sys.exit(f"migration-kill-loop ({kind}): the uninterrupted migration failed: {errors.decode().strip()}")
    if child(binary, kind, "check", store, str(models)) != "version 2.0.0":
        sys.exit(f"migration-kill-loop ({kind}): an uninterrupted migration did not reach version 2")
    found = {"version 1.0.0": 0, "version 2.0.0": 0}
    for kill in range(KILLS):
        restore(template, store)
        process = subprocess.Popen([binary, "migrate", kind, store], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if process.stdout.readline() != b"migrating\n":
            sys.exit(f"migration-kill-loop ({kind}): kill {kill}: the child did not start migrating: {process.stderr.read().decode().strip()}")
        # A tenth of the kills land after the migration has committed, or the child has exited.
        time.sleep(random.uniform(0, duration * 1.1))
        process.send_signal(signal.SIGKILL)
        _, errors = process.communicate()
        if process.returncode not in (-signal.SIGKILL, 0):
            sys.exit(f"migration-kill-loop ({kind}): kill {kill}: the migration failed by itself: {errors.decode().strip()}")
        version = child(binary, kind, "check", store, str(models))
        found[version] += 1
        if kill % 10 == 0:
            child(binary, kind, "migrate", store)
            if child(binary, kind, "check", store, str(models)) != "version 2.0.0":
                sys.exit(f"migration-kill-loop ({kind}): kill {kill}: the next open did not finish the migration")
    shutil.rmtree(directory)
    print(f"migration-kill-loop ({kind}): {KILLS} kills during a {duration:.1f} s migration of {models} trips; "
          f"{found['version 1.0.0']} opened at version 1 and {found['version 2.0.0']} at version 2, each whole")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for kind in STORES:
        run(sys.argv[1], kind)
