#if canImport(Glibc)
    import Glibc
#endif

/// Keeps a long-running server's memory flat under glibc: at most two malloc arenas (every
/// request thread otherwise gets an arena of its own, and large freed image buffers stay in
/// each, so RSS creeps up over hours), and freed heap pages returned to the system every few
/// seconds. glibc's `mallopt` and `malloc_trim` are looked up at run time (`malloc.h` is not
/// in Swift's Glibc module); with another C library nothing happens.
enum HeapTrimming {
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    private typealias MallocTrim = @convention(c) (Int) -> Int32
    /// glibc's `M_ARENA_MAX`.
    private static let arenaMaximum: Int32 = -8

    /// Limits the arenas; call before the server starts its threads.
    static func configure() {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "mallopt") else { return }
            _ = unsafeBitCast(symbol, to: Mallopt.self)(arenaMaximum, 2)
        #endif
    }

    /// Returns freed heap pages to the system every `interval` until the task is cancelled.
    static func run(every interval: Duration = .seconds(10)) async {
        #if canImport(Glibc)
            guard let symbol = dlsym(nil, "malloc_trim") else { return }
            let trim = unsafeBitCast(symbol, to: MallocTrim.self)
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                _ = trim(0)
            }
        #endif
    }
}
