import Foundation
import OpenSwiftData
import SampleTrips

// libFuzzer target for the JSON store's file reader, compiled together with Sources/JSONStore
// (see .ci/fuzz.sh): any bytes must be read as snapshots or refused with an error, never crash,
// and whatever is read must be written back and read again the same.

private let configurations: [ArchiveCoder] = {
    let schema = Schema(SampleTripsSchema.models)
    let url = URL(fileURLWithPath: "/nonexistent/trips.json")
    return [JSONStoreConfiguration.DateEncoding.iso8601, .secondsSinceReferenceDate, .secondsSince1970].flatMap { dates in
        [JSONStoreConfiguration.OutputFormatting.prettyPrinted, .compact].map { layout in
            ArchiveCoder(configuration: JSONStoreConfiguration(name: "trips", schema: schema, url: url,
                                                               outputFormatting: layout, dateEncoding: dates))
        }
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONFileReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    for coder in configurations {
        let snapshots: [(snapshot: DefaultSnapshot, json: Data?)]
        do {
            snapshots = try coder.decode(bytes)
        } catch {
            _ = JSONStoreError.unreadable(coder.configuration.url, error, bytes: bytes).message
            continue
        }
        // Each model encoded afresh, as a save that changes it would (the file's bytes are
        // otherwise reused as read).
        for element in snapshots { _ = try? coder.encode(element.snapshot) }
        guard let archive = try? SnapshotArchive(snapshots) else { continue }
        var written = archive
        guard let file = try? written.encodedFile(with: coder) else { continue }
        guard let again = try? coder.decode(file), again.count == snapshots.count else {
            fatalError("A file the store wrote cannot be read back: \(String(decoding: file, as: UTF8.self))")
        }
    }
    return 0
}
