extension Float {
    /// Widens an IEEE 754 binary16 bit pattern (models store weights as fp16; KameraNN
    /// computes in fp32). Written out so it does not depend on the platform's Float16.
    init(halfBits bits: UInt16) {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = Int(bits >> 10) & 0x1F
        let mantissa = UInt32(bits & 0x3FF)
        switch exponent {
        case 0:
            // Zero or subnormal: mantissa × 2^-24.
            let magnitude = Float(mantissa) * 0x1p-24
            self = sign == 0 ? magnitude : -magnitude
        case 0x1F:
            self = Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13)
        default:
            self = Float(bitPattern: sign | UInt32(exponent - 15 + 127) << 23 | mantissa << 13)
        }
    }
}
