import KameraReports

/// What one analysed live frame adds to the results library: faces that appeared or were
/// lost (by their live IDs) and codes seen for the first time.
struct LiveSightings: Sendable {
    var appearedFaces: [Int] = []
    var lostFaces: [Int] = []
    var newCodes: [BarcodeRecord] = []

    var isEmpty: Bool { appearedFaces.isEmpty && lostFaces.isEmpty && newCodes.isEmpty }
}
