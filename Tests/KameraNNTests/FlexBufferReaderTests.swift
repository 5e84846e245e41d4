import KameraTestTiers
import Testing

@testable import KameraNN

@Suite("FlexBuffers, as custom operators' options store them", .tier(.unit))
struct FlexBufferReaderTests {
    /// `flexbuffers.Dumps({'left_rotation_idx': 61, 'scale_x': 1.5, 'subset_idxs': [61, 146,
    /// 300, 7], 'big': 70000, 'neg': -3})` from the `flatbuffers` Python package: keys sorted,
    /// integers of three widths, a float, a typed vector of 16-bit integers.
    static let options: [UInt8] = [
        108, 101, 102, 116, 95, 114, 111, 116, 97, 116, 105, 111, 110, 95, 105, 100, 120, 0, 115, 99, 97, 108, 101, 95,
        120, 0, 115, 117, 98, 115, 101, 116, 95, 105, 100, 120, 115, 0, 4, 0, 61, 0, 146, 0, 44, 1, 7, 0, 5, 5, 5, 5, 98,
        105, 103, 0, 110, 101, 103, 0, 5, 9, 62, 7, 46, 39, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 5, 0, 0, 0, 112, 17, 1, 0, 61, 0,
        0, 0, 253, 255, 255, 255, 0, 0, 192, 63, 56, 0, 0, 0, 6, 6, 6, 14, 41, 25, 38, 1,
    ]

    @Test("A map of integers, a float and an index list reads back as written")
    func readsMap() throws {
        let map = try FlexBufferReader(bytes: Self.options).root().map()
        #expect(Set(map.keys) == ["left_rotation_idx", "scale_x", "subset_idxs", "big", "neg"])
        #expect(try map["left_rotation_idx"]?.integer() == 61)
        #expect(try map["big"]?.integer() == 70000)
        #expect(try map["neg"]?.integer() == -3)
        #expect(try map["scale_x"]?.number() == 1.5)
        #expect(try map["subset_idxs"]?.integers() == [61, 146, 300, 7])
        #expect(throws: FlexBufferReader.Failure.self) { try map["scale_x"]?.integer() }
        #expect(throws: FlexBufferReader.Failure.self) { try map["subset_idxs"]?.map() }
    }

    @Test("Truncated and corrupted options are errors, never a crash")
    func hostileBytes() {
        for cut in 0..<Self.options.count {
            _ = try? FlexBufferReader(bytes: Array(Self.options.prefix(cut))).root().map()
        }
        var seed: UInt64 = 7
        var failures = 0
        for _ in 0..<2000 {
            var bytes = Self.options
            for _ in 0..<3 {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                bytes[Int(seed >> 33) % bytes.count] = UInt8(truncatingIfNeeded: seed >> 17)
            }
            do {
                for value in try FlexBufferReader(bytes: bytes).root().map().values {
                    _ = try? value.integers()
                    _ = try? value.number()
                }
            } catch {
                failures += 1
            }
        }
        #expect(failures > 0)
    }
}
