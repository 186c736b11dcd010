#!/usr/bin/env python3
"""Light requests while heavy ones run: openswiftdata-server over each store holds 2,000 trips;
four clients send counts with the largest IN list the server accepts (10,000 names) over and
over, while a fifth sends one-row counts. Prints the light requests' worst and median latency
and the heavy ones'; fails when any answer is not 200, or when the 850,000-value query of
issue 23 is not refused with 400.

Usage: isolation_probe.py SERVER_BINARY   (ISOLATION_SECONDS: how long, default 10)
"""
import json, os, shutil, statistics, sys, tempfile, threading, time, urllib.error, urllib.request

import served

TOKEN = "isolation-token"
SECONDS = float(os.environ.get("ISOLATION_SECONDS", "10"))


def post(url, path, body):
    data = json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method="POST",
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    began = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.monotonic() - began


def trip(index):
    key = f"t-{index}"
    return {"persistentIdentifier": {"implementation": {"entityName": "Trip", "isTemporary": True, "primaryKey": key,
                                                        "uriRepresentation": f"x-swiftdata://temporary/Trip/{key}"}},
            "name": f"trip-{index}", "destination": "D", "startDate": index, "endDate": index, "budgetCents": 100, "notes": None,
            "bucketList": [], "livingAccommodation": None}


def count_in(names):
    values = [{"string": name} for name in names]
    return {"query": {"entityName": "Trip", "sortBy": [], "filter": {"in": {
        "_0": {"property": {"_0": ["name"]}}, "_1": values, "type": {"isOptional": False, "kind": "string"}}}}}


def probe(binary, kind, file):
    directory = tempfile.mkdtemp(prefix=f"isolation-{kind}-")
    # The 850,000-value query is a 14 MB body: over the default 4 MiB limit, which would refuse
    # it before the query's own limit on IN lists, the refusal this probe checks.
    process, url = served.start(binary, f"{kind}:{os.path.join(directory, file)}", TOKEN, ["--max-body-size", str(16 << 20)])
    try:
        status, _ = post(url, "/v1/save", {"inserted": [trip(i) for i in range(2000)], "updated": [], "deleted": []})
        assert status == 200, f"seeding got {status}"
        status, elapsed = post(url, "/v1/count", count_in([str(i % 10) for i in range(850_000)]))
        if status != 400:
            sys.exit(f"isolation ({kind}): the 850,000-value query got {status}, not 400")
        print(f"isolation ({kind}): the 850,000-value query got 400 after {elapsed:.2f}s")
        heavy_body = count_in([f"trip-{i}" for i in range(10_000)])
        light_body = count_in(["trip-7"])
        stop = time.monotonic() + SECONDS
        heavy, light, failures = [], [], []

        def loop(body, sink, pause):
            while time.monotonic() < stop:
                try:
                    status, elapsed = post(url, "/v1/count", body)
                except Exception as error:  # a request with no answer (a timeout) fails the probe too
                    failures.append(repr(error))
                    return
                (sink if status == 200 else failures).append(elapsed if status == 200 else status)
                time.sleep(pause)

        threads = [threading.Thread(target=loop, args=(heavy_body, heavy, 0)) for _ in range(4)]
        threads.append(threading.Thread(target=loop, args=(light_body, light, 0.05)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures or not light or not heavy:
            sys.exit(f"isolation ({kind}): requests without a 200: {failures[:5]}")
        print(f"isolation ({kind}): {len(light)} light counts, worst {max(light) * 1000:.0f} ms, median {statistics.median(light) * 1000:.0f} ms; "
              f"{len(heavy)} heavy counts (10,000-value IN) beside them, worst {max(heavy) * 1000:.0f} ms, median {statistics.median(heavy) * 1000:.0f} ms")
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(directory)


if __name__ == "__main__":
    probe(sys.argv[1], "sqlite", "trips.store")
    probe(sys.argv[1], "json", "trips.json")
