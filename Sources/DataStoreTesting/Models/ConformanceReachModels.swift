import Foundation
import OpenSwiftData

// Graphs a container reaches through its root alone (`ModelContainer(for: ConformancePlaylist.self)`),
// as apps make theirs: the other entities come in through the relationships.

/// A many-to-many alone, as apps write one: optional arrays on both sides, the inverse declared
/// on the root, unique integer ids on both models. No entity of its graph has a to-one, so the
/// graph's only links are the many-to-many's.
@Model
final class ConformancePlaylist {
    @Attribute(.unique) var number: Int
    var name: String
    @Relationship(inverse: \ConformanceSong.playlists) var songs: [ConformanceSong]?

    init(number: Int, name: String, songs: [ConformanceSong] = []) {
        self.number = number
        self.name = name
        self.songs = songs
    }
}

@Model
final class ConformanceSong {
    @Attribute(.unique) var number: Int
    var title: String
    var playlists: [ConformancePlaylist]?

    init(number: Int, title: String) {
        self.number = number
        self.title = title
    }
}

/// A root whose inverses are all declared on the other side: a non-optional many-to-many, a
/// one-to-many and a one-to-one.
@Model
final class ConformanceAlbum {
    var title: String
    var artists: [ConformanceArtist] = []
    var tracks: [ConformanceTrack] = []
    var cover: ConformanceCover?

    init(title: String, artists: [ConformanceArtist] = [], tracks: [ConformanceTrack] = [], cover: ConformanceCover? = nil) {
        self.title = title
        self.artists = artists
        self.tracks = tracks
        self.cover = cover
    }
}

@Model
final class ConformanceArtist {
    var name: String
    @Relationship(inverse: \ConformanceAlbum.artists) var albums: [ConformanceAlbum] = []

    init(name: String) { self.name = name }
}

@Model
final class ConformanceTrack {
    var title: String
    @Relationship(inverse: \ConformanceAlbum.tracks) var album: ConformanceAlbum?

    init(title: String) { self.title = title }
}

@Model
final class ConformanceCover {
    var caption: String
    @Relationship(inverse: \ConformanceAlbum.cover) var album: ConformanceAlbum?

    init(caption: String) { self.caption = caption }
}
