#!/usr/bin/env python3
"""Large bodies cost the server memory while they are served, not after (issue 46, item 11).
openswiftdata-server over SQLite with a 16 MiB body limit accepts BODY_MEMORY_SAVES saves, each a
body of exactly the limit (one trip whose notes fill it), then refuses one byte more with 413.
Fails when the peak resident size (VmHWM) grew by more than PEAK_FACTOR bodies plus a constant, or
when the resident size (VmRSS) after the last save is more than RETAINED_GROWTH above what it was
after the first: each body's memory must go back once its save is answered.

Usage: body_memory.py SERVER_BINARY
"""
import http.client, json, os, shutil, socket, sys, tempfile, time, urllib.error, urllib.request

import served

TOKEN = "body-memory-token"
LIMIT = 16 << 20
SAVES = int(os.environ.get("BODY_MEMORY_SAVES", "6"))
# A save holds the decoded text, and SQLite its bound copy and the row it writes: three bodies at
# its peak. The constant covers the server's first requests (code paged in, caches, arenas).
PEAK_FACTOR = 4
CONSTANT = 24 << 20
RETAINED_GROWTH = 4 << 20


def memory(pid):
    """VmRSS and VmHWM of the process, in bytes."""
    values = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                values[name] = int(value.split()[0]) * 1024
    return values


def save_body(index, size):
    """A save of one trip whose notes make the body exactly `size` bytes."""
    trip = served.trip(f"large-{index}", "D")
    trip["notes"] = ""
    overhead = len(json.dumps({"inserted": [trip], "updated": [], "deleted": []}).encode())
    trip["notes"] = "n" * (size - overhead)
    return json.dumps({"inserted": [trip], "updated": [], "deleted": []}).encode()


def post(url, path, data, key=None):
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    if key:
        headers["Idempotency-Key"] = key
    request = urllib.request.Request(url + path, data=data, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def refused_size(url, length):
    """The answer to a save announcing `length` bytes: the server answers from the headers and
    closes, so only the headers and a first part of the body are sent."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=60) as connection:
        connection.sendall((f"POST /v1/save HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {TOKEN}\r\n"
                            f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{").encode())
        response = http.client.HTTPResponse(connection)
        response.begin()
        return response.status, response.read()


def mib(value):
    return f"{value / (1 << 20):.1f} MiB"


def main():
    binary = sys.argv[1]
    directory = tempfile.mkdtemp(prefix="body-memory-")
    process, url = served.start(binary, f"sqlite:{os.path.join(directory, 'trips.sqlite')}", TOKEN,
                                ["--max-body-size", str(LIMIT)])
    try:
        # A small save first, so the baseline has the code of the save path paged in.
        status, _ = post(url, "/v1/save", save_body("warm-up", 4096))
        assert status == 200, f"the warm-up save got {status}"
        start = memory(process.pid)
        after_first = None
        began = time.monotonic()
        for index in range(SAVES):
            body = save_body(index, LIMIT)
            assert len(body) == LIMIT
            sent = time.monotonic()
            status, answer = post(url, "/v1/save", body, key=f"large-{index}")
            seconds = time.monotonic() - sent
            del body
            if status != 200:
                sys.exit(f"body-memory: save {index} of a {mib(LIMIT)} body got {status}: {answer[:300]!r}")
            now = memory(process.pid)
            after_first = after_first or now
            print(f"body-memory: save {index} ({seconds:.1f} s): VmRSS {mib(now['VmRSS'])}, VmHWM {mib(now['VmHWM'])}")
        status, answer = refused_size(url, LIMIT + 1)
        code = json.loads(answer).get("error", {}).get("code") if status == 413 else None
        if status != 413 or code != "payloadTooLarge":
            sys.exit(f"body-memory: a body one byte over the limit got {status}: {answer[:300]!r}, not 413 payloadTooLarge")
        status, answer = post(url, "/v1/count", json.dumps({"query": {"entityName": "Trip", "sortBy": []}}).encode())
        if status != 200 or json.loads(answer)["count"] != SAVES + 1:
            sys.exit(f"body-memory: the store holds {answer[:100]!r} trips after {SAVES + 1} saves")
        end = memory(process.pid)
        peak_growth = end["VmHWM"] - start["VmHWM"]
        retained = end["VmRSS"] - after_first["VmRSS"]
        print(f"body-memory: {SAVES} saves of {mib(LIMIT)} in {time.monotonic() - began:.1f} s: VmRSS {mib(start['VmRSS'])} -> "
              f"{mib(end['VmRSS'])}, peak growth {mib(peak_growth)} ({peak_growth / LIMIT:.2f} bodies), "
              f"growth after the first save {mib(retained)}")
        allowed = PEAK_FACTOR * LIMIT + CONSTANT
        if peak_growth > allowed:
            sys.exit(f"body-memory: the peak grew by {mib(peak_growth)}, over {PEAK_FACTOR} bodies + {mib(CONSTANT)} = {mib(allowed)}")
        if retained > RETAINED_GROWTH:
            sys.exit(f"body-memory: the server kept {mib(retained)} more after {SAVES - 1} further saves, over {mib(RETAINED_GROWTH)}: "
                     f"bodies or their copies outlive their requests")
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
