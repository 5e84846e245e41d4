#if canImport(Glibc)
    import Glibc
#endif

/// Free space on a volume, as an unprivileged process may use it (statvfs's `f_bavail`):
/// what recordings check before and while writing, and what the server's readiness reports.
public enum FreeDiskSpace {
    /// Bytes free on the volume holding `path` (a file or a folder that exists); nil when it
    /// cannot be read. Saturates instead of overflowing.
    public static func bytes(onVolumeOf path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        let (bytes, overflow) = Int64(clamping: info.f_bavail).multipliedReportingOverflow(by: Int64(clamping: info.f_frsize))
        return overflow ? .max : bytes
    }
}
