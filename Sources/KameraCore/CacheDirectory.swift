import Foundation

/// Where Kamera keeps what its setup downloads and builds (models, sample photos, the
/// zxing-cpp build, benchmark data). One rule, shared with scripts/versions.sh:
/// `KAMERA_CACHE` if set, else `$XDG_CACHE_HOME/kamera`, else `~/.cache/kamera`.
public enum CacheDirectory {
    /// The cache root for `environment` (the process's by default).
    public static func root(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment["KAMERA_CACHE"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("kamera")
        }
        let home =
            environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/kamera")
    }
}
