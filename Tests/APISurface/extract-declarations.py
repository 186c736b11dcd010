#!/usr/bin/env python3
"""Writes SwiftData-declarations.txt from ../shared/reference/SwiftData-API.md, parts A to C.

Each line is `path<TAB>declaration`: the symbol graph path of a public SwiftData declaration (as
`swift-symbolgraph-extract` spells it, e.g. `ModelContext.fetch(_:batchSize:)`) and the reference's
declaration text. Left out: A14 (SwiftUI's overlay, which needs SwiftUI) and the listings of what
`@Model` and `@ModelActor` expand to (members of the user's types, not of the module).
Run: python3 Tests/APISurface/extract-declarations.py ../shared/reference/SwiftData-API.md
"""
import re
import sys

TYPE_KEYWORDS = ("class", "struct", "enum", "protocol", "actor", "extension")
MODIFIERS = {"public", "open", "final", "static", "class", "nonisolated", "convenience", "required",
             "override", "mutating", "indirect", "@preconcurrency", "@MainActor"}


def blocks(text):
    """(heading, code) for each swift block of parts A to C, without the excluded sections."""
    heading, out, code, inside = "", [], [], False
    for line in text.splitlines():
        if line.startswith("# PART D"):
            break
        if line.startswith("#") and not inside:
            heading = line
            continue
        if line.strip().startswith("```swift"):
            inside, code = True, []
            continue
        if line.strip().startswith("```") and inside:
            inside = False
            if "A14." in heading:
                continue
            joined = "\n".join(code)
            if "init(modelContainer: SwiftData.ModelContainer) {" in joined or "members added to" in joined or "_$" in joined and "@attached" not in joined or "otherProperties" in joined:
                continue
            out.append((heading, joined))
            continue
        if inside:
            code.append(line)
    return out


def strip_comments(code):
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    return "\n".join(re.sub(r"//.*$", "", line) for line in code.splitlines())


def matching(text, start):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced braces")


def statements(code):
    """Splits code into ('decl', text, body or None) items, joining multi-line declarations."""
    items, current, depth, i = [], "", 0, 0
    while i < len(code):
        ch = code[i]
        if ch in "([<" and not (ch == "<" and current.rstrip().endswith("-")):
            depth += ch != "<" or bool(re.search(r"[\w>\]\)]$", current))
        elif ch in ")]" :
            depth -= 1
        elif ch == ">" and depth > 0 and not current.endswith("-"):
            depth -= 1
        if depth < 0:
            depth = 0
        if ch == "{" and depth == 0:
            end = matching(code, i)
            items.append((current.strip(), code[i + 1:end]))
            current, i = "", end + 1
            continue
        if ch in "\n;" and depth == 0:
            rest = code[i + 1:].lstrip()
            if ch == "\n" and (rest.startswith("=") or rest.startswith("where ") or current.strip() and not without_attributes(current)):
                current += " "
                i += 1
                continue
            if current.strip():
                items.append((current.strip(), None))
            current, i = "", i + 1
            continue
        current += ch
        i += 1
    if current.strip():
        items.append((current.strip(), None))
    return items


def without_attributes(decl):
    out, i = "", 0
    while i < len(decl):
        if decl[i] == "@":
            m = re.match(r"@\w+", decl[i:])
            j = i + m.end()
            if j < len(decl) and decl[j] == "(":
                depth = 0
                while True:
                    depth += decl[j] == "("
                    depth -= decl[j] == ")"
                    j += 1
                    if depth == 0:
                        break
            i = j
            continue
        out += decl[i]
        i += 1
    return out.strip()


def core(decl):
    """The declaration without attributes and modifiers: starts at its keyword."""
    words = without_attributes(decl).split()
    while words and words[0] in MODIFIERS and not (words[0] == "class" and len(words) > 1 and words[1][0].isupper()):
        words.pop(0)
    return " ".join(words)


def parameter_labels(params):
    return [part.split(":")[0].split()[0] for part in split_params(params)]


def parenthesised(text):
    start = text.index("(")
    depth = 0
    for i in range(start, len(text)):
        depth += text[i] == "("
        depth -= text[i] == ")"
        if depth == 0:
            return text[start + 1:i]
    raise ValueError(text)


