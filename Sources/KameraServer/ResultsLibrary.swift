import Foundation
import GRDB
import Kamera
import Logging

/// The server's results library: SQLite through GRDB in the data directory (WAL, one
/// writer), beside the recordings' movies and thumbnails. What it has acknowledged survives
/// a killed server; a recording being written when the server died is still playable (the
/// movie is fragmented) and is finished and listed at the next start.
final class ResultsLibrary: Sendable {
    let directory: URL
    let recordingsDirectory: URL
    let stillsDirectory: URL
    private let pool: DatabasePool
    /// A file of `reserveBytes` kept beside the database and deleted when a write finds the
    /// disk full, so the library can still record how recordings ended (and say so) when a
    /// movie has taken the last byte.
    private let reserve: URL
    static let reserveBytes = 1 << 20

    init(directory: URL) throws {
        self.directory = directory
        recordingsDirectory = directory.appendingPathComponent("recordings", isDirectory: true)
        stillsDirectory = directory.appendingPathComponent("stills", isDirectory: true)
        reserve = directory.appendingPathComponent("kamera.reserve")
        do {
            try FileManager.default.createDirectory(at: recordingsDirectory, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: stillsDirectory, withIntermediateDirectories: true)
            pool = try DatabasePool(path: directory.appendingPathComponent("kamera.sqlite").path)
            try Self.migrator.migrate(pool)
            // Best effort: on a disk too full for it, there is nothing to keep in reserve.
            if !FileManager.default.fileExists(atPath: reserve.path) {
                _ = FileManager.default.createFile(atPath: reserve.path, contents: Data(count: Self.reserveBytes))
            }
        } catch let error as KameraError {
            throw error
        } catch {
            throw KameraError.writeFailed(path: directory.path, reason: "cannot open the results library: \(error)")
        }
    }

