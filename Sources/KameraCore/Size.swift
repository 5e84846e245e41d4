/// A width and height, in pixels unless stated otherwise.
public struct Size: Sendable, Hashable, Codable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public init(width: Int, height: Int) {
        self.init(width: Double(width), height: Double(height))
    }
}
