#!/usr/bin/env bash
# libFuzzer targets, built with `swiftc -sanitize=fuzzer` from the fuzzers in Fuzz/ and the sources
# they fuzz (instrumented), linked with the objects of the debug build (`swift build --build-tests`
# first). Each target first replays its committed corpus (Fuzz/Corpus/NAME), then fuzzes for
# FUZZ_SECONDS (30 unless set) from it; new inputs go to a scratch copy, not into the repository.
#   file-reader  the JSON store's file reader (Sources/JSONStore)
#   save, query  the server's request decoders and checks (Sources/StoreServer), over SQLite
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
bin=$(swift build --show-bin-path)
out=.build/fuzz
mkdir -p "$out"

runtime=$(dirname "$(command -v swiftc)")/../lib/swift/clang/lib/linux/libclang_rt.fuzzer-x86_64.a
[ -f "$runtime" ] || runtime=$(find "$(dirname "$(command -v swiftc)")/../lib" -name 'libclang_rt.fuzzer-*.a' | head -1)
[ -n "$runtime" ] && [ -f "$runtime" ] || { echo "fuzz: libFuzzer's runtime (libclang_rt.fuzzer) is missing from the toolchain" >&2; exit 1; }

# The flags SwiftPM compiled StoreServer with (module and header search paths), and every object
# the server links but its own main.
python3 - "$bin" "$out/flags" <<'PY'
import json, sys
bin, target = sys.argv[1], sys.argv[2]
lines = open(".build/debug.yaml").read().splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith('  "C.StoreServer-') and l.endswith('-debug.module":'))
args = json.loads(next(l for l in lines[start:] if l.strip().startswith("args:")).split("args:", 1)[1])
keep, i = [], 0
while i < len(args):
    a = args[i]
    if a in ("-I", "-Xcc", "-module-cache-path", "-package-name"):
        keep += [a, args[i + 1]]; i += 2; continue
    if a.startswith("-D"):
        keep.append(a)
    i += 1
open(target, "w").write("\n".join(keep) + "\n")
PY
grep -v '/openswiftdata_server.build/' "$bin/openswiftdata-server.product/Objects.LinkFileList" >"$out/objects"

build() {
    local name=$1; shift
    swiftc -sanitize=fuzzer -parse-as-library -module-name "$name" @"$out/flags" "$@" @"$out/objects" -o "$out/$name"
}
build FuzzJSONFileReader Fuzz/JSONFileReaderFuzzer.swift Sources/JSONStore/*.swift
build FuzzServerRequest Fuzz/ServerRequestFuzzer.swift Sources/StoreServer/*.swift "$bin/StoreServer.build/DerivedSources/resource_bundle_accessor.swift"

fuzz() {
    local name=$1 binary=$2
    local scratch; scratch=$(mktemp -d)
    echo "fuzz ($name): replaying $(ls Fuzz/Corpus/$name | wc -l) committed inputs"
    "$binary" -runs=0 "Fuzz/Corpus/$name" 2>"$scratch/replay.log" || { cat "$scratch/replay.log" >&2; exit 1; }
    "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -max_len=16384 -print_final_stats=1 -dict=Fuzz/json.dict \
        -artifact_prefix="$scratch/" "$scratch" "Fuzz/Corpus/$name" >"$scratch/fuzz.log" 2>&1 || {
        tail -40 "$scratch/fuzz.log" >&2
        echo "fuzz ($name): a finding; the input is in $scratch (crash-*, timeout-*, oom-*)" >&2
        exit 1
    }
    echo "fuzz ($name): $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$scratch/fuzz.log" | grep -o '[0-9]*$') inputs in ${seconds}s, no finding"
    rm -rf "$scratch"
}
fuzz file-reader "$out/FuzzJSONFileReader"
FUZZ_TARGET=save fuzz save "$out/FuzzServerRequest"
FUZZ_TARGET=query fuzz query "$out/FuzzServerRequest"
