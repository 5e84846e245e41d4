"""MediaPipe's streaming face detector (solutions API, one graph fed frame after frame like
its video mode) on the same movie frames: prints JSON with frames per second and faces per frame."""
import json, sys, time
import cv2
import mediapipe as mp

cv2.setNumThreads(1)
for path in sys.argv[1:]:
    capture = cv2.VideoCapture(path)
    frames = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(cv2.cvtColor(frame, cv2.COLOR_BGR2RGB))
    for selection, name in [(0, "short"), (1, "full")]:
        # Five passes, each with a fresh graph, and the median rate (as kamera-bench live does).
        rates = []
        for _ in range(5):
            detector = mp.solutions.face_detection.FaceDetection(model_selection=selection, min_detection_confidence=0.5)
            faces = 0
            start = time.perf_counter()
            for frame in frames:
                result = detector.process(frame)
                faces += len(result.detections or [])
            rates.append(len(frames) / (time.perf_counter() - start))
            detector.close()
        print(json.dumps({"file": path.split("/")[-1], "model": name, "frames": len(frames), "fps": sorted(rates)[2],
                          "faces_per_frame": faces / len(frames)}))
