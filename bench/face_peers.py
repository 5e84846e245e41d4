"""Face peers on the benchmark images, one thread where the library allows: MediaPipe face
detection (short and full range) and Face Mesh through its Python solutions, dlib's HOG
detector, OpenCV's Haar cascade; and LiteRT raw invokes of the same .tflite files Kamera
runs. Prints JSON: {"tools": {name: [{file, ms, faces:[{box, keypoints, mesh}]}]}, "invoke": {...}}."""
import json, os, sys, time
import cv2
import numpy as np

cv2.setNumThreads(1)
directory, models = sys.argv[1], sys.argv[2]
entries = json.load(open(os.path.join(directory, "truth.json"))) + [{"file": "head.png", "kind": "head"}]
RUNS = int(os.environ.get("RUNS", "3"))


def timed(fn):
    times, result = [], None
    for _ in range(RUNS):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return sorted(times)[len(times) // 2], result


import mediapipe as mp
import dlib

haar = cv2.CascadeClassifier(cv2.data.haarcascades + "haarcascade_frontalface_default.xml")
hog = dlib.get_frontal_face_detector()
detectors = {
    "mediapipe short": mp.solutions.face_detection.FaceDetection(model_selection=0, min_detection_confidence=0.5),
    "mediapipe full": mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5),
}
mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=20, refine_landmarks=False,
                                       min_detection_confidence=0.5)
tools = {name: [] for name in list(detectors) + ["mediapipe face mesh", "dlib hog", "opencv haar"]}
for entry in entries:
    bgr = cv2.imread(os.path.join(directory, entry["file"]), cv2.IMREAD_COLOR)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    for name, detector in detectors.items():
        ms, result = timed(lambda: detector.process(rgb))
        faces = []
        for d in result.detections or []:
            b = d.location_data.relative_bounding_box
            faces.append({"box": [b.xmin * w, b.ymin * h, b.width * w, b.height * h], "score": d.score[0],
                          "keypoints": [[k.x * w, k.y * h] for k in d.location_data.relative_keypoints]})
        tools[name].append({"file": entry["file"], "ms": ms, "faces": faces})
    ms, result = timed(lambda: mesh.process(rgb))
    faces = []
    for landmarks in result.multi_face_landmarks or []:
        points = [[p.x * w, p.y * h] for p in landmarks.landmark]
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        faces.append({"box": [min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)], "mesh": points})
    tools["mediapipe face mesh"].append({"file": entry["file"], "ms": ms, "faces": faces})
    ms, rects = timed(lambda: hog(rgb, 1))
    tools["dlib hog"].append({"file": entry["file"], "ms": ms,
                              "faces": [{"box": [r.left(), r.top(), r.width(), r.height()]} for r in rects]})
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    ms, rects = timed(lambda: haar.detectMultiScale(gray, 1.1, 5))
    tools["opencv haar"].append({"file": entry["file"], "ms": ms,
                                 "faces": [{"box": [float(v) for v in r]} for r in rects]})

from ai_edge_litert.interpreter import Interpreter
invoke = {}
for model in sorted(os.listdir(models)):
    # The attention mesh needs MediaPipe's custom operators, which plain LiteRT lacks.
    if not model.endswith(".tflite") or model == "face_landmark_with_attention.tflite":
        continue
    it = Interpreter(model_path=os.path.join(models, model), num_threads=1)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    it.set_tensor(d["index"], (np.arange(np.prod(d["shape"])) % 255 / 255).astype(np.float32).reshape(d["shape"]))
    for _ in range(20):
        it.invoke()
    times = []
    for _ in range(200):
        start = time.perf_counter()
        it.invoke()
        times.append((time.perf_counter() - start) * 1000)
    invoke[model] = sorted(times)[100]
print(json.dumps({"tools": tools, "invoke": invoke}))
