import Foundation

/// Runs `bench --child …` in a new process of this same binary and decodes its report.
enum ChildProcess {
    enum Outcome {
        case finished(ChildReport)
        case failed(String)
        case skipped(String)
    }

    private final class Output: @unchecked Sendable {
        var data = Data()
    }

    static func run(_ arguments: [String], timeout: Duration) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        process.arguments = ["--child"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        let output = Output()
        let done = DispatchSemaphore(value: 0)
        do {
            try process.run()
        } catch {
            return .failed("could not start: \(error)")
        }
        DispatchQueue.global().async {
            output.data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let seconds = Double(timeout.components.seconds)
        if done.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            process.waitUntilExit()
            return .failed("timed out after \(Int(seconds)) s")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return .failed("exit status \(process.terminationStatus)") }
        do {
            return .finished(try JSONDecoder().decode(ChildReport.self, from: output.data))
        } catch {
            return .failed("unreadable report: \(error)")
        }
    }
}
