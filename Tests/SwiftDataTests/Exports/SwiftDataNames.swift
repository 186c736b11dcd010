import Foundation

/// SwiftData's top-level names with their kinds (`class`, `protocol`, …), as the API reference
/// lists them; the names `Sources/SwiftData/SwiftData.swift` re-exports; and the top-level names
/// `import OpenSwiftData` brings that SwiftData has not.
enum SwiftDataNames {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The types of `SwiftData-declarations.txt` (parts A to C of the reference) and of
    /// `SwiftData-iOS27-names.txt` (part E), by name. `Array` and `Optional` are SwiftData's
    /// extensions of the standard library's types, not names of its own.
    static func listed() throws -> [String: String] {
        var kinds: [String: String] = [:]
        let folder = root.appendingPathComponent("Tests/APISurface")
        for line in try lines(of: folder.appendingPathComponent("SwiftData-declarations.txt")) {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let path = fields[0]
            guard fields.count == 2, !path.contains("."), !path.contains("("), path != "Array", path != "Optional" else { continue }
            if let kind = kind(of: path, in: fields[1]) { kinds[path] = kind }
        }
        for line in try lines(of: folder.appendingPathComponent("SwiftData-iOS27-names.txt")) {
            let fields = line.split(separator: "\t").map(String.init)
            kinds[fields[1]] = fields[0]
        }
        return kinds
    }

    /// `@_exported import KIND MODULE.NAME` lines of the SwiftData module: kind by name.
    static func exported() throws -> [String: String] {
        let source = try String(contentsOf: root.appendingPathComponent("Sources/SwiftData/SwiftData.swift"), encoding: .utf8)
        var kinds: [String: String] = [:]
        for line in source.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "@_exported", words[1] == "import",
                  let name = words[3].split(separator: ".").last else { continue }
            kinds[String(name)] = String(words[2])
        }
        return kinds
    }

    /// The top-level public names of `OpenSwiftData` and the modules it re-exports, from their
    /// symbol graph, that SwiftData does not have: a name this package adds later is in it without
    /// editing a test. Operators and underscored names (the macros' plumbing) are left out.
    static func added() throws -> [String] {
        let graph = try SymbolGraph(directory: SymbolGraphExtraction.extract(module: "OpenSwiftData"))
        let swiftData = Set(try listed().keys)
        let macros: Set<String> = ["Model", "Attribute", "Relationship", "Transient", "Unique", "Index", "ModelActor"]
        // A macro's or function's path carries its argument labels: `Index(_:)`.
        let names = graph.kindsByPath.keys.filter { !$0.contains(".") }.map { String($0.prefix { $0 != "(" }) }
        return Set(names.filter { name in
            !name.hasPrefix("_") && name.first?.isLetter == true && !swiftData.contains(name) && !macros.contains(name)
        }).sorted()
    }

    private static func kind(of name: String, in declaration: String) -> String? {
        let words = declaration.split(whereSeparator: { $0 == " " || $0 == "<" || $0 == ":" }).map(String.init)
        for (index, word) in words.enumerated().dropLast() where words[index + 1] == name {
            if ["class", "struct", "enum", "protocol", "typealias", "actor"].contains(word) { return word }
        }
        return nil
    }

    private static func lines(of file: URL) throws -> [String] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