def member_name(c):
    keyword, rest = c.split(" ", 1) if " " in c else (c, "")
    if keyword in ("func", "macro"):
        name = re.match(r"\s*([^\s(<]+|[<>=!~+\-*/%&|^]+)", rest).group(1)
        labels = parameter_labels(parenthesised(rest))
        if not re.match(r"\w", name):
            labels = ["_"] * len(labels)
        return f"{name}({''.join(l + ':' for l in labels)})"
    if re.match(r"(init|subscript)\b", c):
        base = "init" if c.startswith("init") else "subscript"
        labels = parameter_labels(parenthesised(c))
        if base == "subscript":
            labels = [l if " " in p.split(":")[0].strip() else "_" for l, p in zip(labels, split_params(parenthesised(c)))]
        return f"{base}({''.join(l + ':' for l in labels)})"
    if keyword in ("var", "let", "typealias", "associatedtype"):
        return re.match(r"\s*`?(\w+)`?", rest).group(1)
    if keyword == "case":
        return None
    m = re.match(r"\s*(\w+)", rest)
    if m is None:
        raise ValueError("cannot name: " + repr(c))
    return m.group(1)


def split_params(params):
    parts, depth, part = [], 0, ""
    for ch in params.replace("->", "\u2192") + ",":
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == "," and depth == 0:
            if part.strip():
                parts.append(part.strip().replace("\u2192", "->"))
            part = ""
        else:
            part += ch
    return parts


def cases(c):
    out = []
    for part in split_params(c[len("case "):]):
        m = re.match(r"`?(\w+)`?\s*(\((.*)\))?$", part, flags=re.S)
        if m is None:
            raise ValueError("cannot read case: " + repr(c))
        if m.group(2):
            labels = [p.split(":")[0].strip() if ":" in p else "_" for p in split_params(m.group(3))]
            labels = [l.split()[0] for l in labels]
            out.append((f"{m.group(1)}({''.join(l + ':' for l in labels)})", "case " + part))
        else:
            out.append((m.group(1), "case " + part))
    return out


def walk(code, scope, heading, out):
    for decl, body in statements(code):
        decl = " ".join(decl.split())
        if not decl:
            continue
        c = core(decl)
        keyword = c.split(" ", 1)[0]
        if keyword in TYPE_KEYWORDS and body is not None and not re.fullmatch(r"\s*(get|set|get set|\.\.\.)?\s*", body):
            name = re.match(r"\w+\s+([\w.]+)", c).group(1)
            qualified = heading_scope(heading, name) if not scope else name
            path = scope + [qualified]
            if keyword != "extension":
                out.append((".".join(path), decl))
            walk(body, path if keyword != "extension" else qualified.split("."), heading, out)
            continue
        if keyword in TYPE_KEYWORDS:
            name = re.match(r"\w+\s+([\w.]+)", c).group(1)
            qualified = heading_scope(heading, name) if not scope else name
            if keyword != "extension":
                out.append((".".join(scope + [qualified]), decl + (" {" + body + "}" if body is not None else "")))
            continue
        full = decl + (" { " + body.strip() + " }" if body is not None else "")
        if keyword == "case":
            out.extend((".".join(scope + [n]), d) for n, d in cases(c))
            continue
        name = member_name(c)
        out.append((".".join(scope + [name]), full))


def heading_scope(heading, name):
    for qualified in re.findall(r"`([\w.]+)(?:<[^`]*>)?`", heading):
        if qualified.endswith("." + name):
            return qualified
    return name


# Declared in the reference's tables and prose rather than in its code (A4).
PROSE = [
    ("Schema.Attribute.Option", "public struct Option : Codable, Hashable, CustomDebugStringConvertible"),
    ("Schema.Attribute.Option.unique", "public static var unique: Schema.Attribute.Option { get }"),
    ("Schema.Attribute.Option.transformable(by:)", "public static func transformable(by transformerType: ValueTransformer.Type) -> Schema.Attribute.Option"),
    ("Schema.Attribute.Option.transformable(by:)", "public static func transformable(by transformerName: String) -> Schema.Attribute.Option"),
    ("Schema.Attribute.Option.externalStorage", "public static var externalStorage: Schema.Attribute.Option { get }"),
    ("Schema.Attribute.Option.allowsCloudEncryption", "public static var allowsCloudEncryption: Schema.Attribute.Option { get }"),
    ("Schema.Attribute.Option.preserveValueOnDeletion", "public static var preserveValueOnDeletion: Schema.Attribute.Option { get }"),
    ("Schema.Attribute.Option.ephemeral", "public static var ephemeral: Schema.Attribute.Option { get }"),
    ("Schema.Attribute.Option.spotlight", "public static var spotlight: Schema.Attribute.Option { get }"),
    ("Schema.CompositeAttribute", "final public class CompositeAttribute : Schema.Attribute"),
    ("Schema.CompositeAttribute.properties", "final public var properties: [Schema.Attribute]"),
]


def main():
    text = open(sys.argv[1]).read()
    out = list(PROSE)
    for heading, code in blocks(text):
        walk(strip_comments(code), [], heading, out)
    seen = set()
    for path, decl in out:
        if (path, decl) not in seen:
            seen.add((path, decl))
            print(f"{path}\t{' '.join(decl.split())}")


main()
