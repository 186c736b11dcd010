#!/usr/bin/env python3
"""kill -9 loop: openswiftdata-server over each store is killed mid-save again and again.

Per store (sqlite, json): a client saves trips with one idempotency key each; the server is
killed with SIGKILL at a random moment; after the restart the client retries the saves that
were not answered (as RemoteStore does), and the directory must hold no temporary file. At the
end every acknowledged save must be stored exactly once.

Usage: kill_loop.py SERVER_BINARY   (KILL_LOOP_KILLS: kills per store, default 100)
"""
import json, os, random, shutil, signal, sys, tempfile, threading, time, urllib.error, urllib.request

import served

TOKEN = "kill-loop-token"
KILLS = int(os.environ.get("KILL_LOOP_KILLS", "100"))
random.seed(23)


def request(url, path, body, key=None, timeout=10):
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(req, timeout=timeout) as response:
        return response.status, json.loads(response.read() or b"null")


def trip(name):
    return served.trip(name, "Loop")


def save(url, name):
    status, _ = request(url, "/v1/save", {"inserted": [trip(name)], "updated": [], "deleted": []}, key=f"key-{name}")
    if status != 200:
        raise RuntimeError(f"save {name} got {status}")


def leftovers(directory):
    return [n for n in os.listdir(directory) if ".tmp-" in n or n.endswith("-journal")]


def run(binary, kind):
    directory = tempfile.mkdtemp(prefix=f"kill-loop-{kind}-")
    store = f"{kind}:{os.path.join(directory, 'trips.' + ('store' if kind == 'sqlite' else 'json'))}"
    acknowledged, unanswered, sequence = [], [], 0
    for kill in range(KILLS + 1):
        process, url = served.start(binary, store, TOKEN)
        if leftovers(directory):
            sys.exit(f"kill-loop ({kind}): temporary files after restart {kill}: {leftovers(directory)}")
        for name in unanswered:  # the client's retry with the same key
            save(url, name)
            acknowledged.append(name)
        unanswered = []
        if kill == KILLS:
            status, reply = request(url, "/v1/fetch", {"query": {"entityName": "Trip", "sortBy": []}})
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
            names = [snapshot["name"] for snapshot in reply["snapshots"]]
            missing = [n for n in acknowledged if names.count(n) == 0]
            doubled = [n for n in acknowledged if names.count(n) > 1]
            if status != 200 or missing or doubled:
                sys.exit(f"kill-loop ({kind}): missing {missing[:5]}, stored twice {doubled[:5]}")
            print(f"kill-loop ({kind}): {KILLS} kills survived, {len(acknowledged)} acknowledged saves each stored once, no temporary files")
            shutil.rmtree(directory)
            return
        # Save until a random moment, then kill the server while one more save is in flight: its
        # answer is lost (or arrives just before the kill), and the client retries it.
        deadline = time.monotonic() + random.uniform(0.05, 0.4)
        while time.monotonic() < deadline:
            sequence += 1
            save(url, f"trip-{sequence}")
            acknowledged.append(f"trip-{sequence}")
        sequence += 1
        unanswered.append(f"trip-{sequence}")
        thread = threading.Thread(target=_try_save, args=(url, f"trip-{sequence}"))
        thread.start()
        time.sleep(random.uniform(0, 0.01))
        process.kill()
        process.wait()
        thread.join()


def _try_save(url, name):
    try:
        save(url, name)
    except (urllib.error.URLError, ConnectionError, OSError, RuntimeError):
        pass


if __name__ == "__main__":
    for kind in ("sqlite", "json"):
        run(sys.argv[1], kind)
