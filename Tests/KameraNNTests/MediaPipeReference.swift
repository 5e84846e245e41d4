import Foundation

/// Runs a model through MediaPipe's own inference graph (the pinned `mediapipe` wheel, in the
/// venv scripts/test.sh installs), for models with MediaPipe's custom operators that plain
/// LiteRT cannot load. The input is an RGB image tensor in [0, 1], as MediaPipe's
/// `ImageToTensorCalculator` makes it from 8-bit pixels, so the test's input must be k/255.
enum MediaPipeReference {
    static var python: String? { LiteRTReference.venvPython(variable: "KAMERA_MEDIAPIPE_PYTHON", venv: "mediapipe-venv") }

    // ImageToTensor → InferenceCalculator (with MediaPipe's custom operator resolver) → each
    // output tensor split off and read as floats.
    private static let script = """
        import sys, numpy as np
        from google.protobuf import text_format
        from mediapipe.framework import calculator_pb2
        from mediapipe.python.solution_base import SolutionBase
        model, inp, out, height, width, outputs = sys.argv[1:7]
        height, width, outputs = int(height), int(width), int(outputs)
        names = [f"o{i}" for i in range(outputs)]
        config = 'input_stream: "image"\\n' + "".join(f'output_stream: "{n}"\\n' for n in names) + f'''
        node {{ calculator: "ImageToTensorCalculator" input_stream: "IMAGE:image" output_stream: "TENSORS:in"
          options {{ [mediapipe.ImageToTensorCalculatorOptions.ext] {{ output_tensor_width: {width}
            output_tensor_height: {height} keep_aspect_ratio: false output_tensor_float_range {{ min: 0 max: 1 }} }} }} }}
        node {{ calculator: "TfLiteCustomOpResolverCalculator" output_side_packet: "OP_RESOLVER:resolver" }}
        node {{ calculator: "InferenceCalculator" input_stream: "TENSORS:in" input_side_packet: "OP_RESOLVER:resolver"
          output_stream: "TENSORS:out" options {{ [mediapipe.InferenceCalculatorOptions.ext] {{
            model_path: "{model}" delegate {{ tflite {{}} }} }} }} }}
        node {{ calculator: "SplitTensorVectorCalculator" input_stream: "out"
        ''' + "".join(f'output_stream: "t{i}"\\n' for i in range(outputs)) + '''
          options { [mediapipe.SplitVectorCalculatorOptions.ext] {
        ''' + "".join(f"ranges {{ begin: {i} end: {i + 1} }}\\n" for i in range(outputs)) + "} } }\\n" + "".join(
            f'node {{ calculator: "TensorsToFloatsCalculator" input_stream: "TENSORS:t{i}" output_stream: "FLOATS:o{i}" }}\\n'
            for i in range(outputs))
        graph = text_format.Parse(config, calculator_pb2.CalculatorGraphConfig())
        pixels = np.fromfile(inp, dtype=np.float32).reshape(height, width, 3)
        image = np.ascontiguousarray(np.clip(np.rint(pixels * 255), 0, 255).astype(np.uint8))
        result = SolutionBase(graph_config=graph).process({"image": image})
        with open(out, "wb") as f:
            for n in names:
                f.write(np.asarray(getattr(result, n), dtype=np.float32).tobytes())
        """

    /// Every output of `model` (its `outputs` tensors) on an RGB `height`×`width` input in [0, 1].
    static func run(model: String, input: [Float], height: Int, width: Int, outputs: Int) throws -> [Float] {
        guard let python else {
            throw LiteRTReference.Failure.unavailable("no KAMERA_MEDIAPIPE_PYTHON and no mediapipe-venv in the cache")
        }
        return try LiteRTReference.runScript(
            python: python, script: script, model: model, input: input, extra: ["\(height)", "\(width)", "\(outputs)"])
    }
}
