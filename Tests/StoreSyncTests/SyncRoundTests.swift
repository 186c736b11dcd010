import Foundation
import OpenSwiftData
import StoreSync
import Testing

/// One round (`sync()`): what a push carries up and a pull brings down.
@Suite final class SyncRoundTests {
    let fixture: SyncFixture
    var directory: URL { fixture.directory }
    var server: SyncServer { fixture.server }

    init() throws {
        fixture = try SyncFixture()
    }

    @Test func aModelSavedOnOneClientArrivesOnAnotherWithItsRelationships() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = a.context()
        let folder = SyncFolder(name: "Work", color: 3)
        let note = SyncNote(uid: "n1", title: "Plan", created: Date(timeIntervalSinceReferenceDate: 1_000))
        note.body = "Agenda"
        note.rating = 4.5
        note.attachment = Data([1, 2, 3])
        let label = SyncLabel(name: "urgent")
        context.insert(folder)
        context.insert(note)
        context.insert(label)
        note.folder = folder
        note.labels = [label]
        try context.save()

        try await a.sync()
        try await b.sync()

        #expect(try b.dump() == [
            "folder Work color=3 notes=[\"n1\"]",
            "label urgent notes=[\"n1\"]",
            "note n1 title=Plan body=Agenda rating=4.5 created=1000.0 attachment=AQID folder=Work labels=[\"urgent\"]",
        ])
        #expect(try syncDump(server.container) == b.dump())
        #expect(a.engine.status.pendingChanges == 0)
        #expect(a.engine.status.lastError == nil)
        #expect(a.engine.status.lastSuccessfulSync != nil)
    }

    @Test func concurrentUpdatesOfDifferentAttributesBothSurvive() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Draft"))
        try context.save()
        try await a.sync()
        try await b.sync()

        let onA = try #require(try context.fetch(FetchDescriptor<SyncNote>()).first)
        onA.title = "Final"
        try context.save()
        let contextB = b.context()
        let onB = try #require(try contextB.fetch(FetchDescriptor<SyncNote>()).first)
        onB.rating = 2
        try contextB.save()

        try await a.sync()
        try await b.sync()
        try await a.sync()

        let expected = ["note n1 title=Final body=nil rating=2.0 created=0.0 attachment=nil folder=nil labels=[]"]
        #expect(try a.dump() == expected)
        #expect(try b.dump() == expected)
        #expect(try syncDump(server.container) == expected)
    }

    @Test func theLastWriterWinsPerAttributeInTheServersCommitOrder() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Draft"))
        try context.save()
        try await a.sync()
        try await b.sync()

        try #require(try context.fetch(FetchDescriptor<SyncNote>()).first).title = "From A"
        try context.save()
        let contextB = b.context()
        try #require(try contextB.fetch(FetchDescriptor<SyncNote>()).first).title = "From B"
        try contextB.save()

        try await b.sync()
        try await a.sync()
        try await b.sync()

        #expect(try a.dump() == ["note n1 title=From A body=nil rating=0.0 created=0.0 attachment=nil folder=nil labels=[]"])
        #expect(try b.dump() == a.dump())
    }

    @Test func aDeleteWinsOverAConcurrentUpdate() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = a.context()
        context.insert(SyncNote(uid: "n1", title: "Draft"))
        try context.save()
        try await a.sync()
        try await b.sync()

        context.delete(try #require(try context.fetch(FetchDescriptor<SyncNote>()).first))
        try context.save()
        let contextB = b.context()
        try #require(try contextB.fetch(FetchDescriptor<SyncNote>()).first).title = "Edited"
        try contextB.save()

        try await a.sync()
        try await b.sync()
        try await a.sync()

        #expect(try a.dump() == [])
        #expect(try b.dump() == [])
        #expect(try syncDump(server.container) == [])
    }

    @Test func uniqueModelsInsertedOnTwoClientsBecomeOne() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = a.context()
        context.insert(SyncFolder(name: "Home", color: 1))
        try context.save()
        let contextB = b.context()
        contextB.insert(SyncFolder(name: "Home", color: 2))
        try contextB.save()

        try await a.sync()
        try await b.sync()
        try await a.sync()

        let expected = ["folder Home color=2 notes=[]"]
        #expect(try a.dump() == expected)
        #expect(try b.dump() == expected)
        #expect(try syncDump(server.container) == expected)
    }

    @Test func aCascadingDeleteTakesTheModelsAnotherClientRelatedMeanwhile() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = a.context()
        context.insert(SyncFolder(name: "Old"))
        try context.save()
        try await a.sync()
        try await b.sync()

        context.delete(try #require(try context.fetch(FetchDescriptor<SyncFolder>()).first))
        try context.save()
        let contextB = b.context()
        let note = SyncNote(uid: "n2", title: "Late")
        contextB.insert(note)
        let folder = try #require(try contextB.fetch(FetchDescriptor<SyncFolder>()).first)
        note.folder = folder
        try contextB.save()

        try await a.sync()
        try await b.sync()
        try await a.sync()

        #expect(try a.dump() == [])
        #expect(try b.dump() == [])
        #expect(try syncDump(server.container) == [])
    }

    @Test func relatingAndUnrelatingTravels() async throws {
        let a = try SyncClient("a", server: server.url, directory: directory)
        let b = try SyncClient("b", server: server.url, directory: directory)
        let context = a.context()
        let note = SyncNote(uid: "n1", title: "T")
        let red = SyncLabel(name: "red")
        let blue = SyncLabel(name: "blue")
        let folder = SyncFolder(name: "F")
        context.insert(note)
        context.insert(red)
        context.insert(blue)
        context.insert(folder)
        note.labels = [red, blue]
        try context.save()
        try await a.sync()
        try await b.sync()

        note.labels = [blue]
        note.folder = folder
        try context.save()
        try await a.sync()
        try await b.sync()

        let expected = [
            "folder F color=0 notes=[\"n1\"]",
            "label blue notes=[\"n1\"]",
            "label red notes=[]",
            "note n1 title=T body=nil rating=0.0 created=0.0 attachment=nil folder=F labels=[\"blue\"]",
        ]
        #expect(try b.dump() == expected)
        #expect(try syncDump(server.container) == expected)
    }
}
