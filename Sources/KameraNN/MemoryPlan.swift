/// Places every activation tensor in one arena so that tensors alive at the same time never
/// overlap and dead tensors' space is reused (greedy by size, as TFLite's arena planner does).
struct MemoryPlan {
    /// Arena offset (in floats) per tensor index; nil for tensors not in the arena.
    private(set) var offsets: [Int: Int] = [:]
    private(set) var arenaSize = 0

    /// One tensor to place: its size in floats and the steps during which it is alive.
    struct Request {
        var tensor: Int
        var size: Int
        var firstStep: Int
        var lastStep: Int
    }

    /// Kernels read whole 16-lane channel blocks, so every tensor gets slack behind it.
    static let slack = 16

    init(_ requests: [Request]) {
        var placed: [(offset: Int, end: Int, first: Int, last: Int)] = []
        for request in requests.sorted(by: { ($0.size, $1.tensor) > ($1.size, $0.tensor) }) {
            let size = (request.size + Self.slack + 15) / 16 * 16
            let conflicts =
                placed
                .filter { $0.first <= request.lastStep && request.firstStep <= $0.last }
                .sorted { $0.offset < $1.offset }
            // Lowest offset where the block fits: step past every conflicting block it would
            // overlap until none does.
            var offset = 0
            var moved = true
            while moved {
                moved = false
                for other in conflicts where other.offset < offset + size && offset < other.end {
                    offset = other.end
                    moved = true
                }
            }
            placed.append((offset, offset + size, request.firstStep, request.lastStep))
            offsets[request.tensor] = offset
            arenaSize = max(arenaSize, offset + size)
        }
    }
}