    /// A write; on a full disk the reserve is given up and the write tried once more.
    private func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await pool.write(updates)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            guard (try? FileManager.default.removeItem(at: reserve)) != nil else { throw error }
            return try await pool.write(updates)
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: RecordingEntry.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("startedAt", .datetime).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("duration", .double).notNull()
                t.column("frames", .integer).notNull()
                t.column("bytes", .integer).notNull()
                t.column("stopReason", .text)
                t.column("complete", .boolean).notNull()
                t.column("hasThumbnail", .boolean).notNull()
            }
            try db.create(table: CodeSighting.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("rowid")
                t.column("session", .text).notNull()
                t.column("symbology", .text).notNull()
                t.column("payload", .text)
                t.column("payloadBase64", .text).notNull()
                t.column("firstSeen", .datetime).notNull()
                t.uniqueKey(["session", "symbology", "payloadBase64"], onConflict: .ignore)
            }
            try db.create(table: FaceTrackEntry.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("rowid")
                t.column("session", .text).notNull()
                t.column("faceID", .integer).notNull()
                t.column("appearedAt", .datetime).notNull()
                t.column("lostAt", .datetime)
            }
            try db.create(table: PhotoEntry.databaseTableName) { t in
                t.autoIncrementedPrimaryKey("rowid")
                t.column("name", .text).notNull()
                t.column("analysedAt", .datetime).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("barcodes", .integer).notNull()
                t.column("faces", .integer).notNull()
                t.column("textLines", .integer).notNull()
            }
        }
        migrator.registerMigration("v2 recording source") { db in
            try db.alter(table: RecordingEntry.databaseTableName) { t in t.add(column: "source", .text) }
        }
        migrator.registerMigration("v3 event clips") { db in
            try db.alter(table: RecordingEntry.databaseTableName) { t in
                t.add(column: "event", .text)
                t.add(column: "eventOffset", .double)
            }
        }
        migrator.registerMigration("v4 stills") { db in
            try db.create(table: StillEntry.databaseTableName) { t in
                t.primaryKey("id", .text)
                t.column("takenAt", .datetime).notNull()
                t.column("width", .integer).notNull()
                t.column("height", .integer).notNull()
                t.column("bytes", .integer).notNull()
                t.column("source", .text).notNull()
                t.column("facesCovered", .boolean).notNull()
            }
        }
        return migrator
    }

    // MARK: Recordings

    /// Whether the database answers a read (for `/readyz`).
    func isReadable() async -> Bool {
        (try? await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    func movieURL(_ entry: RecordingEntry) -> URL { recordingsDirectory.appendingPathComponent(entry.movieName) }
    func thumbnailURL(_ entry: RecordingEntry) -> URL { recordingsDirectory.appendingPathComponent(entry.thumbnailName) }

    /// Lists a recording as being written, before its first frame, so a crash cannot lose it.
    func insert(_ entry: RecordingEntry) async throws {
        try await write { db in try entry.insert(db) }
    }

    /// `insert`, waiting on the calling thread: an event clip is listed from a capture thread
    /// before its first packet is written.
    func insertNow(_ entry: RecordingEntry) throws {
        do {
            try pool.write { db in try entry.insert(db) }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
            guard (try? FileManager.default.removeItem(at: reserve)) != nil else { throw error }
            try pool.write { db in try entry.insert(db) }
        }
    }

    func update(_ entry: RecordingEntry) async throws {
        try await write { db in try entry.update(db) }
    }

    func recordings() async throws -> [RecordingEntry] {
        try await pool.read { db in try RecordingEntry.order(Column("startedAt").desc).fetchAll(db) }
    }

    func recording(id: String) async throws -> RecordingEntry? {
        try await pool.read { db in try RecordingEntry.fetchOne(db, key: id) }
    }

    /// Deletes the row, then the movie and thumbnail; false when there is no such recording.
    func deleteRecording(id: String) async throws -> Bool {
        try await delete(RecordingEntry.self, id: id) { [movieURL($0), thumbnailURL($0)] }
    }

    /// Deletes the row of `type` keyed `id`, then its `files`; false when there is no such row.
    private func delete<Entry: FetchableRecord & PersistableRecord & Sendable>(
        _ type: Entry.Type, id: String, files: (Entry) -> [URL]
    ) async throws -> Bool {
        guard
            let entry = try await write({ db -> Entry? in
                guard let entry = try Entry.fetchOne(db, key: id) else { return nil }
                try entry.delete(db)
                return entry
            })
        else { return false }
        for file in files(entry) { try? FileManager.default.removeItem(at: file) }
        return true
    }

    /// Completes the entry of a recording that ended: measured, with its thumbnail and why it
    /// ended. A recording that got no frame is removed and nil returned.
    func conclude(_ finished: FinishedRecording) async throws -> RecordingEntry? {
        guard var entry = try await recording(id: finished.id) else { return nil }
        guard case .recorded(let width, let height, let summary) = finished.outcome else {
            _ = try await deleteRecording(id: finished.id)
            return nil
        }
        entry.width = width
        entry.height = height
        entry.duration = summary.duration
        entry.frames = summary.frames
        entry.bytes = summary.bytes
        entry.stopReason = finished.reason
        entry.complete = true
        let movie = movieURL(entry), thumbnail = thumbnailURL(entry)
        entry.hasThumbnail = (try? await AnalysisExecutor.run { try Self.writeThumbnail(of: movie, to: thumbnail) }) != nil
        try await update(entry)
        return entry
    }

    /// Recordings left unfinished by a server that stopped while writing them: the movie
    /// (fragmented, so playable up to its last fragment) is measured, gets its thumbnail and
    /// is listed as interrupted; one without a readable frame is removed.
    func finishInterruptedRecordings() async throws {
        let open = try await pool.read { db in try RecordingEntry.filter(Column("complete") == false).fetchAll(db) }
        for var entry in open {
            let movie = movieURL(entry)
            guard let reader = try? MovieReader(path: movie.path), let frames = Self.countFrames(reader), frames > 0 else {
                try? FileManager.default.removeItem(at: movie)
                let doomed = entry
                try await write { db in _ = try doomed.delete(db) }
                continue
            }
            // The entry was listed before the first frame, without a size: the movie has it.
            entry.width = reader.width
            entry.height = reader.height
            entry.duration = reader.duration ?? entry.duration
            entry.frames = frames
            entry.bytes = (try? FileManager.default.attributesOfItem(atPath: movie.path)[.size] as? Int64) ?? entry.bytes
            entry.stopReason = .interrupted
            entry.complete = true
            entry.hasThumbnail = (try? Self.writeThumbnail(of: movie, to: thumbnailURL(entry))) != nil
            try await update(entry)
        }
    }

    /// The frames that can be decoded (up to the last complete fragment); nil when none can.
    private static func countFrames(_ reader: MovieReader) -> Int? {
        var count = 0
        while (try? reader.nextFrame()) != nil { count += 1 }
        return count > 0 ? count : nil
    }

    /// A thumbnail at most 100 pixels wide with the movie's rotation applied (the seeds'
    /// `AVAssetImageGenerator` with `maximumSize` 100 × 0).
    static func writeThumbnail(of movie: URL, to url: URL) throws {
        let image = try ThumbnailGenerator(maximumSize: Size(width: 100, height: 0)).image(forVideoAt: movie.path, at: 0)
        try ImageEncoder.write(image, to: url)
    }

    // MARK: Stills

    func imageURL(_ entry: StillEntry) -> URL { stillsDirectory.appendingPathComponent(entry.imageName) }
    func thumbnailURL(_ entry: StillEntry) -> URL { stillsDirectory.appendingPathComponent(entry.thumbnailName) }

    /// Saves a photo: its files first (each written whole or not at all), then its row; a
    /// photo whose row cannot be written leaves no files behind.
    /// - Throws: `diskFull` or `writeFailed`.
    func insert(_ entry: StillEntry, image: Data, thumbnail: Data) async throws {
        let files = [(imageURL(entry), image), (thumbnailURL(entry), thumbnail)]
        do {
            for (url, data) in files { try Self.writeWhole(data, to: url) }
            try await write { db in try entry.insert(db) }
        } catch {
            for (url, _) in files { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }

    func stills(page: PageRequest) async throws -> [StillEntry] {
        try await pool.read { db in try StillEntry.order(Column("takenAt").desc).limit(page.limit, offset: page.offset).fetchAll(db) }
    }

    func still(id: String) async throws -> StillEntry? {
        try await pool.read { db in try StillEntry.fetchOne(db, key: id) }
    }

    /// Deletes the row, then the files; false when there is no such photo.
    func deleteStill(id: String) async throws -> Bool {
        try await delete(StillEntry.self, id: id) { [imageURL($0), thumbnailURL($0)] }
    }

    /// Writes `data` to a temporary file beside `url` and renames it into place, so a full
    /// disk leaves no half-written file; the failure says which (`diskFull` for ENOSPC).
    static func writeWhole(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw KameraError.writeFailed(path: url.path, errno: errno, reason: String(cString: strerror(errno))) }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0, rename(temporary.path, url.path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary.path)
            throw KameraError.writeFailed(path: url.path, errno: failure, reason: String(cString: strerror(failure)))
        }
    }

    // MARK: Live sessions and photos

    /// Notes a code seen in a session; only its first sighting is kept.
    /// Notes what one analysed live frame saw for the first time: new codes, faces that
    /// appeared or were lost.
    func note(_ sightings: LiveSightings, session: String) async throws {
        let now = Date()
        for code in sightings.newCodes {
            try await noteCode(
                CodeSighting(
                    session: session, symbology: code.symbology, payload: code.payload, payloadBase64: code.payloadBase64, firstSeen: now))
        }
        for face in sightings.appearedFaces { try await noteFaceAppeared(session: session, faceID: face, at: now) }
        for face in sightings.lostFaces { try await noteFaceLost(session: session, faceID: face, at: now) }
    }

    func noteCode(_ sighting: CodeSighting) async throws {
        try await write { db in try sighting.insert(db) }
    }

    func codes(page: PageRequest) async throws -> [CodeSighting] {
        try await pool.read { db in try CodeSighting.order(Column("firstSeen").desc).limit(page.limit, offset: page.offset).fetchAll(db) }
    }

    func noteFaceAppeared(session: String, faceID: Int, at time: Date) async throws {
        try await write { db in try FaceTrackEntry(session: session, faceID: faceID, appearedAt: time).insert(db) }
    }

    func noteFaceLost(session: String, faceID: Int, at time: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE face_track SET lostAt = ? WHERE session = ? AND faceID = ? AND lostAt IS NULL",
                arguments: [time, session, faceID])
        }
    }

    func faceTracks(session: String) async throws -> [FaceTrackEntry] {
        try await pool.read { db in try FaceTrackEntry.filter(Column("session") == session).order(Column("appearedAt")).fetchAll(db) }
    }

    func faceTracks(page: PageRequest) async throws -> [FaceTrackEntry] {
        try await pool.read { db in
            try FaceTrackEntry.order(Column("appearedAt").desc).limit(page.limit, offset: page.offset).fetchAll(db)
        }
    }

    func notePhoto(_ photo: PhotoEntry) async throws {
        try await write { db in try photo.insert(db) }
    }

    func photos(page: PageRequest) async throws -> [PhotoEntry] {
        try await pool.read { db in try PhotoEntry.order(Column("analysedAt").desc).limit(page.limit, offset: page.offset).fetchAll(db) }
    }
}
