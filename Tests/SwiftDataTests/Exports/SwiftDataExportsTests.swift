import Testing

/// `import SwiftData` brings SwiftData's names and no other of this package's, so that an app's own
/// types never collide with an addition of ours (issue: an app's `protocol MigrationStep` was
/// "ambiguous for type lookup" once a file imported both its module and SwiftData).
@Suite struct SwiftDataExportsTests {
    @Test func theSwiftDataModuleExportsExactlySwiftDatasNamesWithTheirKinds() throws {
        let listed = try SwiftDataNames.listed()
        let exported = try SwiftDataNames.exported().filter { !$0.key.hasPrefix("_") }
        #expect(listed.count == 51)
        #expect(Set(exported.keys).subtracting(listed.keys).sorted() == [])
        #expect(Set(listed.keys).subtracting(exported.keys).sorted() == [])
        for (name, kind) in listed.sorted(by: { $0.key < $1.key }) where exported[name] != nil {
            #expect(exported[name] == kind, "\(name) is a \(kind) in SwiftData, re-exported as \(exported[name] ?? "")")
        }
    }

    @Test func anAppTypeNamedLikeEachAdditionCompilesBesideImportSwiftData() throws {
        let added = try SwiftDataNames.added()
        print("SwiftData exports: \(added.count) names of this package's, each declared by an app beside import SwiftData")
        // The additions the issue named must be among those the symbol graph gives.
        for name in ["MigrationStep", "QueryTranslator", "QueryValue", "SQLDialect", "SaveReceipt", "InMemoryStore", "PersistenceError"] {
            #expect(added.contains(name), "\(name) is not among the additions read from the symbol graph")
        }
        let result = try ModuleCompilation.typecheck(appModule: appTypes(named: added), use: """
            import AppTypes
            import SwiftData

            \(added.map(use).joined(separator: "\n"))
            """)
        #expect(result.succeeded, "\(added.count) app types beside import SwiftData: \(result.diagnostics)")
    }

    /// The check above can fail: the same app type beside `import OpenSwiftData`, which does bring
    /// the package's additions, is ambiguous.
    @Test func anAppTypeNamedLikeAnAdditionIsAmbiguousBesideImportOpenSwiftData() throws {
        let result = try ModuleCompilation.typecheck(appModule: appTypes(named: ["MigrationStep"]), use: """
            import AppTypes
            import OpenSwiftData

            \(use("MigrationStep"))
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("'MigrationStep' is ambiguous for type lookup in this context"))
    }

    @Test func everySwiftDataNameResolvesInAFileImportingOnlySwiftData() throws {
        let listed = try SwiftDataNames.listed()
        let uses = listed.sorted(by: { $0.key < $1.key }).map { name, kind in
            kind == "typealias" ? "typealias Uses\(name) = \(name)" : "extension \(name) {}"
        }
        let result = try ModuleCompilation.typecheck(appModule: "", use: "import SwiftData\n\n" + uses.joined(separator: "\n"))
        #expect(result.succeeded, "\(result.diagnostics)")
    }

    @Test func anAdditionIsUnknownToAFileImportingOnlySwiftData() throws {
        let result = try ModuleCompilation.typecheck(appModule: "", use: """
            import SwiftData

            let step: MigrationStep? = nil
            """)
        #expect(!result.succeeded)
        #expect(result.diagnostics.contains("cannot find type 'MigrationStep' in scope"))
    }

    /// The name in a type's position, where an ambiguous name is an error (in an expression the
    /// compiler would pick the type that has the member), and the member only the app's type has.
    private func use(_ name: String) -> String {
        "func uses\(name)(_ value: \(name)) -> Bool { \(name).isTheApps }"
    }

    private func appTypes(named names: [String]) -> String {
        names.map { "public struct \($0) { public static let isTheApps = true }" }.joined(separator: "\n")
    }
}
