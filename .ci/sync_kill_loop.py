#!/usr/bin/env python3
"""Faults under StoreSync (issue 49): `trips sync` killed with SIGKILL during push and during
pull, and the server killed and restarted during pushes; then every store must converge.

Two clients, each a local SQLite store edited with `trips` (add, edit, bucket-list add, delete),
sync through one openswiftdata-server:
- push: client A edits, and its `trips sync` is killed at a random moment of its push;
- pull: A syncs in full, and client B's `trips sync`, with nothing of its own to push, is killed
  at a random moment of its pull;
- server: A or B edits, and the server is killed while that client's sync runs, then restarted
  on the same port and store.
A kill counts when it lands while the sync still runs; each phase goes on until it has its count.
At the end both clients sync until quiet, and A, B and the server must each hold exactly the trips
and bucket-list items the clients' acknowledged commands made: no lost local change, no item
twice. A failure prints the seed.

Usage: sync_kill_loop.py SERVER_BINARY TRIPS_BINARY
  (SYNC_KILLS: kills per client phase, default 50; SYNC_SERVER_KILLS: default 20; SYNC_SEED)
"""
import atexit, json, os, random, shutil, signal, subprocess, sys, tempfile, time

import served

TOKEN = "sync-kill-loop-token"
KILLS = int(os.environ.get("SYNC_KILLS", "50"))
SERVER_KILLS = int(os.environ.get("SYNC_SERVER_KILLS", "20"))
SEED = int(os.environ.get("SYNC_SEED", str(random.randrange(1 << 30))))
START = "2027-03-01"


def fail(message):
    sys.exit(f"sync-kill-loop (seed {SEED}): {message}")


