import Foundation
import KameraCore

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

    /// `KAMERA_MODELS` if set, else the `models` folder of the cache root (`CacheDirectory`:
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

    /// A process-wide pool of sessions for `model` computing only the outputs at `outputs`
    /// (positions in its `outputShapes`, listed in that order: `NeuralNetwork.keepingOutputs`).
    /// - Throws: `network(_:)`'s errors, and `KameraError.invalidArgument` for positions that
    ///   are empty, repeated or out of range.
    public func sessions(_ model: KameraModel, keepingOutputs outputs: [Int]) throws -> InferenceSessionPool {
        let path = directory.appendingPathComponent(model.fileName).path
        let key = path + "#" + outputs.map(String.init).joined(separator: ",")
        // The whole network is compiled only on the way (not cached): its packed weights would
        // double the model's memory for outputs no one reads.
        return try Self.cache.pool(key) { try compiledNetwork(model).keepingOutputs(outputs) }
    }

    /// A process-wide pool of sessions for `model` compiled for a `height` × `width` input
    /// (`NeuralNetwork.resized`): fully convolutional detectors scan whole images this way.
    /// The most recently used sizes are kept (their arenas are large); others are compiled again.
    /// ONNX models (which leave the size open) are compiled for each size asked for.
    public func sessions(_ model: KameraModel, inputHeight height: Int, inputWidth width: Int) throws -> InferenceSessionPool {
        if model.isONNX {
            let onnx = try onnxNetwork(model)
            return try Self.cache.resizedPool(onnx.path, height: height, width: width) { try onnx.network(height: height, width: width) }
        }
        let native = try sessions(model)
        if native.network.inputShapes.first.map({ $0.count == 4 && $0[1] == height && $0[2] == width }) == true {
            return native
        }
        return try Self.cache.resizedPool(native.network.path, height: height, width: width) {
            try native.network.resized(height: height, width: width)
        }
    }

    /// An ONNX model read once per process and file, checksum verified like the TFLite ones.
    /// - Throws: `KameraError.invalidArgument` for a TFLite model, and `network(_:)`'s errors.
    public func onnxNetwork(_ model: KameraModel) throws -> ONNXNetwork {
        guard model.isONNX else { throw KameraError.invalidArgument("\(model.fileName) is not an ONNX model") }
        let path = directory.appendingPathComponent(model.fileName).path
        return try Self.cache.onnx(path) {
            let bytes = try verifiedBytes(model)
            return try ONNXNetwork(bytes: bytes, name: try self.path(of: model))
        }
    }

    /// The file's bytes, once its checksum matches the pin.
    private func verifiedBytes(_ model: KameraModel) throws -> [UInt8] {
        let path = try self.path(of: model)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw KameraError.unreadableFile(path: path, reason: "cannot open")
        }
        return try Self.verified([UInt8](data), path: path, model: model)
    }

    /// `bytes` once their checksum matches `model`'s pin.
    private static func verified(_ bytes: [UInt8], path: String, model: KameraModel) throws -> [UInt8] {
        guard SHA256Digest.hex(bytes) == model.sha256 else {
            throw KameraError.invalidModel(
                path: path, reason: "checksum does not match the pinned SHA-256 (corrupt or a different version)")
        }
        return bytes
    }

    /// The compiled network for `model`, loaded once per process and file. A file whose
    /// checksum does not match the pin is rejected as corrupt before it is parsed.
    /// - Throws: `KameraError.invalidArgument` for an ONNX model (compiled per input size:
    ///   `sessions(_:inputHeight:inputWidth:)`).
    public func network(_ model: KameraModel) throws -> NeuralNetwork {
        try Self.cache.network(directory.appendingPathComponent(model.fileName).path) { try compiledNetwork(model) }
    }

    /// `model` read, checked against its pin and compiled, without the cache.
    private func compiledNetwork(_ model: KameraModel) throws -> NeuralNetwork {
        guard !model.isONNX else {
            throw KameraError.invalidArgument("\(model.fileName) is compiled per input size: ask for its sessions at a size")
        }
        return try NeuralNetwork(bytes: try verifiedBytes(model), name: try path(of: model))
    }

    static func verifiedNetwork(bytes: [UInt8], path: String, model: KameraModel) throws -> NeuralNetwork {
        try NeuralNetwork(bytes: try verified(bytes, path: path, model: model), name: path)
    }
}

/// Compiled networks by file, shared by every request in the process.
private final class NetworkCache: @unchecked Sendable {
    // @unchecked: all state is behind `lock`.
    private let lock = NSLock()
    private var networks: [String: NeuralNetwork] = [:]
    private var onnxNetworks: [String: ONNXNetwork] = [:]
    private var pools: [String: InferenceSessionPool] = [:]
    /// Pools of resized networks, least recently used first.
    private var resized: [(key: String, pool: InferenceSessionPool)] = []
    /// Sizes kept per process: an image's scan uses two or three, and same-size photos (one
    /// camera's) reuse them; each idle session of a large size holds tens of megabytes.
    private static let resizedLimit = 4

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

    func resizedPool(
        _ path: String, height: Int, width: Int, make: () throws -> NeuralNetwork
    ) throws -> InferenceSessionPool {
        let key = "\(path)@\(width)x\(height)"
        lock.lock()
        if let index = resized.firstIndex(where: { $0.key == key }) {
            let entry = resized.remove(at: index)
            resized.append(entry)
            lock.unlock()
            return entry.pool
        }
        lock.unlock()
        let pool = InferenceSessionPool(network: try make())
        lock.lock()
        defer { lock.unlock() }
        if let existing = resized.first(where: { $0.key == key }) { return existing.pool }
        resized.append((key, pool))
        if resized.count > Self.resizedLimit { resized.removeFirst() }
        return pool
    }

    func onnx(_ path: String, load: () throws -> ONNXNetwork) throws -> ONNXNetwork {
        lock.lock()
        defer { lock.unlock() }
        if let network = onnxNetworks[path] { return network }
        let network = try load()
        onnxNetworks[path] = network
        return network
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
