/// Where y = 0 is, as in Vision's `CoordinateOrigin`: Vision's normalized results use the
/// lower-left corner; pixel buffers and most image tools use the upper-left.
public enum CoordinateOrigin: Sendable, Hashable {
    case lowerLeft
    case upperLeft
}
