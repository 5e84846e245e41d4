import CZXing
import Foundation
import KameraCore

/// One pass of zxing-cpp over a grayscale image.
struct BarcodeReaderPass: Sendable {
    var formats: String
    var tryHarder = true
    var tryRotate = true
    var tryInvert = true
    var tryDownscale = true
    var tryDenoise = false
    var binarizer: Int32 = 0
    var maxSymbols: Int32 = 0
    /// EAN-2/EAN-5 add-ons: 0 ignore, 1 read when present (the default: a book's or a
    /// magazine's code is incomplete without it), 2 require.
    var eanAddOn: Int32 = 1

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
                is_pure: 0, binarizer: binarizer, max_symbols: maxSymbols, ean_add_on: eanAddOn)
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
        for i in 0..<Int(list.count) {
            let item = list.items[i]
            let format = String(cString: item.format)
            guard
                let symbology = BarcodeSymbology(
                    symbologyKey: Character(Unicode.Scalar(UInt8(bitPattern: item.symbology_key))),
                    variantKey: Character(Unicode.Scalar(UInt8(bitPattern: item.variant_key))))
            else { continue }
            var data = Data(bytes: item.bytes, count: Int(item.byte_count))
            var text = String(cString: item.text)
            // zxing-cpp appends the add-on's digits to the main number (3.1: directly; older
            // releases: after a space); Vision keeps them apart (payload, supplemental payload).
            var addOn = String(cString: item.ean_add_on)
            if !addOn.isEmpty, text.hasSuffix(addOn) {
                text.removeLast(addOn.count)
                if text.hasSuffix(" ") { text.removeLast() }
                data = Data(text.utf8)
            }
            // Add-ons have two or five digits; zxing-cpp sometimes strings together a partial
            // one from a scan line that clipped it. The number stands, the add-on does not
            // (another line usually reads it whole).
            if !(addOn.count == 2 || addOn.count == 5) { addOn = "" }
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
                    supplementalPayloadString: addOn.isEmpty ? nil : addOn))
        }
        return results
    }
}