class Server:
    """The server on one store and one port across restarts, as clients keep its URL."""

    def __init__(self, binary, directory):
        self.binary, self.store, self.port = binary, f"sqlite:{os.path.join(directory, 'server.store')}", served.free_port()
        self.url, self.process = f"http://127.0.0.1:{self.port}", None

    def start(self):
        for _ in range(50):  # the port of a killed server can take a moment to be free again
            self.process = subprocess.Popen([self.binary, "--store", self.store, "--port", str(self.port), "--token", TOKEN],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            atexit.register(self.process.kill)  # a failed check exits; no server outlives it
            if self.wait_until_serving():
                return
            self.process.kill()
            self.process.wait()
        fail(f"the server did not start on port {self.port}")

    def wait_until_serving(self):
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                subprocess.run(["curl", "-sf", "-o", "/dev/null", "-H", f"Authorization: Bearer {TOKEN}", f"{self.url}/v1/health"],
                               check=True, timeout=5)
                return True
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
                time.sleep(0.05)
        return False

    def kill(self):
        self.process.kill()
        self.process.wait()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


class Client:
    """A local store, the commands applied to it, and the state they should leave everywhere."""

    def __init__(self, trips, directory, name, expected):
        self.trips, self.name, self.expected, self.made = trips, name, expected, 0
        self.store = os.path.join(directory, f"{name}.store")

    def run(self, *arguments, remote=None):
        command = [self.trips, *arguments]
        command += ["--remote", remote, "--token", TOKEN] if remote else ["--store", self.store]
        return subprocess.run(command, capture_output=True, text=True, timeout=120)

    def must(self, *arguments):
        result = self.run(*arguments)
        if result.returncode != 0:
            fail(f"{self.name}: trips {' '.join(arguments)} failed: {result.stderr.strip()}")

    def edit(self, rng):
        """One to three commands on this client's own trips, recorded once they succeed."""
        own = sorted(name for name in self.expected if name.startswith(self.name + "-"))
        for _ in range(rng.randint(1, 3)):
            choice = rng.random()
            if not own or choice < 0.4:
                self.made += 1
                trip, budget = f"{self.name}-{self.made}", rng.randint(1, 5000)
                self.must("add", trip, "--destination", "Loop", "--start", START, "--budget", str(budget))
                self.expected[trip] = {"budget": float(budget), "items": []}
                own.append(trip)
            elif choice < 0.65:
                trip, budget = rng.choice(own), rng.randint(1, 5000)
                self.must("edit", trip, "--budget", str(budget))
                self.expected[trip]["budget"] = float(budget)
            elif choice < 0.9:
                trip = rng.choice(own)
                self.made += 1
                title = f"item-{self.name}-{self.made}"
                self.must("bucket", "add", trip, title)
                self.expected[trip]["items"].append(title)
            else:
                trip = rng.choice(own)
                self.must("delete", trip)
                del self.expected[trip]
                own.remove(trip)

    def sync_command(self, server):
        return [self.trips, "sync", "--store", self.store, "--remote", server.url, "--token", TOKEN]

    def sync_until_done(self, server):
        for _ in range(20):
            if subprocess.run(self.sync_command(server), capture_output=True, timeout=120).returncode == 0:
                return
            time.sleep(0.2)
        fail(f"{self.name}: trips sync kept failing with the server up")

    def interrupted_sync(self, server, rng, window, on_kill=None):
        """Starts a sync and kills it (or the server) at a random moment of the window, past the
        process's start-up; True when the kill landed while the sync ran."""
        process = subprocess.Popen(self.sync_command(server), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(window.start, window.end))
        landed = process.poll() is None
        window.learn(landed)
        if on_kill:
            on_kill()
            process.wait(timeout=120)
        else:
            process.kill()
            process.wait()
        return landed


def listing(client, remote=None):
    result = client.run("list", "--json", remote=remote)
    if result.returncode != 0:
        fail(f"trips list ({'server' if remote else client.name}) failed: {result.stderr.strip()}")
    trips = {}
    for trip in json.loads(result.stdout or "[]"):
        if trip["name"] in trips:
            fail(f"{'the server' if remote else client.name} holds the trip {trip['name']} twice")
        # `list` leaves bucket lists out; `show` has them.
        shown = client.run("show", trip["name"], "--json", remote=remote)
        if shown.returncode != 0:
            fail(f"trips show {trip['name']} ({'server' if remote else client.name}) failed: {shown.stderr.strip()}")
        items = [item["title"] for item in json.loads(shown.stdout).get("bucketList") or []]
        trips[trip["name"]] = {"budget": trip["budget"], "items": sorted(items)}
    return trips


def compare(where, found, expected):
    """What differs, or None."""
    want = {name: {"budget": trip["budget"], "items": sorted(trip["items"])} for name, trip in expected.items()}
    if found != want:
        lost = sorted(set(want) - set(found))
        extra = sorted(set(found) - set(want))
        differing = sorted(name for name in set(want) & set(found) if want[name] != found[name])[:3]
        return (f"{where} differs from the clients' commands: lost {lost[:5]}, unexpected {extra[:5]}, "
                f"differing {[(name, found[name], want[name]) for name in differing]}")
    return None


class Window:
    """When, after its start, a sync talks to the server here: after the time `trips` takes to
    start and open the store (a `list`), up to about the time a whole sync takes. The end
    follows the syncs: it shrinks when a sync was over before its kill, and grows when not."""

    def __init__(self, client, server):
        began = time.monotonic()
        client.run("list")
        self.start = (time.monotonic() - began) * 0.9
        began = time.monotonic()
        client.sync_until_done(server)
        self.end = max(self.start * 1.5, time.monotonic() - began)

    def learn(self, landed):
        self.end = max(self.start * 1.2, self.end * (1.05 if landed else 0.85))


def main(server_binary, trips_binary):
    rng = random.Random(SEED)
    directory = tempfile.mkdtemp(prefix="sync-kill-loop-")
    server = Server(server_binary, directory)
    server.start()
    expected = {}
    a, b = Client(trips_binary, directory, "a", expected), Client(trips_binary, directory, "b", expected)
    print(f"sync-kill-loop: seed {SEED}", flush=True)
    a.edit(rng)
    a.sync_until_done(server)  # a first sync sets up more than the later ones
    a.edit(rng)
    window = Window(a, server)
    b.sync_until_done(server)
    counts = {"push": 0, "pull": 0, "server": 0}
    began = time.monotonic()

    def phase(name, wanted, step):
        """Runs `step` (True when its kill landed) until `wanted` kills landed, or ten times that."""
        for _ in range(wanted * 10):
            if counts[name] >= wanted:
                break
            counts[name] += step()
        print(f"sync-kill-loop: {name} phase done at {time.monotonic() - began:.0f} s, {counts}", flush=True)

    def push():
        a.edit(rng)
        return a.interrupted_sync(server, rng, window)

    def pull():
        a.edit(rng)
        a.sync_until_done(server)
        return b.interrupted_sync(server, rng, window)

    def server_kill():
        client = rng.choice([a, b])
        client.edit(rng)
        landed = client.interrupted_sync(server, rng, window, on_kill=server.kill)
        server.start()
        return landed

    phase("push", KILLS, push)
    phase("pull", KILLS, pull)
    phase("server", SERVER_KILLS, server_kill)
    if min(counts["push"], counts["pull"]) < KILLS or counts["server"] < SERVER_KILLS:
        fail(f"too few kills landed during a sync: {counts}")

    for client in (a, b, a, b):
        client.sync_until_done(server)
    problems = [problem for problem in (compare("client a", listing(a), expected), compare("client b", listing(b), expected),
                                        compare("the server", listing(a, remote=server.url), expected)) if problem]
    if problems:
        fail("; ".join(problems))
    server.stop()
    items = sum(len(trip["items"]) for trip in expected.values())
    print(f"sync-kill-loop: kills from {window.start * 1000:.0f} ms into a sync; {counts['push']} kills during push, {counts['pull']} during pull, {counts['server']} server kills "
          f"in {time.monotonic() - began:.0f} s; {len(expected)} trips and {items} items the same on both clients and the server "
          f"(seed {SEED})")
    shutil.rmtree(directory)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
