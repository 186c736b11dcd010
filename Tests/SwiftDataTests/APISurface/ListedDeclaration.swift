import Foundation

/// One line of `Tests/APISurface/SwiftData-declarations.txt`: a SwiftData declaration as the API
/// reference gives it, under its symbol graph path.
struct ListedDeclaration: Hashable {
    let path: String
    let declaration: String

    var key: String { path + "\t" + declaration }

    /// The parent's path: `ModelContext` for `ModelContext.fetch(_:)`.
    var parentPath: String? {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        return components.count > 1 ? components.dropLast().joined(separator: ".") : nil
    }

    /// Whether the reference declares it in an extension (with `public`), rather than as a
    /// protocol's requirement, which the reference writes without an access level.
    var isDeclaredPublic: Bool {
        declaration.range(of: #"(^|\s)(public|open)\s"#, options: .regularExpression) != nil
    }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("APISurface")

    /// The listed declarations, in the file's order.
    static func all() throws -> [ListedDeclaration] {
        try lines(of: "SwiftData-declarations.txt").map { fields in
            ListedDeclaration(path: fields[0].replacingOccurrences(of: "`", with: ""), declaration: fields[1])
        }
    }

    /// The declarations known to be absent or spelled otherwise, each with the reason, by key.
    static func knownGaps() throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try lines(of: "known-gaps.txt").map { fields in
            (fields[0].replacingOccurrences(of: "`", with: "") + "\t" + fields[1], fields.count > 2 ? fields[2] : "")
        })
    }

    struct MalformedLine: Error, CustomStringConvertible {
        let file: String
        let line: String
        var description: String { "\(file): a line needs a path and a declaration separated by a tab: \(line)" }
    }

    /// The tab-separated fields of each line that is not a comment, at least two per line.
    private static func lines(of file: String) throws -> [[String]] {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            .split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                guard fields.count >= 2 else { throw MalformedLine(file: file, line: String(line)) }
                return fields
            }
    }
}
