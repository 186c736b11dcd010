// Saves into a JSONStore in a loop until it is killed, for JSONStoreTests' crash test: after each
// save returns it writes "saved <run> <n>" unbuffered, so the test knows which saves it must find.
//
//     JSONStoreCrashWriter <file.json> <run>
import Foundation
import JSONStore
import OpenSwiftData
import TestModels

/// One unbuffered write per line, so nothing printed is lost when the process is killed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let run = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: JSONStoreCrashWriter <file.json> <run>\n".utf8))
    exit(2)
}
do {
    let configuration = JSONStoreConfiguration(name: "crash", url: URL(fileURLWithPath: arguments[1]), outputFormatting: .compact)
    let context = ModelContext(try ModelContainer(for: CrashRecord.self, configurations: configuration))
    say("ready")
    for sequence in 1... {
        context.insert(CrashRecord(run: run, sequence: sequence, payload: String(repeating: "x", count: sequence % 8)))
        try context.save()
        say("saved \(run) \(sequence)")
    }
} catch {
    FileHandle.standardError.write(Data("JSONStoreCrashWriter: \(error)\n".utf8))
    exit(1)
}
