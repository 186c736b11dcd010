import Foundation
import OpenSwiftData
import SampleTrips
import StoreWire

// libFuzzer target for the server's request decoders, compiled together with Sources/StoreServer
// (see .ci/fuzz.sh). FUZZ_TARGET=save feeds the bytes to the save endpoint's decoding, checks and
// store call; FUZZ_TARGET=query to a query endpoint's. Both run against a SQLite store in memory
// holding a few trips. Any error must be one the server answers with a 4xx: a 5xx is a finding,
// and so is a crash.

private let target = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "save"

private let served: ServedStore = {
    do {
        let container = try ModelContainer(for: Schema(SampleTripsSchema.models),
                                           configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
        let context = ModelContext(container)
        for index in 0..<3 {
            let trip = Trip(name: "Trip \(index)", destination: "Place \(index)", startDate: Date(timeIntervalSinceReferenceDate: Double(index) * 86_400),
                            endDate: Date(timeIntervalSinceReferenceDate: Double(index + 1) * 86_400), budgetCents: index * 10_000)
            context.insert(trip)
            let item = BucketListItem(title: "Item \(index)", hasReservation: index == 0)
            context.insert(item)
            item.trip = trip
        }
        try context.save()
        return try ServedStore(container: container, lockWait: .seconds(30))
    } catch {
        fatalError("The fuzzer's store cannot be set up: \(error)")
    }
}()

private let body = JSONBody(maxSize: 1 << 20, maxDepth: 64)
private let limits = QueryLimits(maxListLength: 10_000, maxNodes: 50_000)
private var saves = 0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        try body.check(bytes)
        if target == "query" {
            try limits.check(bytes)
            let query = try body.decode(QueryRequest.self, from: bytes).query
            try QueryValidation(schema: served.schema).validate(query)
            _ = try served.fetch(query)
            _ = try served.count(query)
            _ = try served.identifiers(query)
        } else {
            let validation = SaveValidation(schema: served.schema)
            try validation.validate(Data(bytes), body: body)
            let changes = try body.decode(SaveRequest.self, from: bytes)
            try validation.validate(changes, storeIdentifier: served.identifier)
            saves += 1
            _ = try served.save(changes, idempotencyKey: IdempotencyKey(namespace: "fuzz", key: "fuzz-\(saves % 64)"), fingerprint: try WireCoding.fingerprint(of: changes))
        }
    } catch {
        let answer = StoreServerError(answering: error)
        if answer.status.code >= 500 {
            fatalError("The server would answer \(answer.status.code) (\(answer.code)): \(answer.message)")
        }
    }
    return 0
}
