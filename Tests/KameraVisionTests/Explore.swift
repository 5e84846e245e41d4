import Testing
import Foundation
@testable import KameraVision
import Kamera
import KameraImageIO

@Test func explore() async throws {
    let m = try BarcodeGenerator(symbology: .itf14, moduleSize: 2).generate(text: "00012345678905")
    try ImageEncoder.write(m, to: URL(fileURLWithPath: "/tmp/ex_itf14.png"))
    let r = try BarcodeReaderPass(formats: "").read(m)
    print("EMPTY", r.map(\.payloadString))
}
