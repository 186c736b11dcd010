import Foundation
import OpenSwiftData
import RemoteStore
import StoreServer
import Testing

/// A base class and a subclass, served by a `StoreServer` started in-process on 127.0.0.1.
@Model class Parcel {
    var label: String
    var grams: Int

    init(label: String, grams: Int) {
        self.label = label
        self.grams = grams
    }
}

@Model final class ExpressParcel: Parcel {
    var fee: Double

    init(label: String, grams: Int, fee: Double) {
        self.fee = fee
        super.init(label: label, grams: grams)
    }
}

/// Each class's models travel as snapshots of their own entity, so a client fetching the base
/// class gets every subclass model back as itself.
@Suite final class InheritanceOverHTTPTests {
    let schema = Schema([Parcel.self, ExpressParcel.self])
    let directory: URL
    let server: RunningStoreServer

    init() throws {
        directory = try makeDirectory()
        server = try startServer(schema: schema, directory: directory)
        let seed = ModelContext(try remoteContainer(schema: schema, url: server.url))
        seed.insert(Parcel(label: "Books", grams: 900))
        seed.insert(ExpressParcel(label: "Keys", grams: 40, fee: 12.5))
        seed.insert(ExpressParcel(label: "Passport", grams: 60, fee: 30))
        try seed.save()
    }

    deinit { stopInBackground(server, removing: directory) }

    @Test func anotherClientFetchesEveryParcelAsItsOwnClass() throws {
        let context = ModelContext(try remoteContainer(schema: schema, url: server.url))
        let parcels = try context.fetch(FetchDescriptor<Parcel>(sortBy: [SortDescriptor(\.grams)]))
        #expect(parcels.map(\.label) == ["Keys", "Passport", "Books"])
        #expect(parcels.map { $0 is ExpressParcel } == [true, true, false])
        #expect(parcels.compactMap { ($0 as? ExpressParcel)?.fee } == [12.5, 30])
        #expect(parcels.map(\.persistentModelID.entityName) == ["ExpressParcel", "ExpressParcel", "Parcel"])
    }

    @Test func typeChecksCountsAndBatchDeletesSpanTheHierarchy() throws {
        let context = ModelContext(try remoteContainer(schema: schema, url: server.url))
        #expect(try context.fetchCount(FetchDescriptor<Parcel>(predicate: #Predicate { $0 is ExpressParcel })) == 2)
        #expect(try context.fetchCount(FetchDescriptor<ExpressParcel>()) == 2)
        let costly = #Predicate<Parcel> { (($0 as? ExpressParcel)?.fee ?? 0) > 20 }
        #expect(try context.fetch(FetchDescriptor(predicate: costly)).map(\.label) == ["Passport"])
        try context.delete(model: Parcel.self, where: #Predicate { $0.grams < 100 })
        try context.save()
        #expect(try ModelContext(try remoteContainer(schema: schema, url: server.url)).fetch(FetchDescriptor<Parcel>()).map(\.label) == ["Books"])
    }
}
