#!/usr/bin/env python3
"""PostgreSQL crash loop: openswiftdata-server over PostgreSQL while the database is stopped
with `pg_ctl stop -m immediate` (a crash) and started again, over and over (issue 46).

A cluster of its own (synchronous_commit=on, fsync=on) on 127.0.0.1; two clients save trips, one
idempotency key each, and retry an unanswered or refused save with its key until it is
acknowledged, as RemoteStore does. The run fails on
- a stall: a request not answered within the server's time limit plus a margin;
- an outage answered with anything but 503 (with Retry-After) or 200;
- a server that does not serve again within the time limit after PostgreSQL is back;
- an acknowledged save missing, or any save stored twice, at the end.

Usage: postgres_crash_loop.py SERVER_BINARY
       (CRASH_LOOP_STOPS: stops, default 20; CRASH_LOOP_TIME_LIMIT: the server's limit, default 5 s)
"""
import json, os, random, shutil, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

import served

TOKEN = "crash-loop-token"
STOPS = int(os.environ.get("CRASH_LOOP_STOPS", "20"))
LIMIT = int(os.environ.get("CRASH_LOOP_TIME_LIMIT", "5"))
# How much later than the server's limit an answer may come (scheduling on a busy machine).
MARGIN = 3.0
random.seed(46)


def postgres_bin():
    for directory in sorted((f"/usr/lib/postgresql/{v}/bin" for v in os.listdir("/usr/lib/postgresql")), reverse=True):
        if os.path.exists(os.path.join(directory, "pg_ctl")):
            return directory
    sys.exit("crash-loop: pg_ctl not found; install PostgreSQL (apt-get install postgresql)")


class Cluster:
    """A throw-away cluster; as root it belongs to the unprivileged `postgres` user, as initdb wants."""

    def __init__(self):
        self.bin = postgres_bin()
        self.dir = tempfile.mkdtemp(prefix="osd-crash-loop-")
        os.chmod(self.dir, 0o755)
        self.owner = os.environ.get("OSD_POSTGRES_OS_USER", "postgres") if os.geteuid() == 0 else None
        if self.owner:
            shutil.chown(self.dir, self.owner)
        self.port = served.free_port()
        self.run("initdb", "-D", f"{self.dir}/data", "-U", "osd", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8")
        self.start()
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "osd", "osd")
        self.url = f"postgres://osd@127.0.0.1:{self.port}/osd"

    def run(self, tool, *arguments):
        command = [os.path.join(self.bin, tool), *arguments]
        if self.owner:
            command = ["runuser", "-u", self.owner, "--", *command]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if result.returncode != 0:
            sys.exit(f"crash-loop: {tool} failed:\n{result.stdout.decode()}")

    def start(self):
        options = f"-h 127.0.0.1 -p {self.port} -k {self.dir} -c synchronous_commit=on -c fsync=on"
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-l", f"{self.dir}/server.log", "-w", "-t", "60", "-o", options, "start")

    def crash(self):
        self.run("pg_ctl", "-D", f"{self.dir}/data", "-m", "immediate", "-w", "stop")

    def remove(self):
        subprocess.run([*(["runuser", "-u", self.owner, "--"] if self.owner else []),
                        os.path.join(self.bin, "pg_ctl"), "-D", f"{self.dir}/data", "-m", "immediate", "-w", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)


def trip(name):
    return served.trip(name, "Crash")


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.acknowledged, self.outages, self.stalls, self.wrong, self.abandoned = [], 0, [], [], []
        self.last_success = time.monotonic()


def post(url, path, body, key=None):
    """The status, the Retry-After header and the body, or (None, None, reason) when no answer came in time."""
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=LIMIT + MARGIN) as response:
            return response.status, response.headers.get("Retry-After"), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Retry-After"), error.read()
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as error:
        return None, None, str(error)


