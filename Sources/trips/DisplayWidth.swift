extension String {
    /// The columns a terminal gives the text: East Asian wide and fullwidth characters and emoji
    /// take two, combining marks and zero-width characters none, everything else one.
    var displayWidth: Int {
        reduce(0) { $0 + $1.displayWidth }
    }

    /// The text followed by spaces up to `width` columns.
    func paddedToDisplayWidth(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - displayWidth))
    }

    /// Spaces up to `width` columns, then the text.
    func alignedRightToDisplayWidth(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - displayWidth)) + self
    }
}

extension Character {
    /// A grapheme cluster's columns: its first scalar decides, unless an emoji presentation
    /// selector (U+FE0F) or a flag's pair of regional indicators makes it an emoji.
    var displayWidth: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if first.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        return Self.wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks of Unicode's EastAsianWidth.txt.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}
