import Foundation
import HTTPTypes

/// One request to the browser, whatever framework received it: the path below the browser's
/// mount point, split into decoded components, and what the pages read of the rest.
struct BrowserRequest: Sendable {
    let method: HTTPRequest.Method
    /// Where the browser is mounted (`/browse`, or empty at the root), for links and the cookie path.
    let prefix: String
    /// The path below ``prefix``, percent-decoded, without empty components.
    let components: [String]
    /// The query's parameters, decoded; the first of a repeated name wins.
    let query: [String: String]
    let cookies: [String: String]
    /// The fields of a URL-encoded form body; empty for other bodies.
    let form: [String: String]

    init(method: HTTPRequest.Method, prefix: String, path: String, query: String?, headers: HTTPFields, body: [UInt8]) {
        self.method = method
        self.prefix = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        components = path.split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        self.query = FormEncoding.decode(query ?? "")
        cookies = Self.cookies(headers[values: .cookie])
        let isForm = headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
        form = isForm ? FormEncoding.decode(String(decoding: body, as: UTF8.self)) : [:]
    }

    /// `name=value` pairs of every `Cookie` header (RFC 6265, 5.4); the first of a name wins.
    private static func cookies(_ headers: [String]) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in headers {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                let name = parts[0].trimmingCharacters(in: .whitespaces)
                if cookies[name] == nil { cookies[name] = parts[1].trimmingCharacters(in: .whitespaces) }
            }
        }
        return cookies
    }

    /// The absolute path of a page of the browser: `path("entity", "Trip")` is `/browse/entity/Trip`.
    func path(_ components: String...) -> String {
        Links.path(prefix: prefix, components)
    }
}

/// `application/x-www-form-urlencoded`, as forms send it and query strings carry it.
enum FormEncoding {
    static func decode(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeComponent(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? decodeComponent(parts[1]) : "" }
        }
        return fields
    }

    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(encodeComponent($0.0))=\(encodeComponent($0.1))" }.joined(separator: "&")
    }

    private static func decodeComponent(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    static func encodeComponent(_ part: String) -> String {
        part.addingPercentEncoding(withAllowedCharacters: unreserved) ?? part
    }
}

/// The browser's URLs.
enum Links {
    static func path(prefix: String, _ components: [String]) -> String {
        prefix + "/" + components.map(FormEncoding.encodeComponent).joined(separator: "/")
    }

    /// `path` with a query of the non-empty fields.
    static func with(_ path: String, _ fields: [(String, String?)]) -> String {
        let present = fields.compactMap { name, value in value.flatMap { $0.isEmpty ? nil : (name, $0) } }
        return present.isEmpty ? path : path + "?" + FormEncoding.encode(present)
    }
}
