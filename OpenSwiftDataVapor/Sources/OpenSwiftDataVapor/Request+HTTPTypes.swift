import HTTPTypes
import Vapor

extension Request {
    /// The request's head as HTTPTypes has it, with `path` (a path and query) as its target: what
    /// the store's API and the browser take.
    func httpTypesHead(path: String) -> HTTPRequest {
        var fields = HTTPFields()
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
        }
        return HTTPRequest(method: HTTPRequest.Method(method.rawValue) ?? .get, scheme: "http",
                           authority: headers.first(name: .host) ?? "localhost", path: path, headerFields: fields)
    }
}

extension HTTPFields {
    /// The fields as Vapor's headers.
    var vaporHeaders: HTTPHeaders {
        var headers = HTTPHeaders()
        for field in self { headers.add(name: field.name.rawName, value: field.value) }
        return headers
    }
}
