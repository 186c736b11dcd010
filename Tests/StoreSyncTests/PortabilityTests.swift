import Foundation
import Testing

/// The engine's sources import SwiftData, Foundation and the standard library's modules only,
/// and use no name this package declares beyond SwiftData's public API
/// (`Tests/APISurface/SwiftData-declarations.txt`): the same source then builds against Apple's
/// SwiftData and syncs an app running on it.
@Suite struct PortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let allowedImports: Set<String> = ["SwiftData", "Foundation", "FoundationNetworking", "Observation", "Synchronization"]

    /// Every `.swift` file of the engine, with comments and string literals blanked.
    static func engineSources() throws -> [(name: String, code: String)] {
        let folder = root.appendingPathComponent("Sources/StoreSync")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted().map { name in
            (name, SwiftSourceText.code(of: try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)))
        }
    }

    @Test func theEngineImportsOnlySwiftDataFoundationAndTheStandardLibrary() throws {
        for (name, code) in try Self.engineSources() {
            for line in code.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(where: { $0 == "import" }), index + 1 < words.count,
                      words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains($0) }) else { continue }
                #expect(Self.allowedImports.contains(String(words[index + 1])), "\(name) imports \(words[index + 1])")
            }
        }
    }

    @Test func theEngineUsesNoNameOfThisPackageBeyondSwiftDatasAPI() throws {
        let names = try PackageNames()
        let sources = try Self.engineSources()
        let engineNames = Set(sources.flatMap { PackageNames.declaredNames(in: $0.code) })
        let types = names.topLevel.subtracting(names.swiftData).subtracting(engineNames)
        let members = names.membersOfSwiftDataTypes.subtracting(names.swiftData).subtracting(engineNames)
        #expect(types.contains("DataStoreQuery") && members.contains("historyRetention"), "the check must see this package's own names")
        var used: [String] = []
        for (name, code) in sources {
            used += PackageNames.uses(in: code, types: types, members: members).map { "\(name): \($0)" }
        }
        #expect(used == [], "The engine must use SwiftData's public names only; these are this package's own: \(used)")
    }

    @Test func theCheckCatchesThisPackagesNamesAndNothingElse() throws {
        let names = try PackageNames()
        let code = SwiftSourceText.code(of: """
            let query = DataStoreQuery(entityName: "Trip") // HistoryRetention
            configuration.historyRetention = .unlimited
            let text = "ModelTypeInfo"; let count = [1].filter { $0 > 0 }.count
            """)
        let types = names.topLevel.subtracting(names.swiftData)
        let members = names.membersOfSwiftDataTypes.subtracting(names.swiftData)
        #expect(PackageNames.uses(in: code, types: types, members: members) == ["DataStoreQuery", ".historyRetention"])
    }
}

/// The names of this package's modules that `import SwiftData` brings in, and the names SwiftData's
/// API reference lists: a type, function or global this package declares, or a member it adds
/// to one of SwiftData's types, is not SwiftData's unless the reference lists it.
struct PackageNames {
    static let modules = ["OpenSwiftDataCore", "OpenSwiftDataSurface", "OpenSwiftDataSQL", "OpenSwiftData", "SwiftData"]

    /// Types, protocols, functions and globals declared at the top level, public or package.
    var topLevel: Set<String> = []
    /// Public and package members of SwiftData's types, in their declarations and extensions.
    var membersOfSwiftDataTypes: Set<String> = []
    /// Every name SwiftData-declarations.txt lists, in paths and declarations.
    var swiftData: Set<String> = []

