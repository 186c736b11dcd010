import Foundation

/// The schema as an SVG drawn by the server: a box per entity listing its attributes, a line per
/// relationship labelled with its name, shape and delete rule, and a dashed line with a hollow
/// arrow from each subclass to the class it inherits from. Boxes link to their entity's page.
struct SchemaDiagram {
    let schema: BrowsedSchema
    /// The path entity links start with (`/browse/entity/`).
    let entityLink: (String) -> String

    private static let boxWidth = 230.0
    private static let headerHeight = 30.0
    private static let lineHeight = 18.0
    private static let gapX = 250.0
    private static let gapY = 110.0
    private static let margin = 24.0
    private static let shownAttributes = 10

    private struct Box {
        let entity: BrowsedSchema.Entity
        let x: Double
        let y: Double
        let height: Double

        var centerX: Double { x + SchemaDiagram.boxWidth / 2 }
        var centerY: Double { y + height / 2 }

        /// Where the line from the box's center toward (x, y) leaves the box.
        func edge(toward targetX: Double, _ targetY: Double) -> (Double, Double) {
            let dx = targetX - centerX, dy = targetY - centerY
            guard dx != 0 || dy != 0 else { return (centerX, centerY) }
            let scale = min(dx == 0 ? .infinity : (SchemaDiagram.boxWidth / 2) / abs(dx), dy == 0 ? .infinity : (height / 2) / abs(dy))
            return (centerX + dx * scale, centerY + dy * scale)
        }
    }

