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

from axe_selenium_python import Axe

KAMERA, CAMERA, PHOTO, ARTIFACTS = sys.argv[1:5]
# A photo with printed labels, for the Photo tab's text reader: beside the face photo.
BOARD = os.path.join(os.path.dirname(PHOTO), "board.jpg")
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


def start_server(data, port="0", extra=()):
    # The same Y4M is also the server's own camera (--camera), for the server-camera view.
    server = subprocess.Popen([KAMERA, "serve", "--port", port, "--data", data, "--camera", CAMERA, *extra],
                              stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    return server, re.search(r"127\.0\.0\.1:(\d+)/", line).group(1)


def browser(size):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={size}",
                     "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                     f"--use-file-for-fake-video-capture={CAMERA}", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def accessible(driver, where):
    """axe-core (from axe-selenium-python) on the page as it is: no serious or critical violation."""
    axe = Axe(driver)
    axe.inject()
    results = axe.run(options={"resultTypes": ["violations"]})
    bad = [(v["id"], v["impact"], len(v["nodes"])) for v in results["violations"] if v["impact"] in ("serious", "critical")]
    check(not bad, f"axe-core: no serious or critical accessibility violation on {where} ({bad})")


# Where the first face's layer is, in fractions of the preview, and where the frame says the face is.
FACE_PLACE = """
    const layer = document.querySelector('#faces .face'), box = document.getElementById('live-box');
    const r = window.kamera.lastResult;
    if (!layer || !r || !r.faces.length) return null;
    const a = layer.getBoundingClientRect(), b = box.getBoundingClientRect(), f = r.faces[0].pixelBox;
    // The layer is turned in 3-D: its centre is what stays on the face.
    return {shown: [(a.left + a.width / 2 - b.left) / b.width, (a.top + a.height / 2 - b.top) / b.height],
            frame: [(f.x + f.width / 2) / r.width, (f.y + f.height / 2) / r.height], box: [b.left, b.top, b.right, b.bottom],
            viewport: [innerWidth, innerHeight]};
"""


def phone(url):
    """The page at a phone's size (390×844): the preview takes the width, the rest stacks
    under it, touch targets are 44 px, the Gallery's player stays on screen."""
    driver = browser("390,844")
    try:
        driver.get(url)
        wait_for(driver, "return document.getElementById('camera').options.length >= 2")
        driver.execute_script("const s = document.getElementById('camera'); s.value = s.options[0].value; s.dispatchEvent(new Event('change'))")
        driver.find_element(By.ID, "start").click()
        check(bool(wait_for(driver, "return window.kamera.results > 5")), "phone: live results arrive")
        place = wait_for(driver, "return (() => {" + FACE_PLACE + "})()")
        width = driver.execute_script("return document.getElementById('live-box').getBoundingClientRect().width / innerWidth")
        check(width >= 0.9, f"phone: the preview takes {width:.0%} of the width")
        if place:
            offset = max(abs(place["shown"][0] - place["frame"][0]), abs(place["shown"][1] - place["frame"][1]))
            check(offset <= 0.02, f"phone: the face's layer is on the face ({offset:.3f} of the preview off)")
        small = driver.execute_script(
            "return [...document.querySelectorAll('#view-live button, #view-live select')].filter(e => e.offsetParent)"
            ".map(e => e.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44).length")
        check(small == 0, f"phone: every button and list is at least 44 px ({small} smaller)")
        history = driver.execute_script("const h = document.querySelector('.history').getBoundingClientRect(),"
                                        " b = document.getElementById('live-box').getBoundingClientRect(); return h.top >= b.bottom")
        check(history, "phone: the scan history is under the preview, not beside it")
        shot(driver, "phone-1-live")
        accessible(driver, "the phone's live view")
        driver.find_element(By.ID, "stop").click()
        driver.find_element(By.ID, "tab-gallery").click()
        if wait_for(driver, "const b = document.querySelector('#gallery .play'); if (!b) return false; b.click(); return true"):
            inside = wait_for(driver, "const r = document.getElementById('player').getBoundingClientRect();"
                                      " return r.width > 0 && r.left >= 0 && r.right <= innerWidth + 1")
            check(bool(inside), "phone: the Gallery's player opens on screen")
        shot(driver, "phone-2-gallery")
        # The Photo tab's controls (the Text reader list among them) at a phone's width.
        driver.find_element(By.ID, "tab-photo").click()
        small = driver.execute_script(
            "return [...document.querySelectorAll('#view-photo button, #view-photo select')].filter(e => e.offsetParent)"
            ".map(e => e.getBoundingClientRect()).filter(r => r.height < 44 || r.width < 44 || r.right > innerWidth + 1).length")
        check(small == 0, f"phone: the Photo tab's buttons and lists are 44 px and on screen ({small} not)")
        shot(driver, "phone-3-photo")
        accessible(driver, "the phone's Photo tab")
    finally:
        driver.quit()


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    data = tempfile.mkdtemp(prefix="kamera-browser-")
    server, port = start_server(data)
    url = f"http://127.0.0.1:{port}/"
    driver = browser("1500,1000")
    try:
        driver.get(url)
        check(driver.title == "Kamera", "the page loads")
        prompt = driver.execute_script("return document.getElementById('prompt').textContent")
        check("Start" in prompt, f"the first screen says what to do ({prompt})")
        shot(driver, "0-first-screen")
        accessible(driver, "the first screen")
        # As a user would: the camera list has loaded before Start is pressed.
        check(bool(wait_for(driver, "return document.getElementById('camera').options.length >= 2")),
              "the camera list shows the browser's and the server's cameras")
        driver.find_element(By.ID, "start").click()
        results = wait_for(driver, "return window.kamera.results > 30 && window.kamera.results")
        check(bool(results), f"live results arrive ({results} after start)")
        shot(driver, "1-live")
        size = driver.execute_script("return document.getElementById('camera-size').textContent")
        check("640×480" in size, f"the camera's obtained size is shown ({size})")
        check(driver.execute_script("return document.getElementById('status').textContent").startswith("live"), "the header says live")
        # Desktop: the preview is wholly in the window; the face's layer stays on the face
        # (within 2 % of the preview) at two window sizes.
        for window in [(1500, 1000), (1000, 700)]:
            driver.set_window_size(*window)
            time.sleep(0.5)
            place = wait_for(driver, "return (() => {" + FACE_PLACE + "})()")
            if not place:
                check(False, f"a face is drawn at {window}")
                continue
            left, top, right, bottom = place["box"]
            inside = left >= 0 and top >= 0 and right <= place["viewport"][0] + 1 and bottom <= place["viewport"][1] + 1
            check(inside, f"at {window[0]}×{window[1]} the preview is inside the window ({place['box']}, {place['viewport']})")
            offset = max(abs(place["shown"][0] - place["frame"][0]), abs(place["shown"][1] - place["frame"][1]))
            check(offset <= 0.02, f"at {window[0]}×{window[1]} the face's layer is on the face ({offset:.3f} of the preview off)")
        driver.set_window_size(1500, 1000)
        accessible(driver, "the live view")

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

        # Delete asks first; deleting the recording that plays stops the player.
        delete = wait_for(driver, "const b = [...document.querySelectorAll('#gallery li.playing button')].find(b => b.textContent === 'Delete');"
                                  " if (!b) return false; b.click(); return true")
        check(bool(delete), "the playing recording is marked and has Delete")
        asked = wait_for(driver, "return document.querySelector('#gallery .confirm-delete') !== null")
        check(bool(asked) and driver.execute_script("return document.querySelectorAll('#gallery li').length") >= 1,
              "Delete asks before deleting")
        driver.execute_script("document.querySelector('#gallery .confirm-delete').click()")
        gone = wait_for(driver, "return window.kamera.recordings.length === 0 && document.getElementById('player-box').classList.contains('hidden')")
        check(bool(gone), "deleted: the list is empty and the player closed")
        accessible(driver, "the gallery")

        # Stop: nothing stays drawn; the header says idle.
        driver.find_element(By.ID, "tab-live").click()
        driver.find_element(By.ID, "stop").click()
        cleared = wait_for(driver, "return !document.querySelector('#faces .face') && !document.querySelector('#marks *')"
                                   " && document.getElementById('fps').textContent === '–' && document.getElementById('status').textContent === 'idle'")
        check(bool(cleared), "after Stop no overlay or figure remains and the header says idle")
        shot(driver, "3b-stopped")

        # Text: read at its own pace, beside the faces and codes, which keep their rate.
        driver.find_element(By.ID, "start").click()
        wait_for(driver, "return window.kamera.results > 20")
        def mean_fps(seconds):
            samples = []
            end = time.time() + seconds
            while time.time() < end:
                samples.append(driver.execute_script("return window.kamera.fps"))
                time.sleep(0.25)
            return sum(samples) / max(1, len(samples))
        without = mean_fps(5)
        driver.execute_script("const t = document.querySelector('[data-option=text]'); t.checked = true; t.dispatchEvent(new Event('change'))")
        text = wait_for(driver, "const r = window.kamera.lastResult; return r && Array.isArray(r.text) && r.textTime !== undefined", timeout=20)
        check(bool(text), "text results arrive, with the time of the frame they were found on")
        with_text = mean_fps(6)
        check(with_text >= 0.9 * without, f"faces and codes keep their rate with text on ({with_text:.1f} fps against {without:.1f})")
        shot(driver, "3c-text")
        driver.execute_script("const t = document.querySelector('[data-option=text]'); t.checked = false; t.dispatchEvent(new Event('change'))")
        driver.execute_script("const f = document.querySelector('[data-option=faces]'); f.checked = false; f.dispatchEvent(new Event('change'))")
        unticked = wait_for(driver, "return !document.querySelector('#faces .face')", timeout=5)
        check(bool(unticked), "unticking faces removes the face layers")
        driver.execute_script("const f = document.querySelector('[data-option=faces]'); f.checked = true; f.dispatchEvent(new Event('change'))")

        # People: a skeleton over the person; the background blurred on the server and shown in
        # place of the page's own camera; back to the camera when the background is as it is.
        driver.execute_script("const b = document.querySelector('[data-option=bodies]'); b.checked = true; b.dispatchEvent(new Event('change'));"
                              "const s = document.getElementById('background'); s.value = 'blur'; s.dispatchEvent(new Event('change'))")
        bone = wait_for(driver, "return document.querySelector('#marks .bone') !== null && window.kamera.lastResult.bodies.length", timeout=15)
        check(bool(bone), "bodies: a skeleton is drawn over the person")
        swapped = wait_for(driver, "const v = document.getElementById('server-view');"
                                   " return document.getElementById('video').classList.contains('hidden') && !v.classList.contains('hidden')"
                                   " && v.complete && v.naturalWidth === 640", timeout=15)
        check(bool(swapped), "with a blurred background the page shows the server's changed frames instead of its camera")
        time.sleep(1)
        rough = driver.execute_script("""
            function rough(source) {
              const c = document.createElement('canvas'); c.width = 640; c.height = 480;
              const g = c.getContext('2d'); g.drawImage(source, 0, 0, 640, 480);
              const d = g.getImageData(420, 10, 200, 80).data; let s = 0;
              for (let i = 4; i < d.length; i += 4) s += Math.abs(d[i + 1] - d[i - 3]);
              return s / (d.length / 4);
            }
            return [rough(document.getElementById('server-view')), rough(document.getElementById('video'))];""")
        check(rough[0] < rough[1] / 2, f"the building behind the person is blurred (edge strength {rough[0]:.1f} against {rough[1]:.1f})")
        shot(driver, "3e-people-blurred")
        accessible(driver, "the live view with people and a blurred background")
        driver.execute_script("const b = document.querySelector('[data-option=bodies]'); b.checked = false; b.dispatchEvent(new Event('change'));"
                              "const s = document.getElementById('background'); s.value = ''; s.dispatchEvent(new Event('change'))")
        restored = wait_for(driver, "return !document.getElementById('video').classList.contains('hidden') && !document.querySelector('#marks .bone')")
        check(bool(restored), "background as it is: the page's own camera again, no skeleton")

        # The server goes away: nothing stays drawn, a banner offers Reconnect, and the page
        # reconnects by itself when the server is back.
        server.terminate()
        server.wait()
        banner = wait_for(driver, "return !document.getElementById('banner').classList.contains('hidden')"
                                  " && document.getElementById('status').textContent.startsWith('reconnecting')", timeout=10)
        check(bool(banner), "a lost server shows a banner with Reconnect and the header says reconnecting")
        check(driver.execute_script("return !document.querySelector('#faces .face') && !document.querySelector('#marks *')"),
              "no overlay stays frozen over the video")
        time.sleep(0.2)
        fits = driver.execute_script("const r = document.getElementById('live-box').getBoundingClientRect(); return r.bottom <= innerHeight + 1")
        check(fits, "with the banner shown the preview still fits the window")
        shot(driver, "3d-reconnecting")
        server, _ = start_server(data, port)
        back = wait_for(driver, "const k = window.kamera; k.results = 0; return k.connected", timeout=25)
        check(bool(back), "the page reconnects when the server is back")
        check(bool(wait_for(driver, "return window.kamera.results > 5")), "and results flow again")

        # Reloaded, the page shows the codes the server kept from earlier sessions.
        driver.find_element(By.ID, "stop").click()
        driver.refresh()
        earlier = wait_for(driver, "return [...document.querySelectorAll('#history li')].some(l => l.textContent.includes('%s'))" % QR_TEXT)
        check(bool(earlier), "after a reload the scan history holds the codes the server kept")

        # Photo: a picked (or dropped) file is annotated.
        driver.find_element(By.ID, "tab-photo").click()
        driver.find_element(By.ID, "photo-file").send_keys(PHOTO)
        done = wait_for(driver, "return document.body.dataset.photoAnnotated === 'true'", timeout=30)
        check(bool(done), "the photo is analysed")
        counts = driver.execute_script(
            "return {faces: document.querySelectorAll('#photo-faces-layer .face').length,"
            " marks: document.querySelectorAll('#photo-marks *').length, summary: document.getElementById('photo-summary').textContent}")
        check(counts["faces"] >= 1 and counts["marks"] > 10, f"faces and landmarks are drawn on the photo ({counts})")
        listed = driver.execute_script("return document.getElementById('photo-face-list').textContent")
        check("pitch" in listed, f"the photo's faces are listed with roll, yaw and pitch ({listed[:80]})")
        check("1 face," in counts["summary"] or counts["summary"].endswith("1 face"), f"the summary counts in words ({counts['summary']})")
        shot(driver, "4-photo")
        # Text on a photo: the automatic reader (PP-OCRv4 for English) reads the board's printed labels.
        driver.execute_script("document.body.dataset.photoAnnotated = 'false'; document.getElementById('photo-text').checked = true")
        driver.find_element(By.ID, "photo-file").send_keys(BOARD)
        read = wait_for(driver, "return document.body.dataset.photoAnnotated === 'true' &&"
                                " document.getElementById('photo-text-list').textContent", timeout=60)
        check(bool(read) and "FOR HOME OR OFFICE USE" in read, f"the board's labels are read ({(read or '')[:80]})")
        driver.execute_script("document.getElementById('photo-text').checked = false")
        accessible(driver, "the photo view")

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
        # A photo from the server camera is saved at the camera's full size; the settings of a
        # video file standing in for a camera say it has none.
        driver.find_element(By.ID, "take-photo").click()
        saved = wait_for(driver, "return [...document.querySelectorAll('.toast')]"
                                 ".some(t => t.textContent.startsWith('Photo saved (640×480)'))", timeout=15)
        check(bool(saved), "Take photo saves the server camera's frame at its full size")
        driver.find_element(By.CSS_SELECTOR, "#camera-settings summary").click()
        none = wait_for(driver, "return document.getElementById('camera-settings-body').textContent.includes('no settings to change')",
                        timeout=10)
        check(bool(none), "a video file standing in for a camera has no settings to change, and the page says so")
        accessible(driver, "the server camera's photo button and settings")
        driver.find_element(By.ID, "stop").click()
        driver.find_element(By.ID, "tab-gallery").click()
        still = wait_for(driver, "const i = document.querySelector('#stills li img');"
                                 " return i && i.complete && i.naturalWidth === 320 && document.getElementById('stills-empty').offsetParent === null",
                         timeout=10)
        check(bool(still), "the photo is in the Gallery with its thumbnail")
        # Event clips: restarted keeping clips of faces (the camera's face is always in view, so
        # a 3 s clip is cut and listed with its event while nobody watches).
        server.terminate()
        server.wait()
        server, _ = start_server(data, port, ["--clips", "face", "--pre-roll", "1", "--post-roll", "1", "--max-clip-seconds", "3"])
        clip = wait_for(driver, "document.getElementById('refresh-gallery').click();"
                                " return [...document.querySelectorAll('#gallery .event')].map(e => e.textContent)"
                                ".find(t => t.startsWith('Clip: a face at '))", timeout=30, poll=1)
        check(bool(clip), f"an event clip is listed in the Gallery with its event ({clip})")
        shot(driver, "6-gallery-clips-photos")
        accessible(driver, "the Gallery with clips and photos")
        # Health of the whole run: no errors in the page's console (but the lost server's).
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "ERR_CONNECTION_REFUSED" not in e["message"]
                  and "WebSocket" not in e["message"]]
        check(not errors, f"no page errors ({errors[:2]})")
    finally:
        driver.quit()
    try:
        phone(url)
    finally:
        server.terminate()
        server.wait()
    print(f"screenshots in {ARTIFACTS}")
    if failures:
        print(f"{len(failures)} browser checks failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
