#!/usr/bin/env python3
"""Prints how many cases schemathesis generated per operation, from its NDJSON report."""
import collections, json, sys

cases = collections.Counter()
for line in open(sys.argv[1]):
    event = json.loads(line)
    finished = event.get("ScenarioFinished")
    if finished and finished.get("recorder"):
        cases[finished["recorder"]["label"]] += len(finished["recorder"].get("cases", {}))
for label, count in sorted(cases.items()):
    print(f" fuzz-http ({sys.argv[2]}): {label}: {count} cases")