    func svg() -> String {
        let boxes = layout()
        let width = (boxes.map { $0.x + Self.boxWidth }.max() ?? 0) + Self.margin
        let height = (boxes.map { $0.y + $0.height }.max() ?? 0) + Self.margin
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" class="schema-diagram" role="img" aria-labelledby="diagram-title diagram-desc" \
            viewBox="0 0 \(format(width)) \(format(height))" width="\(format(width))" height="\(format(height))">
            <title id="diagram-title">Schema diagram</title>
            <desc id="diagram-desc">\(Markup.escape(description()))</desc>
            <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="arrow"/></marker>
            <marker id="inherits" viewBox="0 0 12 12" refX="12" refY="6" markerWidth="12" markerHeight="12" orient="auto"><path d="M0,0 L12,6 L0,12 z" class="inherits-head"/></marker>
            </defs>

            """
        let byName = Dictionary(boxes.map { ($0.entity.name, $0) }, uniquingKeysWith: { first, _ in first })
        for box in boxes {
            if let parent = box.entity.superentityName.flatMap({ byName[$0] }) {
                let (x1, y1) = box.edge(toward: parent.centerX, parent.centerY)
                let (x2, y2) = parent.edge(toward: box.centerX, box.centerY)
                svg += "<line class=\"inheritance\" x1=\"\(format(x1))\" y1=\"\(format(y1))\" x2=\"\(format(x2))\" y2=\"\(format(y2))\" marker-end=\"url(#inherits)\"><title>\(Markup.escape("\(box.entity.name) inherits from \(parent.entity.name)"))</title></line>\n"
            }
        }
        // Lines first, then boxes, then labels, so that labels stay readable over both.
        var labels = ""
        let edges = edges()
        for (index, edge) in edges.enumerated() {
            guard let from = byName[edge.from], let to = byName[edge.to] else { continue }
            // Relationships between the same two entities run side by side.
            let pair = edges.filter { Set([$0.from, $0.to]) == Set([edge.from, edge.to]) }
            let rank = pair.firstIndex { $0.from == edge.from && $0.fromLabel == edge.fromLabel } ?? 0
            let (line, label) = self.line(edge, from: from, to: to, shift: (Double(rank) - Double(pair.count - 1) / 2) * 18, index: index)
            svg += line
            labels += label
        }
        for box in boxes { svg += self.box(box) }
        return svg + labels + "</svg>\n"
    }

    /// Boxes in rows of up to three, each row as tall as its tallest box.
    private func layout() -> [Box] {
        let columns = max(1, min(3, Int(Double(schema.entities.count).squareRoot().rounded(.up))))
        var boxes: [Box] = []
        var y = Self.margin
        var start = 0
        while start < schema.entities.count {
            let row = schema.entities[start..<min(start + columns, schema.entities.count)]
            let heights = row.map(boxHeight)
            for (offset, entity) in row.enumerated() {
                boxes.append(Box(entity: entity, x: Self.margin + Double(offset) * (Self.boxWidth + Self.gapX), y: y, height: heights[offset]))
            }
            y += (heights.max() ?? 0) + Self.gapY
            start += columns
        }
        return boxes
    }

    private func boxHeight(_ entity: BrowsedSchema.Entity) -> Double {
        let lines = min(entity.attributes.count, Self.shownAttributes) + (entity.attributes.count > Self.shownAttributes ? 1 : 0)
        return Self.headerHeight + Double(max(lines, 1)) * Self.lineHeight + 10
    }

    private func box(_ box: Box) -> String {
        let entity = box.entity
        var text = "<a href=\"\(Markup.escape(entityLink(entity.name)))\" class=\"entity\">"
        text += "<rect x=\"\(format(box.x))\" y=\"\(format(box.y))\" width=\"\(format(Self.boxWidth))\" height=\"\(format(box.height))\" rx=\"6\"/>"
        text += "<text class=\"entity-name\" x=\"\(format(box.x + 12))\" y=\"\(format(box.y + 20))\">\(Markup.escape(entity.name))</text>"
        text += "<line class=\"divider\" x1=\"\(format(box.x))\" y1=\"\(format(box.y + Self.headerHeight))\" x2=\"\(format(box.x + Self.boxWidth))\" y2=\"\(format(box.y + Self.headerHeight))\"/>"
        var lines = entity.attributes.prefix(Self.shownAttributes).map { "\($0.name): \(TypeNames.name(of: $0.valueType))\($0.isUnique ? " (unique)" : "")" }
        if entity.attributes.count > Self.shownAttributes { lines.append("… \(entity.attributes.count - Self.shownAttributes) more") }
        if lines.isEmpty { lines = ["no attributes"] }
        for (index, line) in lines.enumerated() {
            let y = box.y + Self.headerHeight + Self.lineHeight * Double(index + 1)
            text += "<text class=\"attribute\" x=\"\(format(box.x + 12))\" y=\"\(format(y))\">\(Markup.escape(line))</text>"
        }
        return text + "</a>\n"
    }

    /// One line per relationship, or per pair of inverse relationships, labelled at each end.
    private struct Edge {
        let from: String
        let to: String
        let fromLabel: String
        let toLabel: String?
    }

    private func edges() -> [Edge] {
        var drawn: Set<String> = []
        var edges: [Edge] = []
        for entity in schema.entities {
            for relationship in entity.relationships where !drawn.contains("\(entity.name).\(relationship.name)") {
                drawn.insert("\(entity.name).\(relationship.name)")
                let inverse = relationship.inverseName.flatMap { name in
                    (try? schema.entity(named: relationship.destination))?.relationship(named: name)
                }
                if let inverse { drawn.insert("\(relationship.destination).\(inverse.name)") }
                edges.append(Edge(from: entity.name, to: relationship.destination, fromLabel: label(relationship),
                                  toLabel: inverse.map(label)))
            }
        }
        return edges
    }

    private func label(_ relationship: BrowsedSchema.Relationship) -> String {
        "\(relationship.name) \(relationship.isToMany ? "[to-many]" : "[to-one]") \(relationship.deleteRule.rawValue)"
    }

    /// The line of a relationship, and its labels: the relationship's near where it starts, its
    /// inverse's near where it ends, on opposite sides of the line.
    private func line(_ edge: Edge, from: Box, to: Box, shift: Double, index: Int) -> (String, String) {
        let title = Markup.escape(edge.toLabel.map { "\(edge.from).\(edge.fromLabel); \(edge.to).\($0)" } ?? "\(edge.from).\(edge.fromLabel)")
        if from.entity.name == to.entity.name {
            // A relationship of an entity with itself: a loop on the box's right side.
            let x = from.x + Self.boxWidth, y = from.y + 12 + Double(index % 3) * 10
            let line = "<path class=\"relationship\" d=\"M\(format(x)),\(format(y)) C\(format(x + 70)),\(format(y - 30)) \(format(x + 70)),\(format(y + 60)) \(format(x)),\(format(y + 30))\" marker-end=\"url(#arrow)\"><title>\(title)</title></path>\n"
            return (line, text(edge.fromLabel, x: x + 58, y: y + 18, anchor: "start"))
        }
        var (x1, y1) = from.edge(toward: to.centerX, to.centerY)
        var (x2, y2) = to.edge(toward: from.centerX, from.centerY)
        let horizontal = abs(x2 - x1) >= abs(y2 - y1)
        if horizontal { y1 += shift; y2 += shift } else { x1 += shift; x2 += shift }
        var line = "<line class=\"relationship\" x1=\"\(format(x1))\" y1=\"\(format(y1))\" x2=\"\(format(x2))\" y2=\"\(format(y2))\" marker-end=\"url(#arrow)\""
        if edge.toLabel != nil { line += " marker-start=\"url(#arrow)\"" }
        line += "><title>\(title)</title></line>\n"
        var labels: String
        if horizontal {
            let rightward = x2 >= x1
            labels = text(edge.fromLabel, x: x1 + (rightward ? 12 : -12), y: y1 - 7, anchor: rightward ? "start" : "end")
            if let toLabel = edge.toLabel {
                labels += text(toLabel, x: x2 + (rightward ? -12 : 12), y: y2 + 15, anchor: rightward ? "end" : "start")
            }
        } else {
            let downward = y2 >= y1
            labels = text(edge.fromLabel, x: x1 + 7, y: y1 + (downward ? 18 : -10), anchor: "start")
            if let toLabel = edge.toLabel {
                labels += text(toLabel, x: x2 + 7, y: y2 + (downward ? -10 : 18), anchor: "start")
            }
        }
        return (line, labels)
    }

    private func text(_ label: String, x: Double, y: Double, anchor: String) -> String {
        "<text class=\"relationship-label\" x=\"\(format(x))\" y=\"\(format(y))\" text-anchor=\"\(anchor)\">\(Markup.escape(label))</text>\n"
    }

    /// The diagram in words, for screen readers.
    private func description() -> String {
        var sentences: [String] = []
        for entity in schema.entities {
            var sentence = "\(entity.name)"
            if let parent = entity.superentityName { sentence += " inherits from \(parent) and" }
            sentence += " has \(entity.attributes.count) attributes"
            if !entity.relationships.isEmpty {
                sentence += "; " + entity.relationships.map { "\($0.name), \($0.isToMany ? "to-many" : "to-one") to \($0.destination), delete rule \($0.deleteRule.rawValue)" }.joined(separator: "; ")
            }
            sentences.append(sentence + ".")
        }
        return sentences.joined(separator: " ")
    }

    private func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

/// Swift type names as a model declares them: `String?`, `[String]`, `Date`.
enum TypeNames {
    static func name(of type: any Any.Type) -> String {
        let text = String(describing: type)
        if text.hasPrefix("Optional<"), text.hasSuffix(">") { return simplify(String(text.dropFirst(9).dropLast())) + "?" }
        return simplify(text)
    }

    private static func simplify(_ text: String) -> String {
        if text.hasPrefix("Array<"), text.hasSuffix(">") { return "[" + simplify(String(text.dropFirst(6).dropLast())) + "]" }
        if text.hasPrefix("Optional<"), text.hasSuffix(">") { return simplify(String(text.dropFirst(9).dropLast())) + "?" }
        return text
    }
}
