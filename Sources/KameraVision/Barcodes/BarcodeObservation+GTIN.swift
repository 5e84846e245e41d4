import Foundation

extension BarcodeObservation {
    /// The observation with GTIN-family payloads (UPC, ITF-14) in the form printed under the bars: zxing-cpp 3
    /// reports UPC-A and UPC-E expanded to 13-digit GTINs, and UPC-A as EAN-13 whenever
    /// EAN-13 is also searched for. A UPC-A is an EAN-13 starting with 0, so when the
    /// caller asked for UPC-A such codes are reported as UPC-A with 12 digits, and UPC-E
    /// with its 8 digits.
    func normalizingGTIN(requested: [BarcodeSymbology]) -> BarcodeObservation {
        if symbology == .itf, requested.contains(.itf14), let text = payloadString, text.count == 14,
            text.allSatisfy({ $0.isASCII && $0.isNumber }), Self.hasValidGS1CheckDigit(text)
        {
            // zxing-cpp reports ITF-14 as plain ITF; a 14-digit ITF with a GS1 check digit is an ITF-14.
            var copy = self
            copy.symbology = .itf14
            return copy
        }
        guard let text = payloadString, text.count == 13, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else {
            return self
        }
        var copy = self
        switch symbology {
        case .ean13 where text.hasPrefix("0") && requested.contains(.upca), .upca:
            copy.symbology = .upca
            copy.setPayload(String(text.dropFirst()))
        case .upce:
            if let short = Self.compressUPCA(String(text.dropFirst())) { copy.setPayload(short) }
        default:
            break
        }
        return copy
    }

    static func hasValidGS1CheckDigit(_ digits: String) -> Bool {
        let values = digits.compactMap(\.wholeNumberValue)
        guard values.count == digits.count, let check = values.last else { return false }
        var sum = 0
        for (i, v) in values.dropLast().reversed().enumerated() { sum += v * (i % 2 == 0 ? 3 : 1) }
        return (10 - sum % 10) % 10 == check
    }

    private mutating func setPayload(_ text: String) {
        payloadString = text
        payloadData = Data(text.utf8)
    }

    /// The 8-digit UPC-E form of a 12-digit UPC-A number, if it has one (zero suppression).
    static func compressUPCA(_ upca: String) -> String? {
        let d = upca.map { String($0) }
        guard d.count == 12, d[0] == "0" || d[0] == "1" else { return nil }
        let manufacturer = d[1...5].joined(), product = d[6...10].joined()
        let body: String
        if ["000", "100", "200"].contains(d[3...5].joined()), product.hasPrefix("00") {
            body = d[1] + d[2] + d[8] + d[9] + d[10] + d[3]
        } else if manufacturer.hasSuffix("00"), product.hasPrefix("000") {
            body = d[1] + d[2] + d[3] + d[9] + d[10] + "3"
        } else if manufacturer.hasSuffix("0"), product.hasPrefix("0000") {
            body = d[1] + d[2] + d[3] + d[4] + d[10] + "4"
        } else if product.hasPrefix("0000"), let last = Int(d[10]), last >= 5 {
            body = manufacturer + d[10]
        } else {
            return nil
        }
        return d[0] + body + d[11]
    }
}
