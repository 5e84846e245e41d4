import Foundation
import Testing

/// What a test costs beyond the build, and so when `scripts/test.sh` runs it: the unit tier
/// first (seconds, nothing downloaded), then the rest. Each suite names its tier with
/// `.tier(_:)`; `KAMERA_TEST_TIERS` (a comma list of raw values) selects tiers, all when unset.
///
/// A condition, not a tag: `swift test --filter tag:…` does not reach Swift Testing in this
/// toolchain (6.3), and a condition lets one `swift test` run any mix of tiers.
public enum CostTier: String, CaseIterable, Sendable {
    /// Pure computation on generated or Debian-packaged data: no models, no downloads.
    case unit
    /// Needs the face or text models (downloaded from PyPI, sha256-checked) or LiteRT.
    case models
    /// Decodes, encodes or plays video and sample media at length.
    case media
    /// Runs the `kamera` executable or a server end to end.
    case endToEnd

    /// The tiers this run selects.
    public static let selected: Set<CostTier> = {
        guard let list = ProcessInfo.processInfo.environment["KAMERA_TEST_TIERS"], !list.isEmpty else {
            return Set(allCases)
        }
        return Set(list.split(separator: ",").compactMap { CostTier(rawValue: $0.trimmingCharacters(in: .whitespaces)) })
    }()
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite or test only when `KAMERA_TEST_TIERS` selects `tier`.
    public static func tier(_ tier: CostTier) -> Self {
        .enabled(if: CostTier.selected.contains(tier), "KAMERA_TEST_TIERS does not select the \(tier.rawValue) tier")
    }
}
