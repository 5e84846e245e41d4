import Foundation
import KameraReports
import KameraTestTiers
import Testing

@testable import KameraCLI
@testable import KameraVision

/// The CLI's JSON: records encode in declaration order, nulls where the shape says so,
/// flattened identity fields first, and control characters escaped.
@Suite(.tier(.unit)) struct JSONRecordTests {
    struct Inner: Encodable {
        var b = 2
        var a = "x"
    }

    struct Outer: Encodable {
        var zeta = 1.5
        var alpha: Inner? = Inner()
        var omitted: Int?
        @Nullable var shown: String?
        var list = [1, 2]
    }

    struct Identity: Encodable {
        var id = 7
    }

    struct Integers: Encodable {
        var small: UInt8 = 200
        var frame: UInt32 = 4_000_000_000
        var negative: Int16 = -3
        var huge: UInt64 = .max
    }

    @Test func everyIntegerType() throws {
        // Integer types other than Int once encoded themselves through the same container
        // forever (a stack overflow on the live socket's UInt32 frame numbers).
        #expect(
            try JSONValueEncoder.encode(Integers()).compact()
                == #"{"small":200,"frame":4000000000,"negative":-3,"huge":1.8446744073709552e+19}"#)
    }

    @Test func declarationOrderNullsAndFlattening() throws {
        #expect(try JSONValueEncoder.encode(Outer()).compact() == #"{"zeta":1.5,"alpha":{"b":2,"a":"x"},"shown":null,"list":[1,2]}"#)
        #expect(try JSONValueEncoder.encode(FlattenedRecord(head: Identity(), body: Inner())).compact() == #"{"id":7,"b":2,"a":"x"}"#)
        #expect(
            try JSONValueEncoder.encode(Outer()).rendered() == """
                {
                  "zeta": 1.5,
                  "alpha": {
                    "b": 2,
                    "a": "x"
                  },
                  "shown": null,
                  "list": [1, 2]
                }
                """)
    }

    @Test func controlCharactersAndRounding() throws {
        #expect(try JSONValueEncoder.encode(["payload": "]d2\u{1D}01\u{04}\""]).compact() == #"{"payload":"]d2\u001d01\u0004\""}"#)
        #expect(RecordRounding.normalized(0.123456) == 0.1235 && RecordRounding.pixels(12.345) == 12.3)
        #expect(RecordRounding.score(0.30000000000000004) == 0.3 && RecordRounding.degrees(.radians(.pi / 2)) == 90)
        #expect(try JSONValueEncoder.encode([0.1 + 0.2]).compact() == "[0.30000000000000004]", "only records round")
    }
}
