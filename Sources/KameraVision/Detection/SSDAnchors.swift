/// Anchor centres of MediaPipe's SSD detectors (faces, people, palms) (SsdAnchorsCalculator with
/// fixed_anchor_size: every anchor is 1×1, so only centres matter), in input pixels.
enum SSDAnchors {
    /// Short range (128²): strides 8, 16, 16, 16 with 2 anchors per cell per layer → 896.
    /// Full range (192²): one layer of stride 4 with 1 anchor per cell → 2304; a resized
    /// full-range model (`BlazeFaceDetector.scan`) has the same grid over its larger input.
    static func centers(width: Int, height: Int, strides: [Int], anchorsPerLayer: Int) -> [(x: Float, y: Float)] {
        var anchors: [(x: Float, y: Float)] = []
        var layer = 0
        while layer < strides.count {
            // Consecutive layers with the same stride share one grid (their anchors interleave).
            var repeats = 0
            var last = layer
            while last < strides.count, strides[last] == strides[layer] {
                repeats += anchorsPerLayer
                last += 1
            }
            let columns = (width + strides[layer] - 1) / strides[layer]
            let rows = (height + strides[layer] - 1) / strides[layer]
            anchors.reserveCapacity(anchors.count + columns * rows * repeats)
            for y in 0..<rows {
                for x in 0..<columns {
                    let center = (
                        x: (Float(x) + 0.5) / Float(columns) * Float(width), y: (Float(y) + 0.5) / Float(rows) * Float(height)
                    )
                    for _ in 0..<repeats { anchors.append(center) }
                }
            }
            layer = last
        }
        return anchors
    }
}
