import KameraTestTiers
import Testing

@testable import KameraNN

@Suite("Arena plan", .tier(.unit))
struct MemoryPlanTests {
    @Test("Tensors alive at the same time never overlap; dead ones share memory")
    func noOverlap() {
        var seed: UInt64 = 17
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % bound
        }
        for _ in 0..<50 {
            let requests = (0..<40).map { t -> MemoryPlan.Request in
                let first = next(60) - 1
                return MemoryPlan.Request(tensor: t, size: 1 + next(5000), firstStep: first, lastStep: first + next(8))
            }
            let plan = MemoryPlan(requests)
            for a in requests {
                let aStart = plan.offsets[a.tensor]!
                #expect(aStart % 16 == 0)
                #expect(aStart + a.size + MemoryPlan.slack <= plan.arenaSize)
                for b in requests where b.tensor < a.tensor && a.firstStep <= b.lastStep && b.firstStep <= a.lastStep {
                    let bStart = plan.offsets[b.tensor]!
                    let disjoint = aStart + a.size + MemoryPlan.slack <= bStart || bStart + b.size + MemoryPlan.slack <= aStart
                    #expect(disjoint, "tensors \(a.tensor) and \(b.tensor) overlap")
                }
            }
            // Reuse: the arena is smaller than all tensors side by side.
            #expect(plan.arenaSize < requests.reduce(0) { $0 + ($1.size + MemoryPlan.slack + 15) / 16 * 16 })
        }
    }
}
