"""Starts openswiftdata-server for the CI scripts and finds the port it chose."""
import re, socket, subprocess, sys, threading


def start(binary, store, token, arguments=()):
    """The process and its URL; the server logs to standard error, and its start lines name the port."""
    process = subprocess.Popen([binary, "--store", store, "--port", "0", "--token", token, "--log-level", "info", *arguments],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for line in process.stderr:
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line.decode())
        if match:
            # The server logs every request at info: a pipe nobody reads fills up, and the
            # server then blocks writing its log, request after request.
            threading.Thread(target=drain, args=(process.stderr,), daemon=True).start()
            return process, f"http://127.0.0.1:{match.group(1)}"
    sys.exit(f"{binary} did not start (exit status {process.wait()})")


def drain(stream):
    for _ in stream:
        pass


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def trip(name, destination):
    """A new trip's snapshot as a save request carries it, with a temporary identifier."""
    temporary = f"t-{name}"
    return {"persistentIdentifier": {"implementation": {"entityName": "Trip", "isTemporary": True, "primaryKey": temporary,
                                                        "uriRepresentation": f"x-swiftdata://temporary/Trip/{temporary}"}},
            "name": name, "destination": destination, "startDate": 0, "endDate": 0, "budgetCents": 100, "notes": None,
            "bucketList": [], "livingAccommodation": None}
