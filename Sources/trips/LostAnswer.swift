import ArgumentParser
import Foundation
import OpenSwiftData
import RemoteStore

/// A change sent through `--remote` whose answer was lost (the server took the request, then the
/// connection dropped or timed out) may have been applied. Reporting it as "unreachable" with
/// status 1 would say nothing happened, and invite a repeat that applies it twice; so the user is
/// told what is known, how to check, and whether the same command is safe to run again.
enum LostAnswer {
    /// The exit status then (sysexits' EX_TEMPFAIL: the user is invited to retry, as told).
    static let exitStatus: Int32 = 75

    /// What to do about a change that may have been applied.
    enum Advice {
        /// Running the same command again cannot apply the change twice; says why.
        case repeatable(String)
        /// Running it again would apply the change twice: the command that shows whether it was.
        case checkFirst(String)
    }
}

extension ModelContext {
    /// Saves; a save whose answer was lost is reported as possibly applied (`change` says what,
    /// `advice` what to do next), with ``LostAnswer/exitStatus``.
    func save(_ change: @autoclosure () -> String, advice: LostAnswer.Advice) throws {
        do {
            try save()
        } catch let error as RemoteStoreError where error.code == .outcomeUnknown {
            let next = switch advice {
            case .repeatable(let why): "Run the same command again to make sure: \(why)."
            case .checkFirst(let command): "Check with `\(command)` before running it again: a second run would apply it twice."
            }
            let reason = (error.underlying as? RemoteStoreError)?.message ?? error.message
            FileHandle.standardError.write(Data("Error: The server may have \(change()): \(reason) \(next)\n".utf8))
            throw ExitCode(LostAnswer.exitStatus)
        }
    }
}
