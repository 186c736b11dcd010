import Foundation
import Mustache

/// The pages' Mustache templates, read once from the target's resources. `{{value}}` escapes
/// HTML; the one unescaped field, the schema diagram, is SVG the browser drew and escaped itself.
struct PageRenderer: Sendable {
    let library: MustacheLibrary

    static let shared = Result { try PageRenderer() }

    private init() throws {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw BrowserError(.internalServerError, "The browser was built without its Templates resource.")
        }
        var templates: [String: MustacheTemplate] = [:]
        for file in try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        where file.pathExtension == "mustache" {
            templates[file.deletingPathExtension().lastPathComponent] = try MustacheTemplate(string: String(contentsOf: file, encoding: .utf8))
        }
        library = MustacheLibrary(templates: templates)
    }

    func render(_ view: Any, template: String) throws -> String {
        guard let page = library.render(view, withTemplate: template) else {
            throw BrowserError(.internalServerError, "The browser has no template named \(template).")
        }
        return page
    }
}

/// The browser's stylesheet and script, served by the server itself: no CDN, so it works offline.
enum Assets {
    static let files: [String: (type: String, bytes: [UInt8])] = {
        var files: [String: (type: String, bytes: [UInt8])] = [:]
        guard let directory = Bundle.module.url(forResource: "Assets", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return files }
        for name in names {
            let type = name.hasSuffix(".css") ? "text/css; charset=utf-8" : name.hasSuffix(".js") ? "text/javascript; charset=utf-8" : "application/octet-stream"
            if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) {
                files[name] = (type, Array(data))
            }
        }
        return files
    }()
}

/// Escapes text for HTML and SVG, for the markup the browser writes without a template.
enum Markup {
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
