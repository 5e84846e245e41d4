import Foundation
import KameraCore

/// What to encode an image as.
public enum ImageEncoding: Sendable, Equatable {
    case png
    /// JPEG with quality 1…100.
    case jpeg(quality: Int)
    /// Lossy WebP with quality 0…100.
    case webp(quality: Int)
    case webpLossless

    /// The encoding a file name's extension implies (JPEG quality 92, WebP 90).
    public init?(pathExtension: String) {
        switch ImageFileFormat(pathExtension: pathExtension) {
        case .png: self = .png
        case .jpeg: self = .jpeg(quality: 92)
        case .webp: self = .webp(quality: 90)
        case nil: return nil
        }
    }
}
