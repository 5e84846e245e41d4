"""The page in a real browser: headless Chromium (Debian) driven by Selenium, its camera
faked from a Y4M of a real face photo and a generated QR code (make_camera_video.py),
talking to a real `kamera serve`. Asserts from the page's own state (window.kamera) and
DOM, and saves a screenshot at each step.

usage: test_live_page.py KAMERA_BINARY CAMERA.y4m PHOTO.jpg ARTIFACTS_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

KAMERA, CAMERA, PHOTO, ARTIFACTS = sys.argv[1:5]
QR_TEXT = "KAMERA-BROWSER-TEST"
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def wait_for(driver, script, timeout=20, poll=0.05):
    end = time.time() + timeout
    while time.time() < end:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(poll)
    return None


def shot(driver, name):
    driver.save_screenshot(os.path.join(ARTIFACTS, name + ".png"))


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    data = tempfile.mkdtemp(prefix="kamera-browser-")
    # The same Y4M is also the server's own camera (--camera), for the server-camera view.
    server = subprocess.Popen([KAMERA, "serve", "--port", "0", "--data", data, "--camera", CAMERA],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    port = re.search(r"127\.0\.0\.1:(\d+)/", line).group(1)
    url = f"http://127.0.0.1:{port}/"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1500,1000",
                     "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     f"--use-file-for-fake-video-capture={CAMERA}", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(url)
        check(driver.title == "Kamera", "the page loads")
        # As a user would: the camera list has loaded before Start is pressed.
        check(bool(wait_for(driver, "return document.getElementById('camera').options.length >= 2")),
              "the camera list shows the browser's and the server's cameras")
        driver.find_element(By.ID, "start").click()
        results = wait_for(driver, "return window.kamera.results > 30 && window.kamera.results")
        check(bool(results), f"live results arrive ({results} after start)")
        shot(driver, "1-live")

        # Faces: one face in view, so one stable ID, on a red layer turned in 3-D.
        ids, transforms = set(), set()
        end = time.time() + 4
        while time.time() < end:
            faces = driver.execute_script("return window.kamera.faces")
            if os.environ.get("KAMERA_BROWSER_DEBUG"):
                print(driver.execute_script("const r = window.kamera.lastResult; return [r.id, r.frame, r.t, r.dropped, r.analysisMs, r.faces.map(f => [f.faceID, f.detected, Math.round(f.pixelBox.x), Math.round(f.pixelBox.width)]), r.events]"))
            ids.update(faces.keys())
            transforms.update(f["transform"] for f in faces.values())
            time.sleep(0.1)
        check(len(ids) == 1, f"the face keeps one ID over 4 s (IDs seen: {sorted(ids)})")
        check(any("rotateZ(" in t and "rotateY(" in t for t in transforms), f"the face layer is turned about Z and Y ({list(transforms)[:1]})")
        layer = driver.execute_script(
            "const f = document.querySelector('#faces .face'); if (!f) return null;"
            "const s = getComputedStyle(f), p = getComputedStyle(f.parentElement);"
            "return {border: s.borderTopColor, perspective: p.perspective, label: f.textContent};")
        check(layer is not None and layer["border"] == "rgb(255, 34, 34)" and layer["perspective"] == "1000px",
              f"red-bordered face layer under a 1000px perspective ({layer})")
        check(layer is not None and layer["label"].startswith("face "), f"the layer shows the faceID ({layer and layer['label']})")

        # Codes: the message shows, and hides 0.2-0.4 s after the last frame that saw the code
        # (a MutationObserver timestamps the overlay's changes in the page's own clock).
        driver.execute_script("""
            window.codeLog = [];
            const svg = document.getElementById('marks');
            new MutationObserver(() => {
              const shown = [...svg.querySelectorAll('.code-text')].some(t => t.textContent === '%s');
              const log = window.codeLog;
              if (!log.length || log[log.length - 1][1] !== shown) log.push([performance.now(), shown, window.kamera.lastSeen['%s']]);
            }).observe(svg, {childList: true, subtree: true});
        """ % (QR_TEXT, QR_TEXT))
        shown = wait_for(driver, "return window.codeLog.some(e => e[1])", timeout=15)
        check(bool(shown), "the code's message is shown")
        shot(driver, "2-code")
        hidden = wait_for(driver, "const l = window.codeLog; const i = l.findIndex(e => e[1]);"
                                  " const j = l.findIndex((e, k) => k > i && !e[1]); return i >= 0 && j > i && l[j]", timeout=15)
        check(bool(hidden), "the code's message hides after the code leaves")
        if hidden:
            # [when it was hidden, false, when the last frame with the code arrived]
            delay = (hidden[0] - hidden[2]) / 1000
            check(0.2 <= delay <= 0.4, f"hidden {delay:.3f} s after the last frame that saw it")

        # Record 3 s; the recording appears in the gallery with its thumbnail and plays.
        driver.find_element(By.ID, "record").click()
        time.sleep(3)
        driver.find_element(By.ID, "record").click()
        recording = wait_for(driver, "return window.kamera.lastRecording", timeout=20)
        check(bool(recording) and recording["duration"] > 1.5, f"a recording ends ({recording and recording['duration']} s)")
        driver.find_element(By.ID, "tab-gallery").click()
        thumb = wait_for(driver, "const i = document.querySelector('#gallery img'); return i && i.complete && i.naturalWidth > 0 && [i.naturalWidth, i.naturalHeight]")
        check(thumb is not None and thumb[0] == 100, f"the gallery shows its thumbnail ({thumb})")
        # Clicked in the page, so a list redrawn between finding and clicking cannot fail the step.
        clicked = wait_for(driver, "const b = document.querySelector('#gallery .play'); if (!b) return false; b.click(); return true")
        check(bool(clicked), "the gallery has a Play button")
        played = wait_for(driver, "const p = document.getElementById('player'); return p.readyState >= 2 && p.currentTime > 0.3 && p.duration", timeout=20)
        check(bool(played), f"the recording plays in the page (duration {played})")
        shot(driver, "3-gallery")

        # Photo: a picked (or dropped) file is annotated.
        driver.find_element(By.ID, "tab-live").click()
        driver.find_element(By.ID, "stop").click()
        driver.find_element(By.ID, "tab-photo").click()
        driver.find_element(By.ID, "photo-file").send_keys(PHOTO)
        done = wait_for(driver, "return document.body.dataset.photoAnnotated === 'true'", timeout=30)
        check(bool(done), "the photo is analysed")
        counts = driver.execute_script(
            "return {faces: document.querySelectorAll('#photo-faces-layer .face').length,"
            " marks: document.querySelectorAll('#photo-marks *').length, summary: document.getElementById('photo-summary').textContent}")
        check(counts["faces"] >= 1 and counts["marks"] > 10, f"faces and landmarks are drawn on the photo ({counts})")
        shot(driver, "4-photo")

        # Server camera: the server captures, analyses and records; the page shows its frames.
        driver.find_element(By.ID, "tab-live").click()
        option = wait_for(driver, "return [...document.querySelectorAll('#camera option')].some(o => o.value === 'server:0')")
        check(bool(option), "the server's camera is in the camera list")
        driver.execute_script("const s = document.getElementById('camera'); s.value = 'server:0';"
                              " s.dispatchEvent(new Event('change')); window.kamera.lastRecording = null;"
                              " window.kamera.faces = {}; window.kamera.results = 0;")
        driver.find_element(By.ID, "start").click()
        frames = wait_for(driver, "const k = window.kamera; return k.source === 'server:0' && k.serverFrames > 20"
                                  " && document.getElementById('server-view').naturalWidth === 640 && k.serverFrames")
        check(bool(frames), f"the server camera's frames are shown ({frames} frames)")
        ids = set()
        end = time.time() + 3
        while time.time() < end:
            ids.update(driver.execute_script("return Object.keys(window.kamera.faces)"))
            time.sleep(0.1)
        check(len(ids) == 1, f"the server camera's face keeps one ID over 3 s (IDs seen: {sorted(ids)})")
        code = wait_for(driver, "return [...document.querySelectorAll('#marks .code-text')].some(t => t.textContent === '%s')" % QR_TEXT,
                        timeout=10)
        check(bool(code), "the server camera's code message is shown")
        shot(driver, "5-server-camera")
        driver.find_element(By.ID, "record").click()
        time.sleep(2.5)
        driver.find_element(By.ID, "record").click()
        recording = wait_for(driver, "return window.kamera.lastRecording", timeout=20)
        check(bool(recording) and recording.get("source") == CAMERA and recording["width"] == 640,
              f"the server camera's recording is listed with its source ({recording})")
        if recording:
            # Every camera frame (15 fps), not just the analysed ones.
            check(recording["frames"] >= recording["duration"] * 15 * 0.9,
                  f"the recording has every camera frame ({recording['frames']} in {recording['duration']} s)")
        driver.find_element(By.ID, "stop").click()
        # Health of the whole run: no errors in the page's console.
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        check(not errors, f"no page errors ({errors[:2]})")
    finally:
        driver.quit()
        server.terminate()
        server.wait()
    print(f"screenshots in {ARTIFACTS}")
    if failures:
        print(f"{len(failures)} browser checks failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
