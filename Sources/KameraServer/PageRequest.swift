import Foundation
import Kamera
import KameraReports

/// A page of a stored list: `?limit=100&offset=200`, newest first.
struct PageRequest: Decodable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case limit, offset }

    static let maximumLimit = 100_000

    /// Rows in the page, 1…100000 (default 1000).
    var limit = 1000
    /// Rows skipped before the page.
    var offset = 0

    init(limit: Int = 1000, offset: Int = 0) {
        (self.limit, self.offset) = (limit, offset)
    }

    init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let values = try decoder.container(keyedBy: CodingKeys.self)
        limit = try values.decodeIfPresent(Int.self, forKey: .limit) ?? limit
        offset = try values.decodeIfPresent(Int.self, forKey: .offset) ?? offset
        guard (1...Self.maximumLimit).contains(limit) else {
            throw KameraError.invalidArgument("limit must be 1…\(Self.maximumLimit)")
        }
        guard (0...1_000_000_000).contains(offset) else { throw KameraError.invalidArgument("offset must be 0…1000000000") }
    }

    /// The query of the page after this one, when this one was full.
    func next(after count: Int, path: String) -> String? {
        count < limit ? nil : "\(path)?limit=\(limit)&offset=\(offset + limit)"
    }
}
