// Straightforward reference implementations (loops straight from TFLite's definitions) that
// the kernels are checked against.
@testable import KameraNN

/// A dense NHWC image with batch 1.
struct Tensor3 {
    var h: Int, w: Int, c: Int
    var values: [Float]

    subscript(y: Int, x: Int, k: Int) -> Float { values[(y * w + x) * c + k] }

    static func random(_ h: Int, _ w: Int, _ c: Int, seed: inout UInt64) -> Tensor3 {
        Tensor3(h: h, w: w, c: c, values: randomValues(h * w * c, seed: &seed))
    }
}

func randomValues(_ count: Int, seed: inout UInt64) -> [Float] {
    (0..<count).map { _ in
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Float(Int64(bitPattern: seed >> 11) % 2001 - 1000) / 1000
    }
}

func samePadding(_ size: Int, kernel: Int, stride: Int, dilation: Int) -> (out: Int, before: Int) {
    let out = (size + stride - 1) / stride
    let total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return (out, total / 2)
}

func referenceActivation(_ x: Float, _ activation: FusedActivation) -> Float {
    switch activation {
    case .none: x
    case .relu: max(x, 0)
    case .relu6: min(max(x, 0), 6)
    case .reluMinus1To1: min(max(x, -1), 1)
    case .hardSwish: x * min(max(x + 3, 0), 6) / 6
    case .prelu: preconditionFailure("PReLU is per channel: the reference applies it itself")
    case .scaled(let inner, let scale, let shift): referenceActivation(x, inner) * scale + shift
    }
}

/// CONV_2D with filter [oc][kh][kw][ic] (OHWI) and SAME or VALID padding.
func referenceConv(
    _ input: Tensor3, filter: [Float], bias: [Float], oc: Int, kh: Int, kw: Int,
    stride: Int, dilation: Int = 1, same: Bool, activation: FusedActivation
) -> Tensor3 {
    let (oh, padTop) =
        same
        ? samePadding(input.h, kernel: kh, stride: stride, dilation: dilation)
        : ((input.h - (kh - 1) * dilation - 1) / stride + 1, 0)
    let (ow, padLeft) =
        same
        ? samePadding(input.w, kernel: kw, stride: stride, dilation: dilation)
        : ((input.w - (kw - 1) * dilation - 1) / stride + 1, 0)
    var out = [Float](repeating: 0, count: oh * ow * oc)
    for oy in 0..<oh {
        for ox in 0..<ow {
            for o in 0..<oc {
                var sum = bias[o]
                for ky in 0..<kh {
                    for kx in 0..<kw {
                        let iy = oy * stride - padTop + ky * dilation, ix = ox * stride - padLeft + kx * dilation
                        guard iy >= 0, iy < input.h, ix >= 0, ix < input.w else { continue }
                        for i in 0..<input.c { sum += input[iy, ix, i] * filter[((o * kh + ky) * kw + kx) * input.c + i] }
                    }
                }
                out[(oy * ow + ox) * oc + o] = referenceActivation(sum, activation)
            }
        }
    }
    return Tensor3(h: oh, w: ow, c: oc, values: out)
}

/// DEPTHWISE_CONV_2D (multiplier 1) with filter [1][kh][kw][c].
func referenceDepthwise(
    _ input: Tensor3, filter: [Float], bias: [Float], kh: Int, kw: Int, stride: Int,
    same: Bool, activation: FusedActivation
) -> Tensor3 {
    let (oh, padTop) = same ? samePadding(input.h, kernel: kh, stride: stride, dilation: 1) : ((input.h - kh) / stride + 1, 0)
    let (ow, padLeft) = same ? samePadding(input.w, kernel: kw, stride: stride, dilation: 1) : ((input.w - kw) / stride + 1, 0)
    var out = [Float](repeating: 0, count: oh * ow * input.c)
    for oy in 0..<oh {
        for ox in 0..<ow {
            for k in 0..<input.c {
                var sum = bias[k]
                for ky in 0..<kh {
                    for kx in 0..<kw {
                        let iy = oy * stride - padTop + ky, ix = ox * stride - padLeft + kx
                        guard iy >= 0, iy < input.h, ix >= 0, ix < input.w else { continue }
                        sum += input[iy, ix, k] * filter[(ky * kw + kx) * input.c + k]
                    }
                }
                out[(oy * ow + ox) * input.c + k] = referenceActivation(sum, activation)
            }
        }
    }
    return Tensor3(h: oh, w: ow, c: input.c, values: out)
}

func referenceMaxPool(_ input: Tensor3, size: Int, stride: Int, same: Bool) -> Tensor3 {
    let (oh, padTop) = same ? samePadding(input.h, kernel: size, stride: stride, dilation: 1) : ((input.h - size) / stride + 1, 0)
    let (ow, padLeft) = same ? samePadding(input.w, kernel: size, stride: stride, dilation: 1) : ((input.w - size) / stride + 1, 0)
    var out = [Float](repeating: 0, count: oh * ow * input.c)
    for oy in 0..<oh {
        for ox in 0..<ow {
            for k in 0..<input.c {
                var m = -Float.infinity
                for ky in 0..<size {
                    for kx in 0..<size {
                        let iy = oy * stride - padTop + ky, ix = ox * stride - padLeft + kx
                        if iy >= 0, iy < input.h, ix >= 0, ix < input.w { m = max(m, input[iy, ix, k]) }
                    }
                }
                out[(oy * ow + ox) * input.c + k] = m
            }
        }
    }
    return Tensor3(h: oh, w: ow, c: input.c, values: out)
}

/// RESIZE_BILINEAR following TFLite's reference (ComputeInterpolationValues).
func referenceResize(_ input: Tensor3, oh: Int, ow: Int, alignCorners: Bool, halfPixel: Bool) -> Tensor3 {
    func scale(_ i: Int, _ o: Int) -> Float { alignCorners && o > 1 ? Float(i - 1) / Float(o - 1) : Float(i) / Float(o) }
    let sy = scale(input.h, oh), sx = scale(input.w, ow)
    var out = [Float](repeating: 0, count: oh * ow * input.c)
    for y in 0..<oh {
        for x in 0..<ow {
            let iy = halfPixel ? (Float(y) + 0.5) * sy - 0.5 : Float(y) * sy
            let ix = halfPixel ? (Float(x) + 0.5) * sx - 0.5 : Float(x) * sx
            let y0 = max(Int(iy.rounded(.down)), 0), y1 = min(Int(iy.rounded(.up)), input.h - 1)
            let x0 = max(Int(ix.rounded(.down)), 0), x1 = min(Int(ix.rounded(.up)), input.w - 1)
            for k in 0..<input.c {
                let v =
                    input[y0, x0, k] * (1 - (iy - Float(y0))) * (1 - (ix - Float(x0)))
                    + input[y1, x0, k] * (iy - Float(y0)) * (1 - (ix - Float(x0)))
                    + input[y0, x1, k] * (1 - (iy - Float(y0))) * (ix - Float(x0))
                    + input[y1, x1, k] * (iy - Float(y0)) * (ix - Float(x0))
                out[(y * ow + x) * input.c + k] = v
            }
        }
    }
    return Tensor3(h: oh, w: ow, c: input.c, values: out)
}