    init() throws {
        let text = try String(contentsOf: PortabilityTests.root.appendingPathComponent("Tests/APISurface/SwiftData-declarations.txt"), encoding: .utf8)
        var swiftDataTypes: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            if let path = fields.first, let type = path.split(separator: ".").first { swiftDataTypes.insert(String(type)) }
            for field in fields { swiftData.formUnion(SwiftSourceText.identifiers(in: String(field))) }
        }
        for module in Self.modules {
            let folder = PortabilityTests.root.appendingPathComponent("Sources/\(module)")
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let code = SwiftSourceText.code(of: try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
                read(code, swiftDataTypes: swiftDataTypes)
            }
        }
    }

    private mutating func read(_ code: String, swiftDataTypes: Set<String>) {
        var extending: String?
        for line in code.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.isEmpty {
                extending = nil
                if line.hasPrefix("extension ") {
                    let type = line.dropFirst("extension ".count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if swiftDataTypes.contains(String(type)) { extending = String(type) }
                } else {
                    let declared = Self.declaredNames(in: String(line), visibleOnly: true)
                    topLevel.formUnion(declared)
                    // SwiftData's own types are declared here too: their bodies hold members.
                    if let type = declared.first, swiftDataTypes.contains(type) { extending = type }
                }
            } else if extending != nil, line.hasPrefix("    "), !line.hasPrefix("     ") {
                membersOfSwiftDataTypes.formUnion(Self.declaredNames(in: String(line), visibleOnly: true))
            }
        }
    }

    /// The forbidden names `code` uses: types anywhere, members after a dot.
    static func uses(in code: String, types: Set<String>, members: Set<String>) -> [String] {
        var found: [String] = []
        let scalars = Array(code.unicodeScalars)
        var index = 0
        while index < scalars.count {
            guard CharacterSet.letters.contains(scalars[index]) || scalars[index] == "_" else {
                index += 1
                continue
            }
            let start = index
            while index < scalars.count, CharacterSet.alphanumerics.contains(scalars[index]) || scalars[index] == "_" { index += 1 }
            let name = String(String.UnicodeScalarView(scalars[start..<index]))
            let afterDot = start > 0 && scalars[start - 1] == "."
            if afterDot, members.contains(name) {
                found.append("." + name)
            } else if !afterDot, types.contains(name) {
                found.append(name)
            }
        }
        return found
    }

    /// The names declared in `code`; `visibleOnly` keeps those declared `public`, `open` or
    /// `package` (what another module of the package sees).
    static func declaredNames(in code: String, visibleOnly: Bool = false) -> [String] {
        let keywords = "(?:class|struct|enum|protocol|actor|typealias|func|var|let|case|associatedtype)"
        let modifiers = "(?:(?:final|static|class|override|nonisolated|mutating|indirect|convenience|required|dynamic|lazy|weak|unowned|@\\w+(?:\\([^)]*\\))?)\\s+)*"
        let access = visibleOnly ? "(?:public|open|package)(?:\\(set\\))?\\s+" + modifiers : modifiers + "(?:(?:public|open|package|internal|private|fileprivate)\\s+)?" + modifiers
        let pattern = "\\b\(access)\(keywords)\\s+`?([A-Za-z_][A-Za-z0-9_]*)"
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(code.startIndex..., in: code)
        return expression.matches(in: code, range: range).compactMap { match in
            Range(match.range(at: 1), in: code).map { String(code[$0]) }
        }
    }
}

/// Swift source reduced to its code: comments and string literals blanked.
enum SwiftSourceText {
    static func code(of source: String) -> String {
        var result = ""
        var iterator = Array(source.unicodeScalars)[...]
        var inString = false
        while let scalar = iterator.popFirst() {
            if inString {
                if scalar == "\\" { _ = iterator.popFirst(); continue }
                if scalar == "\"" { inString = false; result.append("\"") }
                if scalar == "\n" { result.append("\n") }
                continue
            }
            if scalar == "/", iterator.first == "/" {
                while let next = iterator.first, next != "\n" { iterator.removeFirst() }
                continue
            }
            if scalar == "/", iterator.first == "*" {
                iterator.removeFirst()
                while let next = iterator.popFirst(), !(next == "*" && iterator.first == "/") { if next == "\n" { result.append("\n") } }
                _ = iterator.popFirst()
                continue
            }
            if scalar == "\"" { inString = true }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    static func identifiers(in code: String) -> [String] {
        var names: [String] = []
        var current = ""
        for character in code {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if let first = current.first, !first.isNumber { names.append(current) }
                current = ""
            }
        }
        if let first = current.first, !first.isNumber { names.append(current) }
        return names
    }
}
