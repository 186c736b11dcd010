import Foundation
@testable import JSONStore
import OpenSwiftData
import TestModels
import Testing

/// Damage to a store file is detected, all of it: a copy cut short at any offset, and random
/// single-bit flips, in both layouts, with history and a schema record in the file. The full
/// run is `JSON_CORRUPTION_FLIPS=100000`; CI flips 1,000 bits a layout.
@Suite struct CorruptionTests {
    static let flips = Int(ProcessInfo.processInfo.environment["JSON_CORRUPTION_FLIPS"] ?? "") ?? 1_000

    /// A small store's file: three notes, one with a tag, history of two saves.
    private func smallStoreFile(_ formatting: JSONStoreConfiguration.OutputFormatting, in scratch: ScratchDirectory) throws -> (URL, Data) {
        let url = scratch.file("notes.json")
        let configuration = JSONStoreConfiguration(name: "notes", url: url, outputFormatting: formatting, keepsHistory: true)
        let context = ModelContext(try ModelContainer(for: Schema(versionedSchema: JSONNotesV1.self), migrationPlan: JSONNotesPlan.self,
                                                      configurations: [configuration]))
        let tag = JSONTag(name: "work")
        context.insert(JSONNote(title: "alpha", body: "first", tag: tag))
        context.insert(JSONNote(title: "beta", created: Date(timeIntervalSinceReferenceDate: 86_400.5)))
        try context.save()
        context.insert(JSONNote(title: "gamma", body: "é ☃"))
        try context.save()
        return (url, try Data(contentsOf: url))
    }

    /// Whether opening a store over `bytes` is refused as damaged.
    private func isRefused(_ bytes: Data, at url: URL) throws -> Bool {
        try bytes.write(to: url)
        do {
            _ = try JSONStore(JSONStoreConfiguration(name: "notes", schema: Schema(versionedSchema: JSONNotesV1.self), url: url,
                                                     keepsHistory: true))
            return false
        } catch let error as JSONStoreError {
            return error.code == .unreadableFile
        }
    }

    @Test(arguments: [JSONStoreConfiguration.OutputFormatting.prettyPrinted, .compact])
    func everyTruncationIsDetected(formatting: JSONStoreConfiguration.OutputFormatting) throws {
        let scratch = try ScratchDirectory()
        let (url, intact) = try smallStoreFile(formatting, in: scratch)
        #expect(FileChecksum.verify(intact) == .verified)
        let undetected = try (0..<intact.count).filter { try !isRefused(intact.prefix($0), at: url) }
        #expect(undetected == [], "\(undetected.count) of \(intact.count) truncations read as a store")
    }

    @Test(arguments: [JSONStoreConfiguration.OutputFormatting.prettyPrinted, .compact])
    func everyBitFlipIsDetected(formatting: JSONStoreConfiguration.OutputFormatting) throws {
        let scratch = try ScratchDirectory()
        let (url, intact) = try smallStoreFile(formatting, in: scratch)
        var random = SplitMix64(state: formatting == .compact ? 46 : 64)
        var undetected: [Int] = []
        for _ in 0..<Self.flips {
            let bit = Int(random.next() % UInt64(intact.count * 8))
            var bytes = intact
            bytes[bit / 8] ^= 1 << UInt8(bit % 8)
            if try !isRefused(bytes, at: url) { undetected.append(bit) }
        }
        #expect(undetected == [], "\(undetected.count) of \(Self.flips) bit flips read as a store")
    }

    @Test func theChecksumIsCRC32C() {
        var crc = CRC32C()
        crc.update(Data("123456789".utf8))
        #expect(crc.value == 0xE306_9283)
        var split = CRC32C()
        split.update(Data("1234".utf8))
        split.update(Data("56789".utf8))
        #expect(split.value == 0xE306_9283)
    }
}
