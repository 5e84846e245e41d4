import KameraCore
import KameraTestTiers
import Testing

@testable import KameraVision

/// The squares the people search looks at closer: where they lie and how many there are.
@Suite("People search: the closer looks' squares", .tier(.unit))
struct PersonSearchTests {
    @Test(
        "Squares of the shorter side, then of half of it, inside the image, overlapping by a quarter or more",
        arguments: [(1280, 960, 2, 12), (960, 1280, 2, 12), (548, 342, 2, 0), (1920, 1080, 3, 15), (512, 512, 0, 0), (200, 80, 0, 0)])
    func squares(width: Int, height: Int, shorterSide: Int, halfSide: Int) {
        let squares = PersonSearch.closerLooks(width: width, height: height)
        let shorter = Double(min(width, height))
        #expect(squares.filter { $0.width == shorter }.count == shorterSide)
        #expect(squares.filter { $0.width == shorter / 2 }.count == halfSide)
        #expect(squares.count == shorterSide + halfSide)
        for square in squares {
            #expect(square.width == square.height && square.angle == 0)
            #expect(square.center.x - square.width / 2 >= -1e-9 && square.center.x + square.width / 2 <= Double(width) + 1e-9)
            #expect(square.center.y - square.height / 2 >= -1e-9 && square.center.y + square.height / 2 <= Double(height) + 1e-9)
        }
        // Along a row, neighbours overlap by at least a quarter of a square.
        for side in Set(squares.map(\.width)) {
            let row = squares.filter { $0.width == side && $0.center.y == squares.first { $0.width == side }!.center.y }
            let xs = row.map(\.center.x).sorted()
            for (a, b) in zip(xs, xs.dropFirst()) { #expect(b - a <= 0.75 * side + 1e-9) }
        }
    }
}
