import Testing

/// SwiftData's public API, as `reference/SwiftData-API.md` lists it (parts A to C, in
/// `Tests/APISurface/SwiftData-declarations.txt`), against the symbol graph of this package's
/// module: a declaration absent or spelled otherwise fails unless `known-gaps.txt` names it with
/// the reason, and a gap that closes fails until its line is removed.
@Suite struct APISurfaceTests {
    @Test func everyListedSwiftDataDeclarationIsPresentOrAKnownGap() throws {
        let graph = try SymbolGraph(directory: SymbolGraphExtraction.extract(module: "OpenSwiftData"))
        let listed = try ListedDeclaration.all()
        let gaps = try ListedDeclaration.knownGaps()
        let report = APISurfaceReport(listed, against: graph)
        print("API surface: \(report.presentCount) of \(listed.count) SwiftData declarations present, \(gaps.count) known gaps")

        for (declaration, status) in report.absent where gaps[declaration.key] == nil {
            switch status {
            case .spelledOtherwise(let spellings):
                Issue.record("\(declaration.path) is spelled otherwise: wanted \(DeclarationText.normalized(declaration.declaration)), found \(spellings)")
            default:
                Issue.record("\(declaration.path) is missing: \(declaration.declaration)")
            }
        }
        let absentKeys = Set(report.absent.map(\.declaration.key))
        for key in gaps.keys.sorted() where !absentKeys.contains(key) {
            Issue.record("known gap now present or no longer listed; remove it from known-gaps.txt: \(key)")
        }
        #expect(report.presentCount + gaps.count == listed.count)
    }

    @Test func normalisationIgnoresWhatCallersCannotSee() {
        #expect(DeclarationText.normalized("@available(macOS 15, *) final public func fetch<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] where T : PersistentModel")
            == "func fetch<T>(FetchDescriptor<T>) throws -> [T] where T: PersistentModel")
        #expect(DeclarationText.normalized("public let id: Swift.Int64") == "var id: Int64 { get }")
        #expect(DeclarationText.normalized("final public var name: String") == "var name: String { get set }")
        #expect(DeclarationText.normalized("static func identifier<T>(for storeIdentifier: String, entityName: String) throws")
            == "static func identifier<T>(for: String, entityName: String) throws")
        #expect(DeclarationText.normalized("final public class Index<T> : SchemaProperty, Codable where T : PersistentModel") == "class Index<T>")
        #expect(DeclarationText.normalized("case custom(willMigrate: ((_ context: ModelContext) throws -> Void)?)")
            == "case custom(willMigrate: ((ModelContext) throws -> Void)?)")
        #expect(DeclarationText.normalized("func enqueue(_ job: consuming ExecutorJob)") == "func enqueue(ExecutorJob)")
        #expect(DeclarationText.normalized("subscript<T>(id: ID, as as: T.Type) -> T? where T : P, T : Comparable { get }")
            == "subscript<T>(id: ID, as: T.Type) -> T? where T: Comparable, T: P { get }")
    }

    @Test func normalisationKeepsWhatCallersSee() {
        #expect(DeclarationText.normalized("var author: String? { get }") != DeclarationText.normalized("var author: String?"))
        #expect(DeclarationText.normalized("init(isStoredInMemoryOnly: Bool = false)") != DeclarationText.normalized("init(isStoredInMemoryOnly: Bool)"))
        #expect(DeclarationText.normalized("func delete(model: T.Type)") != DeclarationText.normalized("func delete(_ model: T.Type)"))
        #expect(DeclarationText.normalized("struct FetchDescriptor<T>") != DeclarationText.normalized("class FetchDescriptor<T>"))
    }
}
