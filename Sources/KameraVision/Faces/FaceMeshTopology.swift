/// Which Face Mesh points (MediaPipe's 468-point canonical topology) make up each of
/// Vision's landmark regions, as ordered polylines. Eye, eyebrow, lip and oval rings follow
/// MediaPipe's published contour connections; left/right are the subject's.
enum FaceMeshTopology {
    /// The mesh points of each Vision region drawn from the mesh (pupils come from the irises).
    static let regions: [FaceLandmarks.RegionName: [Int]] = [
        .faceContour: faceContour, .leftEye: leftEye, .rightEye: rightEye, .leftEyebrow: leftEyebrow,
        .rightEyebrow: rightEyebrow, .nose: nose, .noseCrest: noseCrest, .medianLine: medianLine,
        .outerLips: outerLips, .innerLips: innerLips,
    ]

    /// Jaw line from the right ear over the chin to the left ear (the lower half of the oval).
    static let faceContour = [
        127, 234, 93, 132, 58, 172, 136, 150, 149, 176, 148, 152,
        377, 400, 378, 379, 365, 397, 288, 361, 323, 454, 356,
    ]
    static let leftEye = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466]
    static let rightEye = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246]
    static let leftEyebrow = [276, 283, 282, 295, 285, 336, 296, 334, 293, 300]
    static let rightEyebrow = [46, 53, 52, 65, 55, 107, 66, 105, 63, 70]
    /// Outline of the nose: alar base and tip.
    static let nose = [98, 97, 2, 326, 327, 294, 278, 344, 440, 275, 4, 45, 220, 115, 48, 64, 98]
    /// The bridge from between the eyes to the tip.
    static let noseCrest = [168, 6, 197, 195, 5, 4]
    /// The face's vertical midline, forehead to chin.
    static let medianLine = [
        10, 151, 9, 8, 168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 164, 0, 11, 12, 13, 14,
        15, 16, 17, 18, 200, 199, 175, 152,
    ]
    static let outerLips = [61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 409, 270, 269, 267, 0, 37, 39, 40, 185]
    static let innerLips = [78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 415, 310, 311, 312, 13, 82, 81, 80, 191]

    /// The mesh points the attention model's region networks refine, in the order of their
    /// outputs (MediaPipe's `tensors_to_face_landmarks_with_attention` mapping, and the
    /// `subset_idxs` the model frames each region by): lips (80: outer, inner and the rings
    /// between), then each eye with its halo and eyebrow (71). The right eye's network is the
    /// one MediaPipe calls "left eye" (its points start at 33, the subject's right).
    static let refinedLips = [
        61, 146, 91, 181, 84, 17, 314, 405, 321, 375, 291, 185, 40, 39, 37, 0, 267, 269, 270, 409,
        78, 95, 88, 178, 87, 14, 317, 402, 318, 324, 308, 191, 80, 81, 82, 13, 312, 311, 310, 415,
        76, 77, 90, 180, 85, 16, 315, 404, 320, 307, 306, 184, 74, 73, 72, 11, 302, 303, 304, 408,
        62, 96, 89, 179, 86, 15, 316, 403, 319, 325, 292, 183, 42, 41, 38, 12, 268, 271, 272, 407,
    ]
    static let refinedRightEye = [
        33, 7, 163, 144, 145, 153, 154, 155, 133, 246, 161, 160, 159, 158, 157, 173,
        130, 25, 110, 24, 23, 22, 26, 112, 243, 247, 30, 29, 27, 28, 56, 190,
        226, 31, 228, 229, 230, 231, 232, 233, 244, 113, 225, 224, 223, 222, 221, 189,
        35, 124, 46, 53, 52, 65, 143, 111, 117, 118, 119, 120, 121, 128, 245, 156, 70, 63, 105, 66, 107, 55, 193,
    ]
    static let refinedLeftEye = [
        263, 249, 390, 373, 374, 380, 381, 382, 362, 466, 388, 387, 386, 385, 384, 398,
        359, 255, 339, 254, 253, 252, 256, 341, 463, 467, 260, 259, 257, 258, 286, 414,
        446, 261, 448, 449, 450, 451, 452, 453, 464, 342, 445, 444, 443, 442, 441, 413,
        265, 353, 276, 283, 282, 295, 372, 340, 346, 347, 348, 349, 350, 357, 465, 383, 300, 293, 334, 296, 336, 285, 417,
    ]

    /// Eye corners (outer, inner): each eye's line and crop.
    static let rightEyeCorners = (33, 133)
    static let leftEyeCorners = (263, 362)

    /// Symmetric pairs (subject's left, right) used to find the face's horizontal axis.
    static let symmetricPairs = [(263, 33), (362, 133), (454, 234), (291, 61), (334, 105), (356, 127), (397, 172)]
    /// Vertical pairs (upper, lower) along the midline for the face's up axis.
    static let verticalPairs = [(10, 152), (151, 175), (168, 0), (9, 200)]
}
