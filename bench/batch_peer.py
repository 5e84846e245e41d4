"""A peer's batch loop as a user would write it: read each listed file, decode it, detect,
count the results. `zxing LIST` (zxing-cpp read_barcodes on the decoded image) or
`mediapipe LIST` (MediaPipe's full-range face detector). Prints {"files": n, "found": k}."""
import json, sys

tool, listing = sys.argv[1], sys.argv[2]
paths = [line for line in open(listing).read().splitlines() if line]
found = 0
if tool == "zxing":
    import zxingcpp
    from PIL import Image
    for path in paths:
        with Image.open(path) as image:
            found += len(zxingcpp.read_barcodes(image))
elif tool == "mediapipe":
    import cv2
    import mediapipe as mp
    detector = mp.solutions.face_detection.FaceDetection(model_selection=1, min_detection_confidence=0.5)
    for path in paths:
        rgb = cv2.cvtColor(cv2.imread(path, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        found += len(detector.process(rgb).detections or [])
else:
    sys.exit(f"unknown tool {tool}")
print(json.dumps({"files": len(paths), "found": found}))
