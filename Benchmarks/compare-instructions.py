#!/usr/bin/env python3
"""Compares the SQLite store's instruction counts, per phase and as a ratio to raw SQLite's,
between two builds of `bench`: the reproducible counterpart of compare-builds.py, whose times move
by ±15% on a shared machine. A phase's count is the inclusive count of the workload subject's
method (`protocol witness for SimpleSubject.insert…`) in a run after the first: the child runs
under callgrind for one run and for two, and the difference is the second run, without the
process's one-off costs (type metadata, first statements), which the timed medians leave out too.
At 100,000 models those costs are lost in the work, and one run is counted.
The builds run as copies without debug information, which valgrind cannot read in a release
build of this toolchain; function names are all this needs.
Instructions leave out the kernel's part (the commit's writes) and cache misses: a change that
writes more pages shows in compare-builds.py, not here.

    Benchmarks/compare-instructions.py /tmp/before/Benchmarks/.build/release/bench Benchmarks/.build/release/bench

A line ends in WORSE when the second build's ratio is over 1.1 times the first's. With
OSD_SQLITE_HISTORY=off the second build runs the store without history.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import tempfile

PLAN = [('simple', 1000), ('simple', 10000), ('simple', 100000),
        ('simple-unique', 1000), ('simple-unique', 10000), ('simple-unique', 100000),
        ('complex', 1000), ('complex', 10000)]
PHASES = {
    'simple': {'insert': 'SimpleSubject.insert', 'fetch': 'SimpleSubject.fetchJanes',
               'update': 'SimpleSubject.renameJanes', 'delete': 'SimpleSubject.deleteAll'},
    'complex': {'insert': 'ComplexSubject.insert', 'fetch': 'ComplexSubject.fetchTopPhysics',
                'update': 'ComplexSubject.resitFailures', 'delete': 'ComplexSubject.deleteAll'},
}


def count(binary, workload, size, contender):
    """Per phase, the instructions of a run after the first (of the only run at 100,000)."""
    if size >= 100000:
        return counted(binary, workload, size, contender, 1)
    one, two = (counted(binary, workload, size, contender, runs) for runs in (1, 2))
    return {phase: two[phase] - one[phase] for phase in one if phase in two}


def counted(binary, workload, size, contender, runs):
    """Per phase, the instructions of `runs` runs of the child."""
    with tempfile.TemporaryDirectory() as directory:
        output = os.path.join(directory, 'callgrind.out')
        subprocess.run(['valgrind', '--tool=callgrind', f'--callgrind-out-file={output}',
                        binary, '--child', workload, contender, str(size), str(runs)],
                       capture_output=True, check=True)
        annotated = subprocess.run(['callgrind_annotate', '--inclusive=yes', '--threshold=100', output],
                                   capture_output=True, text=True, check=True).stdout
    demangled = subprocess.run(['swift', 'demangle', '--simplified'], input=annotated,
                               capture_output=True, text=True, check=True).stdout
    phases = PHASES['complex' if workload == 'complex' else 'simple']
    counts = {}
    for line in demangled.splitlines():
        match = re.match(r'\s*([\d,]+) \([^)]*\)\s+\S*:?protocol witness for (\S+?)\(', line)
        if not match:
            continue
        for phase, witness in phases.items():
            if match.group(2) == witness:
                counts[phase] = counts.get(phase, 0) + int(match.group(1).replace(',', ''))
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('before', help='the first build of bench')
    parser.add_argument('after', help='the second build of bench')
    parser.add_argument('--workloads', help='comma-separated, e.g. simple,complex (default: every one)')
    parser.add_argument('--jobs', type=int, default=2, help='children run at once (callgrind counts do not depend on load)')
    arguments = parser.parse_args()
    chosen = set(arguments.workloads.split(',')) if arguments.workloads else None
    plan = [(workload, size) for workload, size in PLAN if not chosen or workload in chosen]
    copies = tempfile.TemporaryDirectory()
    builds = {}
    for build, binary in (('before', arguments.before), ('after', arguments.after)):
        builds[build] = os.path.join(copies.name, build)
        shutil.copy(binary, builds[build])
        subprocess.run(['strip', '--strip-debug', builds[build]], check=True)
    jobs = {(workload, size, contender, build): (builds[build], workload, size, contender)
            for workload, size in plan for contender in ('raw', 'osd') for build in builds}
    with concurrent.futures.ThreadPoolExecutor(arguments.jobs) as pool:
        futures = {key: pool.submit(count, *job) for key, job in jobs.items()}
        results = {key: future.result() for key, future in futures.items()}
    print(f"{'workload':14} {'N':>6} {'phase':7} {'raw Minstr before/after':>24} {'OSD Minstr before/after':>24}  ratio before  after  after/before")
    for workload, size in plan:
        for phase in ('insert', 'fetch', 'update', 'delete'):
            def get(contender, build):
                return results[(workload, size, contender, build)].get(phase)
            values = [get(contender, build) for contender in ('raw', 'osd') for build in ('before', 'after')]
            if None in values or 0 in values:
                print(f"{workload:14} {size:>6} {phase:7} missing from the callgrind output")
                continue
            raw_before, raw_after, osd_before, osd_after = (value / 1e6 for value in values)
            before, after = osd_before / raw_before, osd_after / raw_after
            line = (f"{workload:14} {size:>6} {phase:7} {raw_before:11.2f}/{raw_after:<12.2f} {osd_before:11.2f}/{osd_after:<12.2f}"
                    f"  {before:12.2f} {after:6.2f} {after / before:13.2f}")
            print(line + ('  WORSE' if after > before * 1.1 else ''))


if __name__ == '__main__':
    main()
