#!/usr/bin/env python3
"""Counts the public symbols of each module that have no doc comment, from its symbol graphs.

    doc_coverage.py SYMBOL_GRAPH_DIR MODULE... [--require-all]

SYMBOL_GRAPH_DIR holds `swift package dump-symbol-graph --minimum-access-level public`'s output
(MODULE.symbols.json and MODULE@OTHER.symbols.json for its extensions of other modules' types).
Prints, per module, the documented share of its public types and of its public members; with
--require-all it also lists every undocumented symbol and exits 1 if there is one.
"""
import json, os, sys

TYPE_KINDS = {"swift.class", "swift.struct", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor",
              "swift.macro"}
SOURCES = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", "Sources")) + os.sep


def counted(symbol):
    # Skipped: symbols the compiler writes (`::SYNTHESIZED::` ids: protocol extension defaults and
    # derived conformances such as `==` or `hash(into:)`, whose docs belong to the protocol's module)
    # and declarations without a place in Sources/ (macro expansions, implicit initializers), which
    # no comment of ours can document; extension blocks only group members.
    if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
        return False
    if symbol["kind"]["identifier"] == "swift.extension" or symbol["accessLevel"] not in ("public", "open"):
        return False
    uri = symbol.get("location", {}).get("uri", "")
    return os.path.realpath(uri.removeprefix("file://")).startswith(SOURCES)


def documented(symbol, module):
    # A member without a comment of its own that implements another module's protocol requirement
    # (`description`, `init(from:)`) carries that requirement's generic comment; it does not count.
    comment = symbol.get("docComment", {})
    return comment.get("module", module) == module and any(line["text"].strip() for line in comment.get("lines", []))


def main():
    args = [a for a in sys.argv[1:] if a != "--require-all"]
    require_all = "--require-all" in sys.argv
    directory, modules = args[0], args[1:]
    missing_total = 0
    for module in modules:
        files = [f for f in os.listdir(directory) if f == f"{module}.symbols.json" or f.startswith(f"{module}@")]
        if f"{module}.symbols.json" not in files:
            sys.exit(f"doc-coverage: no symbol graph for {module} in {directory}")
        symbols = {}
        for name in files:
            for symbol in json.load(open(os.path.join(directory, name)))["symbols"]:
                if counted(symbol):
                    symbols[symbol["identifier"]["precise"]] = symbol
        types = [s for s in symbols.values() if s["kind"]["identifier"] in TYPE_KINDS]
        members = [s for s in symbols.values() if s["kind"]["identifier"] not in TYPE_KINDS]
        missing = sorted(".".join(s["pathComponents"]) + f" ({s['kind']['displayName'].lower()})"
                         for s in symbols.values() if not documented(s, module))
        missing_total += len(missing)

        def share(group):
            done = sum(documented(s, module) for s in group)
            return f"{done}/{len(group)} ({100 * done / len(group):.0f}%)" if group else "0/0"

        print(f"doc-coverage: {module}: types {share(types)}, members {share(members)} documented")
        if require_all:
            for name in missing:
                print(f"  undocumented: {module}.{name}")
    if require_all and missing_total:
        sys.exit(f"doc-coverage: {missing_total} public symbols have no doc comment; give each a one- or two-sentence abstract")


main()
