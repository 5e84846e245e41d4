/// A width and height, in pixels unless stated otherwise.
public struct Size: Sendable, Hashable, Codable {
    public var width, height: Double

    public init(width: Double, height: Double) { (self.width, self.height) = (width, height) }

    public init(width: Int, height: Int) {
        self.init(width: Double(width), height: Double(height))
    }
}
