import Foundation
import SwiftData

/// One local model's server identity: local identifiers differ between devices, so relationships
/// travel by the server's keys and are translated through this map.
@Model final class SyncIdentityRecord {
    #Index<SyncIdentityRecord>([\.server], [\.local], [\.entity])

    var entity: String
    /// ``ServerModel/text``.
    var server: String
    /// ``LocalKeys`` text of the local `PersistentIdentifier`.
    var local: String
    /// What the server holds of the model as far as this client knows
    /// (``SyncState/baseline(of:entity:_:)``); nil for a model mapped by an engine that kept none.
    var baseline: Data?

    init(entity: String, server: String, local: String, baseline: Data?) {
        self.entity = entity
        self.server = server
        self.local = local
        self.baseline = baseline
    }
}

/// A local model's changes not pushed yet, read from the local store's history: kept here so
/// that history retention cannot lose them once the engine has read them.
@Model final class SyncPendingRecord {
    #Index<SyncPendingRecord>([\.local], [\.sequence])

    var local: String
    var entity: String
    /// Order of first change, so pushes go in the order the changes were made.
    var sequence: Int
    /// Bumped by each change read after the record was pushed, so the push's answer clears
    /// only what it sent.
    var revision: Int
    var inserted: Bool
    var deleted: Bool
    /// The travelling properties that changed.
    var properties: [String]
    /// The model's server identity when it was deleted locally (the map entry goes with the
    /// pushed delete).
    var server: String?

    init(local: String, entity: String, sequence: Int) {
        self.local = local
        self.entity = entity
        self.sequence = sequence
        revision = 0
        inserted = false
        deleted = false
        properties = []
        server = nil
    }
}

/// One named value of the engine's state: tokens, the client's identifier, the push in flight.
@Model final class SyncSettingRecord {
    #Unique<SyncSettingRecord>([\.name])

    var name: String
    var value: Data

    init(name: String, value: Data) {
        self.name = name
        self.value = value
    }
}

/// A local model's identifier as text, for the engine's records: its `Codable` form, which
/// round-trips on every platform.
enum LocalKeys {
    static func text(_ identifier: PersistentIdentifier) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(identifier), as: UTF8.self)
    }

    static func identifier(_ text: String) throws -> PersistentIdentifier {
        try JSONDecoder().decode(PersistentIdentifier.self, from: Data(text.utf8))
    }
}
