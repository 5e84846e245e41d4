import KameraTestTiers
import Testing

@testable import KameraReports

/// The table's pixel cells: what `Int(_:)` printed, without its trap on values a report can
/// hold after a bad model output (NaN, infinities) or a huge coordinate.
@Suite(.tier(.unit)) struct TableCellTests {
    @Test func pixelCellsRoundTowardZeroAndNeverTrap() {
        #expect(DetectionReport.pixels(12.7) == "12")
        #expect(DetectionReport.pixels(-3.9) == "-3")
        #expect(DetectionReport.pixels(-0.4) == "0")
        #expect(DetectionReport.pixels(1e300).count > 300)
        #expect(DetectionReport.pixels(.nan) == "?")
        #expect(DetectionReport.pixels(.infinity) == "?")
        #expect(DetectionReport.pixels(-.infinity) == "?")
    }
}
