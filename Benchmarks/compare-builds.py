#!/usr/bin/env python3
"""Compares the SQLite store's ratios to raw SQLite between two builds of `bench`, run in turns on
the same machine, so that a change of the machine does not pass for a change of the code.

    git worktree add /tmp/before <revision>
    swift build -c release --package-path /tmp/before/Benchmarks
    swift build -c release --package-path Benchmarks
    Benchmarks/compare-builds.py /tmp/before/Benchmarks/.build/release/bench Benchmarks/.build/release/bench

Each round runs raw SQLite and the SQLite store of both builds as children (`bench --child`),
alternating which build goes first; a figure is the median of the rounds' medians. A line ends in
WORSE when the second build's ratio is over 1.1 times the first's. With OSD_SQLITE_HISTORY=off the
second build runs the store without history, as builds from before history did.
"""
import argparse
import json
import statistics
import subprocess

PLAN = [('simple', 1000, 7), ('simple', 10000, 5), ('simple', 100000, 3),
        ('simple-unique', 1000, 7), ('simple-unique', 10000, 5), ('simple-unique', 100000, 3),
        ('complex', 1000, 5), ('complex', 10000, 3), ('orders', 16000, 3),
        ('lookup', 100000, 5), ('reopen', 100000, 5), ('remote', 100000, 5)]


def child(binary, workload, size, contender, runs):
    result = subprocess.run([binary, '--child', workload, contender, str(size), str(runs)],
                            capture_output=True, text=True, check=True)
    return {phase: statistics.median(times) for phase, times in json.loads(result.stdout)['timings'].items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('before', help='the first build of bench')
    parser.add_argument('after', help='the second build of bench')
    parser.add_argument('--rounds', type=int, default=3)
    parser.add_argument('--workloads', help='comma-separated, e.g. simple,complex (default: every SQLite workload)')
    arguments = parser.parse_args()
    chosen = set(arguments.workloads.split(',')) if arguments.workloads else None
    builds = {'before': arguments.before, 'after': arguments.after}
    print(f"{'workload':14} {'N':>6} {'phase':16} {'raw ms before/after':>21} {'OSD ms before/after':>21}  ratio before  after  after/before")
    for workload, size, runs in PLAN:
        if chosen and workload not in chosen:
            continue
        contenders = ['raw', 'osd'] + (['osd-remote'] if workload == 'remote' else [])
        times = {}
        for round in range(arguments.rounds):
            for contender in contenders:
                for build in (['before', 'after'] if round % 2 == 0 else ['after', 'before']):
                    for phase, median in child(builds[build], workload, size, contender, runs).items():
                        times.setdefault((phase, contender, build), []).append(median)
        for phase in sorted({key[0] for key in times}):
            def median(contender, build):
                return statistics.median(times[(phase, contender, build)])
            before = median('osd', 'before') / median('raw', 'before')
            after = median('osd', 'after') / median('raw', 'after')
            line = (f"{workload:14} {size:>6} {phase:16} {median('raw', 'before'):9.3f}/{median('raw', 'after'):<9.3f}"
                    f"   {median('osd', 'before'):9.3f}/{median('osd', 'after'):<9.3f}  {before:12.2f} {after:6.2f} {after / before:13.2f}")
            if after > before * 1.1:
                line += '  WORSE'
            if workload == 'remote':
                line += (f"   remote/local before {median('osd-remote', 'before') / median('osd', 'before'):.2f}"
                         f" after {median('osd-remote', 'after') / median('osd', 'after'):.2f}")
            print(line, flush=True)


if __name__ == '__main__':
    main()
