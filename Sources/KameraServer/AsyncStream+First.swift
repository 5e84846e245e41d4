extension AsyncStream where Element: Sendable {
    /// The stream's first element, or nil when none comes within `limit` (or it ends first).
    func first(within limit: Duration) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                for await value in self { return value }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
