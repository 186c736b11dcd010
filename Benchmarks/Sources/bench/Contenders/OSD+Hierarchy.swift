import Foundation
import OpenSwiftData

/// The hierarchy's base class; a third of the models are of it, a third of each subclass.
@Model class BenchTrip {
    var name: String
    var destination: String
    var start: Date

    init(name: String, destination: String, start: Date) {
        self.name = name
        self.destination = destination
        self.start = start
    }
}

@Model final class LeisureTrip: BenchTrip {
    var reason: String

    init(name: String, destination: String, start: Date, reason: String) {
        self.reason = reason
        super.init(name: name, destination: destination, start: start)
    }
}

@Model final class WorkTrip: BenchTrip {
    var perdiem: Double

    init(name: String, destination: String, start: Date, perdiem: Double) {
        self.perdiem = perdiem
        super.init(name: name, destination: destination, start: start)
    }
}

/// The same attributes in one class, for the flat fetch.
@Model final class FlatTrip {
    var name: String
    var destination: String
    var start: Date
    var reason: String?
    var perdiem: Double?

    init(name: String, destination: String, start: Date, reason: String?, perdiem: Double?) {
        self.name = name
        self.destination = destination
        self.start = start
        self.reason = reason
        self.perdiem = perdiem
    }
}

/// What a fetch read, folded into one number that both fetches must agree on.
private func tripChecksum(name: String, reason: String?, perdiem: Double?) -> Int {
    1 << 20 &+ name.utf8.count &+ (reason?.utf8.count ?? 0) &+ Int(perdiem ?? 0)
}

final class OSDHierarchyFetch: HierarchyFetchSubject {
    private let container: ModelContainer

    init(_ store: OSDStore, _ directory: ScratchDirectory) throws {
        container = try store.container(for: [FlatTrip.self, BenchTrip.self, LeisureTrip.self, WorkTrip.self], in: directory)
    }

    func load(_ count: Int) throws {
        let context = ModelContext(container)
        for index in 0..<count {
            let name = "trip \(index)", destination = "place \(index % 50)"
            let start = Date(timeIntervalSinceReferenceDate: Double(index) * 3_600)
            switch index % 3 {
            case 0:
                context.insert(BenchTrip(name: name, destination: destination, start: start))
                context.insert(FlatTrip(name: name, destination: destination, start: start, reason: nil, perdiem: nil))
            case 1:
                context.insert(LeisureTrip(name: name, destination: destination, start: start, reason: "family"))
                context.insert(FlatTrip(name: name, destination: destination, start: start, reason: "family", perdiem: nil))
            default:
                let perdiem = Double(index % 200)
                context.insert(WorkTrip(name: name, destination: destination, start: start, perdiem: perdiem))
                context.insert(FlatTrip(name: name, destination: destination, start: start, reason: nil, perdiem: perdiem))
            }
        }
        try context.save()
    }

    func fetchFlat() throws -> Int {
        try ModelContext(container).fetch(FetchDescriptor<FlatTrip>()).reduce(0) { sum, trip in
            sum &+ tripChecksum(name: trip.name, reason: trip.reason, perdiem: trip.perdiem)
        }
    }

    func fetchHierarchy() throws -> Int {
        try ModelContext(container).fetch(FetchDescriptor<BenchTrip>()).reduce(0) { sum, trip in
            sum &+ tripChecksum(name: trip.name, reason: (trip as? LeisureTrip)?.reason, perdiem: (trip as? WorkTrip)?.perdiem)
        }
    }
}
