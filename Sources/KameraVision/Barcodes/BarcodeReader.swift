import CZXing
import Foundation
import KameraCore

/// One pass of zxing-cpp over a grayscale image.
struct BarcodeReaderPass: Sendable {
    /// How zxing-cpp turns luminance into black and white (`ZXing::Binarizer`'s values).
    enum Binarizer: Int32, Sendable {
        /// A threshold per block from its neighbourhood: uneven light, the default.
        case localAverage = 0
        /// One threshold from the image's histogram: rescues matrix codes a local threshold breaks up.
        case globalHistogram = 1
        case fixedThreshold = 2
        case boolCast = 3
    }

    /// EAN-2/EAN-5 add-ons (`ZXing::EanAddOnSymbol`'s values).
    enum AddOns: Int32, Sendable {
        case ignore = 0
        /// Read when present: a book's or a magazine's code is incomplete without it.
        case read = 1
        case require = 2
    }

    var formats: String
    var tryHarder = true
    var tryRotate = true
    var tryInvert = true
    var tryDownscale = true
    var tryDenoise = false
    var binarizer = Binarizer.localAverage
    var maxSymbols: Int32 = 0
    var eanAddOn = AddOns.read

    /// Decodes `gray` (any format: zxing-cpp derives luminance itself, which saves a
    /// conversion pass) and returns observations in its pixel coordinates.
    func read(_ gray: PixelBuffer) throws -> [BarcodeObservation] {
        let pixelFormat: kzx_pixel_format =
            switch gray.format {
            case .gray8: KZX_GRAY
            case .rgb8: KZX_RGB
            case .rgba8: KZX_RGBA
            case .bgra8: KZX_BGRA
            }
        var errorText = [CChar](repeating: 0, count: 512)
        var list = kzx_barcode_list()
        let status = formats.withCString { formatNames -> Int32 in
            var options = kzx_read_options(
                formats: formatNames, try_harder: tryHarder ? 1 : 0, try_rotate: tryRotate ? 1 : 0,
                try_invert: tryInvert ? 1 : 0, try_downscale: tryDownscale ? 1 : 0, try_denoise: tryDenoise ? 1 : 0,
                is_pure: 0, binarizer: binarizer.rawValue, max_symbols: maxSymbols, ean_add_on: eanAddOn.rawValue)
            return gray.bytes.withUnsafeBufferPointer { pixels in
                kzx_read(
                    pixels.baseAddress, Int32(gray.width), Int32(gray.height), Int32(gray.bytesPerRow), pixelFormat,
                    &options, &list, &errorText, errorText.count)
            }
        }
        guard status == 0 else {
            throw KameraError.barcodeEngineFailure(
                reason: String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { kzx_barcode_list_free(&list) }
        var results: [BarcodeObservation] = []
        var lineCounts: [Int] = []
        for i in 0..<Int(list.count) {
            let item = list.items[i]
            let format = String(cString: item.format)
            guard
                let symbology = BarcodeSymbology(
                    symbologyKey: Character(Unicode.Scalar(UInt8(bitPattern: item.symbology_key))),
                    variantKey: Character(Unicode.Scalar(UInt8(bitPattern: item.variant_key))))
            else { continue }
            var data = Data(bytes: item.bytes, count: Int(item.byte_count))
            let read = String(cString: item.text)
            let split = Self.splittingAddOn(text: read, addOn: String(cString: item.ean_add_on))
            let text = split.number
            if text != read { data = Data(text.utf8) }
            let contentType = String(cString: item.content_type)
            let corners = withUnsafeBytes(of: item.corners) { Array($0.bindMemory(to: Int32.self)) }
            func point(_ k: Int) -> PixelPoint { PixelPoint(x: Double(corners[2 * k]), y: Double(corners[2 * k + 1])) }
            let ecLevel = String(cString: item.ec_level)
            var quad = Quad(topLeft: point(0), topRight: point(1), bottomRight: point(2), bottomLeft: point(3))
            // zxing-cpp builds a linear code's outline from the first and last scan lines that
            // read it; when it met the lower line first, top and bottom come out exchanged
            // (an upright EAN-13 reported with its top-left corner at the bottom). A linear
            // symbol has no mirrored form, so its outline always runs clockwise.
            if !symbology.isTwoDimensional, item.is_mirrored == 0, quad.signedArea < 0 { quad = quad.flippedVertically }
            results.append(
                BarcodeObservation(
                    symbology: symbology,
                    // Binary payloads have no faithful text form; HRI text of those is escaped bytes.
                    payloadString: contentType == "Binary" ? String(data: data, encoding: .utf8) : text,
                    payloadData: data,
                    pixelCorners: quad,
                    imageSize: gray.size,
                    orientation: Int(item.orientation),
                    isMirrored: item.is_mirrored != 0,
                    isInverted: item.is_inverted != 0,
                    symbologyIdentifier: String(cString: item.symbology_identifier),
                    errorCorrectionLevel: ecLevel.isEmpty ? nil : ecLevel,
                    formatVariant: format,
                    supplementalPayloadString: split.addOn))
            lineCounts.append(Int(item.line_count))
        }
        return Self.resolvingAddOnConflicts(results, lineCounts: lineCounts)
    }

    /// The main number and the add-on of zxing-cpp's text and its add-on field. zxing-cpp
    /// appends the add-on's digits to the number (3.1: directly; older releases: after a
    /// space); Vision keeps them apart (payload, supplemental payload). An add-on is reported
    /// only when it is part of the number zxing-cpp settled on and has two or five digits:
    /// one that is only in the add-on field comes from a single scan line whose reading lost
    /// the vote (on the bench's add-on set every such one was wrong: 79707 for 59702, 54938
    /// for 54931, or a clipped 3 or 4 digits), and the number stands without it.
    static func splittingAddOn(text: String, addOn: String) -> (number: String, addOn: String?) {
        guard !addOn.isEmpty, text.hasSuffix(addOn) else { return (text, nil) }
        var number = text
        number.removeLast(addOn.count)
        if number.hasSuffix(" ") { number.removeLast() }
        return (number, addOn.count == 2 || addOn.count == 5 ? addOn : nil)
    }

    /// zxing-cpp reports a number once per distinct reading, so one printed code can come back
    /// with two different add-ons (a blurred 9 read as 8 on some scan lines: a wrong price at
    /// a till). Of conflicting add-ons, one is kept only when at least twice as many scan
    /// lines read it as read the next; otherwise none is — the number alone is reported, once,
    /// by its best-supported reading.
    static func resolvingAddOnConflicts(_ results: [BarcodeObservation], lineCounts: [Int]) -> [BarcodeObservation] {
        var kept: [BarcodeObservation] = []
        var handled = Set<Int>()
        for (i, observation) in results.enumerated() where !handled.contains(i) {
            // Readings of this printed symbol (same number, same place); others are left as read.
            let group = results.indices.filter { !handled.contains($0) && results[$0].isSameSymbol(as: observation) }
            guard group.contains(where: { results[$0].supplementalPayloadString != nil }) else {
                handled.insert(i)
                kept.append(observation)
                continue
            }
            handled.formUnion(group)
            var votes: [String: Int] = [:]
            for k in group { if let addOn = results[k].supplementalPayloadString { votes[addOn, default: 0] += lineCounts[k] } }
            let ranked = votes.sorted { ($0.value, $0.key) > ($1.value, $1.key) }
            let winner = ranked.count == 1 || (ranked.count > 1 && ranked[0].value >= 2 * ranked[1].value) ? ranked.first?.key : nil
            // The reading with the winning add-on (its outline spans it), else the best-supported one without.
            let best = group.filter { results[$0].supplementalPayloadString == winner }.max { lineCounts[$0] < lineCounts[$1] }
            var chosen = results[best ?? group.max { lineCounts[$0] < lineCounts[$1] }!]
            if best == nil { chosen.supplementalPayloadString = nil }
            kept.append(chosen)
        }
        return kept
    }
}
