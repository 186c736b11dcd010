import HTTPTypes

/// Why the browser refused or failed a request: the status it answers with, and a message for the
/// page that says what to do. Messages never quote a token.
struct BrowserError: Error, CustomStringConvertible {
    let status: HTTPResponse.Status
    let message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    var description: String { message }

    static func notFound(_ message: String) -> BrowserError { BrowserError(.notFound, message) }
    static func badRequest(_ message: String) -> BrowserError { BrowserError(.badRequest, message) }
    static func forbidden(_ message: String) -> BrowserError { BrowserError(.forbidden, message) }
}
