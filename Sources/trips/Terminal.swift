#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Colour for a person at a terminal, plain text for pipes and files: styles apply only when
/// standard output is a terminal, `NO_COLOR` is unset or empty (no-color.org) and `TERM` is not
/// `dumb`.
enum Terminal {
    static let usesColor: Bool = {
        let environment = ProcessInfo.processInfo.environment
        guard isatty(STDOUT_FILENO) == 1 else { return false }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }()

    static func bold(_ text: String) -> String { styled(text, "1") }
    static func dim(_ text: String) -> String { styled(text, "2") }

    private static func styled(_ text: String, _ code: String) -> String {
        usesColor && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
