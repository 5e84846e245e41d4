import CTesseract
import Foundation
import KameraCore

/// libtesseract, loaded on first use. Tesseract parallelises with OpenMP, and libgomp reads
/// `OMP_THREAD_LIMIT` once, when it loads: on a 2-core machine its spinning threads made
/// recognition 5× slower (2.0 s against 0.38 s for a 556×257 page). Loading the library
/// ourselves lets Kamera set the limit first (unless the user set one) — which also means a
/// program that never reads text does not need Tesseract installed.
struct TesseractLibrary: @unchecked Sendable {
    // The C API functions Kamera uses, resolved with dlsym.
    let create: @convention(c) () -> OpaquePointer?
    let delete: @convention(c) (OpaquePointer?) -> Void
    let initialize:
        @convention(c) (
            OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, TessOcrEngineMode,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32,
            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
            Int, Int32
        ) -> Int32
    let setPageSegMode: @convention(c) (OpaquePointer?, TessPageSegMode) -> Void
    let setSourceResolution: @convention(c) (OpaquePointer?, Int32) -> Void
    let setImage: @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Void
    let recognize: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let clear: @convention(c) (OpaquePointer?) -> Void
    let end: @convention(c) (OpaquePointer?) -> Void
    let iterator: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let iteratorDelete: @convention(c) (OpaquePointer?) -> Void
    let pageIterator: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let text: @convention(c) (OpaquePointer?, TessPageIteratorLevel) -> UnsafeMutablePointer<CChar>?
    let deleteText: @convention(c) (UnsafePointer<CChar>?) -> Void
    let boundingBox:
        @convention(c) (
            OpaquePointer?, TessPageIteratorLevel, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
        ) -> Int32
    let isAtBeginningOf: @convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Int32
    let confidence: @convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Float
    let next: @convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Int32
    /// libgomp's omp_set_dynamic, when OpenMP was already loaded by another library.
    let setDynamic: (@convention(c) (Int32) -> Void)?

    /// The loaded library, or the error that loading it gave.
    static let shared: Result<TesseractLibrary, KameraError> = load()

    private static func load() -> Result<TesseractLibrary, KameraError> {
        setenv("OMP_THREAD_LIMIT", "1", 0)
        let missing = KameraError.missingResource(name: "libtesseract.so.5", hint: "install libtesseract5 (scripts/setup.sh does)")
        guard let handle = dlopen("libtesseract.so.5", RTLD_NOW | RTLD_LOCAL) ?? dlopen("libtesseract.so", RTLD_NOW | RTLD_LOCAL) else {
            return .failure(missing)
        }
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let pointer = dlsym(handle, name) else { throw missing }
            return unsafeBitCast(pointer, to: type)
        }
        do {
            return .success(
                TesseractLibrary(
                    create: try symbol("TessBaseAPICreate", as: (@convention(c) () -> OpaquePointer?).self),
                    delete: try symbol("TessBaseAPIDelete", as: (@convention(c) (OpaquePointer?) -> Void).self),
                    initialize: try symbol(
                        "TessBaseAPIInit4",
                        as: (@convention(c) (
                            OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, TessOcrEngineMode,
                            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32,
                            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                            UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int, Int32
                        ) -> Int32).self),
                    setPageSegMode: try symbol(
                        "TessBaseAPISetPageSegMode", as: (@convention(c) (OpaquePointer?, TessPageSegMode) -> Void).self),
                    setSourceResolution: try symbol(
                        "TessBaseAPISetSourceResolution", as: (@convention(c) (OpaquePointer?, Int32) -> Void).self),
                    setImage: try symbol(
                        "TessBaseAPISetImage",
                        as: (@convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32) -> Void).self),
                    recognize: try symbol("TessBaseAPIRecognize", as: (@convention(c) (OpaquePointer?, OpaquePointer?) -> Int32).self),
                    clear: try symbol("TessBaseAPIClear", as: (@convention(c) (OpaquePointer?) -> Void).self),
                    end: try symbol("TessBaseAPIEnd", as: (@convention(c) (OpaquePointer?) -> Void).self),
                    iterator: try symbol("TessBaseAPIGetIterator", as: (@convention(c) (OpaquePointer?) -> OpaquePointer?).self),
                    iteratorDelete: try symbol("TessResultIteratorDelete", as: (@convention(c) (OpaquePointer?) -> Void).self),
                    pageIterator: try symbol(
                        "TessResultIteratorGetPageIterator", as: (@convention(c) (OpaquePointer?) -> OpaquePointer?).self),
                    text: try symbol(
                        "TessResultIteratorGetUTF8Text",
                        as: (@convention(c) (OpaquePointer?, TessPageIteratorLevel) -> UnsafeMutablePointer<CChar>?).self),
                    deleteText: try symbol("TessDeleteText", as: (@convention(c) (UnsafePointer<CChar>?) -> Void).self),
                    boundingBox: try symbol(
                        "TessPageIteratorBoundingBox",
                        as: (@convention(c) (
                            OpaquePointer?, TessPageIteratorLevel, UnsafeMutablePointer<Int32>?,
                            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                            UnsafeMutablePointer<Int32>?
                        ) -> Int32).self),
                    isAtBeginningOf: try symbol(
                        "TessPageIteratorIsAtBeginningOf", as: (@convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Int32).self),
                    confidence: try symbol(
                        "TessResultIteratorConfidence", as: (@convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Float).self),
                    next: try symbol("TessResultIteratorNext", as: (@convention(c) (OpaquePointer?, TessPageIteratorLevel) -> Int32).self),
                    setDynamic: dlsym(handle, "omp_set_dynamic").map { unsafeBitCast($0, to: (@convention(c) (Int32) -> Void).self) }))
        } catch let error as KameraError {
            return .failure(error)
        } catch {
            return .failure(missing)
        }
    }
}