def client(url, name, tally, stop):
    sequence = 0
    while not stop.is_set():
        sequence += 1
        trip_name = f"{name}-{sequence}"
        while True:  # the same save, with the same key, until it is acknowledged
            if stop.is_set() and time.monotonic() > stop.deadline:
                with tally.lock:
                    tally.abandoned.append(trip_name)
                return
            started = time.monotonic()
            status, retry_after, body = post(url, "/v1/save", {"inserted": [trip(trip_name)], "updated": [], "deleted": []},
                                             key=f"key-{trip_name}")
            elapsed = time.monotonic() - started
            with tally.lock:
                if status is None or elapsed > LIMIT + MARGIN:
                    tally.stalls.append(f"{trip_name} after {elapsed:.1f} s ({body})")
                elif status == 200:
                    tally.acknowledged.append(trip_name)
                    tally.last_success = time.monotonic()
                    break
                elif status == 503 and retry_after:
                    tally.outages += 1
                else:
                    tally.wrong.append(f"{trip_name}: {status} (Retry-After {retry_after}) {body[:300]!r}")
            time.sleep(0.05 if status == 503 else 0.2)


def main(binary):
    cluster = Cluster()
    process = None
    try:
        process, url = served.start(binary, cluster.url, TOKEN, ["--time-limit", str(LIMIT)])
        tally, stop = Tally(), threading.Event()
        clients = [threading.Thread(target=client, args=(url, f"c{index}", tally, stop)) for index in range(2)]
        for thread in clients:
            thread.start()
        recoveries = []
        for index in range(STOPS):
            time.sleep(random.uniform(0.2, 1.5))
            cluster.crash()
            time.sleep(random.uniform(0.1, 2.0))
            cluster.start()
            back = time.monotonic()
            while True:
                with tally.lock:
                    if tally.last_success > back:
                        recoveries.append(tally.last_success - back)
                        break
                if time.monotonic() - back > LIMIT + MARGIN:
                    recoveries.append(None)
                    break
                time.sleep(0.05)
            with tally.lock:
                print(f"crash-loop: stop {index + 1}: {len(tally.acknowledged)} acknowledged, {tally.outages} answers of 503, "
                      f"{len(tally.stalls)} stalls, {len(tally.wrong)} other answers", flush=True)
        # PostgreSQL is up for good now: every save under way must get through within the limit.
        stop.deadline = time.monotonic() + 2 * (LIMIT + MARGIN)
        stop.set()
        for thread in clients:
            thread.join()
        status, _, body = post(url, "/v1/fetch", {"query": {"entityName": "Trip", "sortBy": []}})
        if status != 200:
            sys.exit(f"crash-loop: the final fetch got {status}: {body[:300]!r}")
        names = [snapshot["name"] for snapshot in json.loads(body)["snapshots"]]
        missing = [n for n in tally.acknowledged if n not in names]
        doubled = sorted({n for n in names if names.count(n) > 1})
        slow = [index for index, seconds in enumerate(recoveries) if seconds is None]
        print(f"crash-loop: {STOPS} immediate stops, {len(tally.acknowledged)} acknowledged saves, {tally.outages} answers of 503, "
              f"{len(tally.stalls)} stalls, {len(tally.wrong)} other answers, {len(tally.abandoned)} never acknowledged, {len(missing)} lost, {len(doubled)} stored twice, "
              f"slowest recovery {max((s for s in recoveries if s is not None), default=0):.2f} s")
        problems = [f"stalls: {tally.stalls[:3]}" if tally.stalls else "",
                    f"saves never acknowledged after the last restart: {tally.abandoned}" if tally.abandoned else "", f"other answers: {tally.wrong[:3]}" if tally.wrong else "",
                    f"lost: {missing[:5]}" if missing else "", f"stored twice: {doubled[:5]}" if doubled else "",
                    f"no save within {LIMIT + MARGIN} s of PostgreSQL's restart after stops {slow}" if slow else ""]
        problems = [p for p in problems if p]
        if problems:
            sys.exit("crash-loop: " + "; ".join(problems))
    finally:
        if process:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        cluster.remove()


if __name__ == "__main__":
    main(sys.argv[1])
