import KameraCore

/// Every contour found in an image as a tree, like Vision's `ContoursObservation`.
public struct ContoursObservation: Sendable, Hashable {
    /// Contours not inside any other, each with its children.
    public let topLevelContours: [Contour]
    /// All contours, depth first (parent before its children).
    public let contours: [Contour]
    /// The size of the (scaled-down) image the contours were traced in.
    public let analysedSize: Size

    /// The number of contours, at every level.
    public var contourCount: Int { contours.count }
    /// The number of top-level contours.
    public var topLevelContourCount: Int { topLevelContours.count }

    /// The contour at `index` (depth first), as Vision's `contour(at:)`.
    public func contour(at index: Int) -> Contour? { contours.indices.contains(index) ? contours[index] : nil }

    /// The contour at `indexPath` (top-level index, then child indices), as Vision's.
    public func contour(at indexPath: [Int]) -> Contour? {
        guard let first = indexPath.first, topLevelContours.indices.contains(first) else { return nil }
        var contour = topLevelContours[first]
        for index in indexPath.dropFirst() {
            guard contour.childContours.indices.contains(index) else { return nil }
            contour = contour.childContours[index]
        }
        return contour
    }

    /// Builds the tree from flat lists: each contour's points and its parent's index (-1 for none).
    init(points: [[NormalizedPoint]], parents: [Int], analysedSize: Size) {
        var children = [[Int]](repeating: [], count: points.count)
        var roots: [Int] = []
        for (i, parent) in parents.enumerated() {
            if parent >= 0, parent < points.count { children[parent].append(i) } else { roots.append(i) }
        }
        func build(_ index: Int, path: [Int]) -> Contour {
            let kids = children[index].enumerated().map { build($0.element, path: path + [$0.offset]) }
            return Contour(normalizedPoints: points[index], childContours: kids, indexPath: path, imageSize: analysedSize)
        }
        topLevelContours = roots.enumerated().map { build($0.element, path: [$0.offset]) }
        var flat: [Contour] = []
        func visit(_ contour: Contour) {
            flat.append(contour)
            contour.childContours.forEach(visit)
        }
        topLevelContours.forEach(visit)
        contours = flat
        self.analysedSize = analysedSize
    }
}

/// One closed outline, like Vision's `Contour`.
public struct Contour: Sendable, Hashable {
    /// The outline's points, normalized with a lower-left origin.
    public let normalizedPoints: [NormalizedPoint]
    /// Contours directly inside this one (holes, then shapes in the holes).
    public let childContours: [Contour]
    /// Where the contour sits in the tree: top-level index, then child indices.
    public let indexPath: [Int]
    /// The analysed image's size (to turn points into pixels).
    let imageSize: Size

    public var pointCount: Int { normalizedPoints.count }
    public var childContourCount: Int { childContours.count }

    /// Width over height of the outline's bounds, in pixels, as Vision's `aspectRatio`.
    public var aspectRatio: Double {
        let xs = normalizedPoints.map(\.x), ys = normalizedPoints.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(), maxY > minY else { return 0 }
        return (maxX - minX) * imageSize.width / ((maxY - minY) * imageSize.height)
    }

    /// The outline simplified (Ramer–Douglas–Peucker) so no point of it is farther than
    /// `epsilon` (normalized units) from the result, as Vision's `polygonApproximation(epsilon:)`.
    public func polygonApproximation(epsilon: Float) throws -> Contour {
        guard epsilon >= 0 else { throw KameraError.invalidArgument("epsilon \(epsilon) must not be negative") }
        guard normalizedPoints.count > 3 else { return self }
        let tolerance = Double(epsilon)
        var keep = [Bool](repeating: false, count: normalizedPoints.count)
        // A closed outline: split at the point farthest from the first, simplify both halves.
        let far =
            normalizedPoints.indices.max {
                distance(normalizedPoints[0], normalizedPoints[$0]) < distance(normalizedPoints[0], normalizedPoints[$1])
            } ?? 0
        keep[0] = true
        keep[far] = true
        var stack = [(0, far), (far, normalizedPoints.count)]
        while let (start, end) = stack.popLast() {
            guard end - start > 1 else { continue }
            let a = normalizedPoints[start], b = normalizedPoints[end % normalizedPoints.count]
            var worst = -1.0, worstIndex = start
            for i in (start + 1)..<end {
                let d = segmentDistance(normalizedPoints[i], a, b)
                if d > worst { (worst, worstIndex) = (d, i) }
            }
            if worst > tolerance {
                keep[worstIndex] = true
                stack.append((start, worstIndex))
                stack.append((worstIndex, end))
            }
        }
        let kept = normalizedPoints.indices.filter { keep[$0] }.map { normalizedPoints[$0] }
        return Contour(normalizedPoints: kept, childContours: [], indexPath: indexPath, imageSize: imageSize)
    }

    private func distance(_ p: NormalizedPoint, _ q: NormalizedPoint) -> Double {
        ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
    }

    private func segmentDistance(_ p: NormalizedPoint, _ a: NormalizedPoint, _ b: NormalizedPoint) -> Double {
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return distance(p, a) }
        let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
        return distance(p, NormalizedPoint(x: a.x + t * dx, y: a.y + t * dy))
    }
}
