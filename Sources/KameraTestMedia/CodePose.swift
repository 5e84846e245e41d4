import Foundation
import KameraCore
import KameraVision

/// Where and how a code is drawn into a scene.
public struct CodePose: Sendable, Hashable {
    /// Centre of the code in scene pixels.
    public var center: PixelPoint
    /// Width of the code including its quiet zone, in scene pixels.
    public var width: Double
    /// Clockwise rotation in degrees.
    public var rotation: Double
    /// Perspective: the far edge is shortened by this fraction (0 … 0.5).
    public var tilt: Double
    /// Perspective along the code's length: its right end is shortened by this fraction
    /// (0 … 0.5), as when the camera looks at the code from its left.
    public var yaw: Double
    public var mirrored: Bool
    public var inverted: Bool

    public init(
        center: PixelPoint, width: Double, rotation: Double = 0, tilt: Double = 0, yaw: Double = 0, mirrored: Bool = false,
        inverted: Bool = false
    ) {
        self.center = center
        self.width = width
        self.rotation = rotation
        self.tilt = tilt
        self.yaw = yaw
        self.mirrored = mirrored
        self.inverted = inverted
    }
}
