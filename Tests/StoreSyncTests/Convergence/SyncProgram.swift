import Foundation
import OpenSwiftData

/// One step of a convergence program. Steps that pick a model name it by a fraction into the
/// client's models of that kind, sorted, so that a program with steps removed (while shrinking)
/// still runs.
enum SyncStep: CustomStringConvertible {
    case insertNote(client: Int, uid: String, title: String, rating: Double, folder: Double?, label: Double?)
    case insertFolder(client: Int, name: String, color: Int)
    case insertLabel(client: Int, name: String)
    case retitle(client: Int, note: Double, title: String)
    case rate(client: Int, note: Double, rating: Double, body: String?)
    case recolor(client: Int, folder: Double, color: Int)
    case deleteNote(client: Int, note: Double)
    case deleteFolder(client: Int, folder: Double)
    case deleteLabel(client: Int, label: Double)
    case relate(client: Int, note: Double, folder: Double)
    case unrelate(client: Int, note: Double)
    case label(client: Int, note: Double, label: Double)
    case unlabel(client: Int, note: Double)
    case sync(client: Int)
    case goOffline(client: Int)
    case goOnline(client: Int)
    case restart(client: Int)

    var description: String {
        switch self {
        case let .insertNote(client, uid, title, rating, folder, label):
            "insertNote(client: \(client), uid: \"\(uid)\", title: \"\(title)\", rating: \(rating), folder: \(folder.map { "\($0)" } ?? "nil"), label: \(label.map { "\($0)" } ?? "nil"))"
        case let .insertFolder(client, name, color): "insertFolder(client: \(client), name: \"\(name)\", color: \(color))"
        case let .insertLabel(client, name): "insertLabel(client: \(client), name: \"\(name)\")"
        case let .retitle(client, note, title): "retitle(client: \(client), note: \(note), title: \"\(title)\")"
        case let .rate(client, note, rating, body): "rate(client: \(client), note: \(note), rating: \(rating), body: \(body.map { "\"\($0)\"" } ?? "nil"))"
        case let .recolor(client, folder, color): "recolor(client: \(client), folder: \(folder), color: \(color))"
        case let .deleteNote(client, note): "deleteNote(client: \(client), note: \(note))"
        case let .deleteFolder(client, folder): "deleteFolder(client: \(client), folder: \(folder))"
        case let .deleteLabel(client, label): "deleteLabel(client: \(client), label: \(label))"
        case let .relate(client, note, folder): "relate(client: \(client), note: \(note), folder: \(folder))"
        case let .unrelate(client, note): "unrelate(client: \(client), note: \(note))"
        case let .label(client, note, label): "label(client: \(client), note: \(note), label: \(label))"
        case let .unlabel(client, note): "unlabel(client: \(client), note: \(note))"
        case let .sync(client): "sync(client: \(client))"
        case let .goOffline(client): "goOffline(client: \(client))"
        case let .goOnline(client): "goOnline(client: \(client))"
        case let .restart(client): "restart(client: \(client))"
        }
    }
}

/// SplitMix64: small, fast and the same on every platform, so a seed names one program.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum SyncProgram {
    static let clients = 3
    static let folderNames = ["Home", "Work", "Trips"]
    static let labelNames = ["red", "green", "blue"]
    static let titles = ["Plan", "Draft", "Done", "Ideas", "Ünïcode ✓"]
    static let ratings: [Double] = [0, 1.5, -2, 1e300, .infinity, -.infinity]

    /// A random program of `length` steps.
    static func make(seed: UInt64, length: Int) -> [SyncStep] {
        var random = SeededGenerator(seed: seed)
        var steps: [SyncStep] = []
        var counter = 0
        func fraction() -> Double { Double(Int.random(in: 0..<1000, using: &random)) / 1000 }
        for _ in 0..<length {
            let client = Int.random(in: 0..<clients, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<14:
                counter += 1
                steps.append(.insertNote(client: client, uid: "s\(seed)-n\(counter)", title: titles.randomElement(using: &random)!,
                                         rating: ratings.randomElement(using: &random)!,
                                         folder: Bool.random(using: &random) ? fraction() : nil, label: Bool.random(using: &random) ? fraction() : nil))
            case 14..<20: steps.append(.insertFolder(client: client, name: folderNames.randomElement(using: &random)!, color: Int.random(in: 0..<5, using: &random)))
            case 20..<25: steps.append(.insertLabel(client: client, name: labelNames.randomElement(using: &random)!))
            case 25..<32: steps.append(.retitle(client: client, note: fraction(), title: titles.randomElement(using: &random)!))
            case 32..<38: steps.append(.rate(client: client, note: fraction(), rating: ratings.randomElement(using: &random)!,
                                              body: Bool.random(using: &random) ? titles.randomElement(using: &random)! : nil))
            case 38..<42: steps.append(.recolor(client: client, folder: fraction(), color: Int.random(in: 0..<5, using: &random)))
            case 42..<46: steps.append(.deleteNote(client: client, note: fraction()))
            case 46..<48: steps.append(.deleteFolder(client: client, folder: fraction()))
            case 48..<50: steps.append(.deleteLabel(client: client, label: fraction()))
            case 50..<56: steps.append(.relate(client: client, note: fraction(), folder: fraction()))
            case 56..<59: steps.append(.unrelate(client: client, note: fraction()))
            case 59..<65: steps.append(.label(client: client, note: fraction(), label: fraction()))
            case 65..<68: steps.append(.unlabel(client: client, note: fraction()))
            case 68..<88: steps.append(.sync(client: client))
            case 88..<93: steps.append(.goOffline(client: client))
            case 93..<97: steps.append(.goOnline(client: client))
            default: steps.append(.restart(client: client))
            }
        }
        return steps
    }
}
