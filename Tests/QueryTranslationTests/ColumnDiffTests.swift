import OpenSwiftData
import Testing

/// The column diff both SQL stores' migrations execute, with its exact steps in order.
@Suite struct ColumnDiffTests {
    static let stored = [
        ColumnState("name", kind: "text", isNullable: false),
        ColumnState("notes", kind: "text", isNullable: true),
        ColumnState("title", kind: "text", isNullable: false),
        ColumnState("budget", kind: "real", isNullable: false),
        ColumnState("travelers", kind: "toMany Person", isNullable: true, hasColumn: false),
    ]

    @Test(arguments: [
        ("an unchanged table has no changes", stored, [ColumnChange]()),
        ("optionality changes both ways",
         [ColumnState("name", kind: "text", isNullable: true), ColumnState("notes", kind: "text", isNullable: false),
          ColumnState("title", kind: "text", isNullable: false), ColumnState("budget", kind: "real", isNullable: false),
          ColumnState("travelers", kind: "toMany Person", isNullable: true, hasColumn: false)],
         [.dropNotNull("name"), .setNotNull("notes")]),
        ("renamed, added, then removed columns dropped",
         [ColumnState("name", kind: "text", isNullable: false), ColumnState("heading", kind: "text", isNullable: false, originalName: "title"),
          ColumnState("start", kind: "real", isNullable: true), ColumnState("guests", kind: "toMany Person", isNullable: true, hasColumn: false)],
         [.rename(from: "title", to: "heading"), .add("start"), .drop("notes"), .drop("budget")]),
        ("a changed kind is refused, renamed or not",
         [ColumnState("name", kind: "integer", isNullable: false), ColumnState("notes", kind: "text", isNullable: true),
          ColumnState("heading", kind: "real", isNullable: false, originalName: "title"), ColumnState("budget", kind: "real", isNullable: false),
          ColumnState("travelers", kind: "toMany Trip", isNullable: true, hasColumn: false)],
         [.incompatible("name", stored: "text", wanted: "integer"), .incompatible("heading", stored: "text", wanted: "real"),
          .incompatible("travelers", stored: "toMany Person", wanted: "toMany Trip")]),
        ("an original name still in use is not renamed from",
         [ColumnState("name", kind: "text", isNullable: false), ColumnState("label", kind: "text", isNullable: false, originalName: "name")],
         [.add("label"), .drop("notes"), .drop("title"), .drop("budget")]),
    ] as [(String, [ColumnState], [ColumnChange])])
    func diffListsChangesInOrder(_ situation: String, wanted: [ColumnState], expected: [ColumnChange]) {
        #expect(ColumnDiff.changes(from: Self.stored, to: wanted) == expected, "\(situation)")
    }
}
