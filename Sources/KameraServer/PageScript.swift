/// The page's script: camera frames to `/v1/live` and results drawn over the video, or a
/// server camera's analysed frames from `/v1/cameras/N/live`; photos to `/v1/detect`. State a
/// test can read is kept on `window.kamera`.
enum PageScript {
    static let text = #"""
        "use strict";
        const $ = (id) => document.getElementById(id);
        const SVG = "http://www.w3.org/2000/svg";
        // How long a code's outline stays after its last sighting (the seeds' hide timer).
        const CODE_HIDE_MS = 200;
        const state = window.kamera = {
          connected: false, frames: 0, results: 0, dropped: 0, fps: 0, latencyMs: 0,
          faces: {}, codesShown: {}, history: [], lastResult: null, photoResult: null,
          recording: false, recordings: [], lastRecording: null, lastSeen: {}, source: null, serverFrames: 0,
        };

        // Tabs.
        for (const tab of document.querySelectorAll(".tab")) {
          tab.addEventListener("click", () => {
            for (const t of document.querySelectorAll(".tab")) t.classList.toggle("active", t === tab);
            for (const v of document.querySelectorAll(".view")) v.classList.toggle("hidden", v.id !== "view-" + tab.dataset.view);
            if (tab.dataset.view === "gallery") loadGallery();
          });
        }

        // Cameras: the browser's list, then the server's own (kamera serve --camera, values
        // "server:N"); the choice remembered.
        async function listCameras() {
          const select = $("camera");
          const choices = [];
          try {
            const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "videoinput");
            devices.forEach((d, i) => choices.push([d.label || "camera " + (i + 1), d.deviceId]));
          } catch (e) { setStatus("no camera access: " + e.message); }
          try {
            const response = await fetch("/v1/cameras");
            if (response.ok) for (const c of (await response.json()).cameras) choices.push(["server: " + c.name + " (" + c.path + ")", "server:" + c.index]);
          } catch (e) { /* the page still works with the browser's cameras */ }
          const current = select.value;
          select.innerHTML = "";
          for (const [label, value] of choices) select.add(new Option(label, value));
          const remembered = current || localStorage.getItem("kamera.camera");
          if (remembered && choices.some(([, value]) => value === remembered)) select.value = remembered;
          $("resolution").disabled = select.value.startsWith("server:");
        }
        $("camera").addEventListener("change", () => {
          localStorage.setItem("kamera.camera", $("camera").value);
          // A server camera sends its own frames at its own size.
          $("resolution").disabled = $("camera").value.startsWith("server:");
        });
        $("resolution").value = localStorage.getItem("kamera.resolution") || "640x480";
        $("resolution").addEventListener("change", () => localStorage.setItem("kamera.resolution", $("resolution").value));
        function setStatus(text) { $("status").textContent = text; }

        // Live.
        let socket = null, stream = null, nextId = 1, inFlight = new Map(), captureCanvas = document.createElement("canvas");
        let fpsWindow = [];
        // The live analysis options: every control with data-option="KEY" is the AnalysisOptions
        // key of that name (a checkbox a detector, a number field a number), so a new option is
        // one line of HTML.
        const optionControls = [...document.querySelectorAll("[data-option]")];
        function options() {
          const chosen = {};
          for (const control of optionControls) {
            const key = control.dataset.option;
            if (control.type === "checkbox") chosen[key] = control.checked;
            else if (control.type === "number") { if (control.value !== "" && control.checkValidity()) chosen[key] = Number(control.value); }
            else if (control.value !== "") chosen[key] = control.value;
          }
          return chosen;
        }
        for (const control of optionControls) {
          control.addEventListener("change", () => { if (socket && socket.readyState === 1) socket.send(JSON.stringify(options())); });
        }

        async function start() {
          if ($("camera").value.startsWith("server:")) return startServerCamera($("camera").value.slice(7));
          const [width, height] = $("resolution").value.split("x").map(Number);
          const video = { width: { ideal: width }, height: { ideal: height } };
          if ($("camera").value) video.deviceId = { exact: $("camera").value };
          try {
            stream = await navigator.mediaDevices.getUserMedia({ video, audio: false });
          } catch (e) { setStatus("camera: " + e.message); return; }
          $("video").srcObject = stream;
          await $("video").play().catch(() => {});
          await listCameras();
          const scheme = location.protocol === "https:" ? "wss:" : "ws:";
          socket = new WebSocket(scheme + "//" + location.host + "/v1/live");
          socket.binaryType = "arraybuffer";
          socket.onopen = () => { state.connected = true; setStatus("live"); socket.send(JSON.stringify(options())); pump(); };
          socket.onclose = () => { state.connected = false; setStatus("disconnected"); };
          socket.onerror = () => setStatus("connection error");
          socket.onmessage = (event) => received(JSON.parse(event.data));
          state.source = "browser";
          $("start").disabled = true; $("stop").disabled = false; $("record").disabled = false;
        }

        // A server camera: the server captures and analyses; each analysed frame arrives as a
        // binary message (4-byte frame number, JPEG) followed by its result, and is shown in
        // place of the video. Recording records the camera itself, at its full size and rate.
        let serverFrame = null;
        function startServerCamera(index) {
          const scheme = location.protocol === "https:" ? "wss:" : "ws:";
          socket = new WebSocket(scheme + "//" + location.host + "/v1/cameras/" + index + "/live");
          socket.binaryType = "arraybuffer";
          $("video").classList.add("hidden"); $("server-view").classList.remove("hidden");
          socket.onopen = () => { state.connected = true; setStatus("live: server camera " + index); socket.send(JSON.stringify(options())); };
          socket.onclose = () => { state.connected = false; setStatus("disconnected"); };
          socket.onerror = () => setStatus("connection error");
          socket.onmessage = async (event) => {
            if (typeof event.data === "string") { received(JSON.parse(event.data)); return; }
            const id = new DataView(event.data, 0, 4).getUint32(0, true);
            const blob = new Blob([new Uint8Array(event.data, 4)], { type: "image/jpeg" });
            const image = $("server-view"), old = image.src;
            image.src = URL.createObjectURL(blob);
            if (old) URL.revokeObjectURL(old);
            state.serverFrames++;
            serverFrame = { id, arrived: performance.now(), bitmap: await createImageBitmap(blob).catch(() => null) };
          };
          state.source = "server:" + index;
          $("start").disabled = true; $("stop").disabled = false; $("record").disabled = false;
        }

        function stop() {
          if (socket) socket.close();
          if (stream) stream.getTracks().forEach((t) => t.stop());
          socket = null; stream = null; inFlight.clear(); serverFrame = null; state.source = null;
          $("video").classList.remove("hidden"); $("server-view").classList.add("hidden");
          $("start").disabled = false; $("stop").disabled = true; $("record").disabled = true;
          setRecording(false);
          setStatus("idle");
        }

        // One capture loop: a new camera frame is encoded and sent only when fewer than two
        // are in flight (one being analysed, one waiting), so the server always has the
        // newest frame, frames go out in order and nothing queues up.
        let pumping = false;
        const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        const nextVideoFrame = (video) => new Promise((resolve) =>
          video.requestVideoFrameCallback ? video.requestVideoFrameCallback(() => resolve()) : setTimeout(resolve, 33));
        async function pump() {
          if (pumping) return;
          pumping = true;
          try {
            const video = $("video");
            while (socket && socket.readyState === 1) {
              if (inFlight.size >= 2 || !video.videoWidth) { await pause(5); continue; }
              captureCanvas.width = video.videoWidth; captureCanvas.height = video.videoHeight;
              captureCanvas.getContext("2d").drawImage(video, 0, 0);
              const id = nextId++;
              const frame = await createImageBitmap(captureCanvas);
              const blob = await new Promise((resolve) => captureCanvas.toBlob(resolve, "image/jpeg", 0.8));
              if (!blob || !socket || socket.readyState !== 1) break;
              const header = new Uint8Array(4);
              new DataView(header.buffer).setUint32(0, id, true);
              inFlight.set(id, { sent: performance.now(), frame });
              const bytes = await new Blob([header, blob]).arrayBuffer();
              // Stop may have closed the socket while the frame was being encoded.
              if (!socket || socket.readyState !== 1) { inFlight.delete(id); break; }
              socket.send(bytes);
              state.frames++;
              await nextVideoFrame(video);
            }
          } finally {
            pumping = false;
          }
        }

        function received(message) {
          if (message.recording && typeof message.recording === "object") { recordingFinished(message.recording); return; }
          if (message.skipped) { inFlight.delete(message.id); state.dropped = message.dropped; $("dropped").textContent = message.dropped; return; }
          if (message.error) {
            setStatus(message.error.message);
            if (message.id) inFlight.delete(message.id);
            return;
          }
          const now = performance.now();
          // A server camera's result follows its picture; its latency is the analysis time.
          const fromServer = serverFrame && serverFrame.id === message.id;
          const sent = fromServer ? { sent: now - message.analysisMs, frame: serverFrame.bitmap } : inFlight.get(message.id);
          // Frames sent before this one and never answered were dropped by the server.
          for (const id of inFlight.keys()) if (id < message.id) inFlight.delete(id);
          inFlight.delete(message.id);
          if (sent) state.latencyMs = Math.round(now - sent.sent);
          fpsWindow.push(now);
          while (fpsWindow.length && now - fpsWindow[0] > 2000) fpsWindow.shift();
          state.fps = fpsWindow.length > 1 ? Math.round(10 * (fpsWindow.length - 1) * 1000 / (now - fpsWindow[0])) / 10 : 0;
          state.results++;
          state.dropped = message.dropped;
          state.lastResult = message;
          $("fps").textContent = state.fps; $("latency").textContent = state.latencyMs; $("dropped").textContent = message.dropped;
          if (typeof message.recording === "number") {
            // A server camera may be recording for another page or an API call.
            if (!state.recording) setRecording(true);
            $("recording-state").textContent = "● REC " + message.recording.toFixed(1) + " s";
          }
          drawFaces($("faces"), message.faces, message.width, true);
          drawLive(message, now, sent && sent.frame);
        }

        // Faces: a red-bordered layer per face turned in 3-D, about Z by the roll and about -Y
        // by the yaw, under the parent's 1000 px perspective.
        function drawFaces(layer, faces, frameWidth, live) {
          const scale = layer.clientWidth / frameWidth;
          const seen = new Set();
          if (live) state.faces = {};
          faces.forEach((face, index) => {
            const key = live ? "face-" + face.faceID : "photo-face-" + index;
            seen.add(key);
            let box = layer.querySelector('[data-key="' + key + '"]');
            if (!box) {
              box = document.createElement("div");
              box.className = "face"; box.dataset.key = key;
              box.innerHTML = '<span class="label"></span>';
              layer.appendChild(box);
            }
            const b = face.pixelBox;
            box.style.left = b.x * scale + "px"; box.style.top = b.y * scale + "px";
            box.style.width = b.width * scale + "px"; box.style.height = b.height * scale + "px";
            box.style.transform = "rotateZ(" + (-face.roll) + "deg) rotateY(" + (-face.yaw) + "deg)";
            box.dataset.roll = face.roll; box.dataset.yaw = face.yaw;
            if (live) box.dataset.faceId = face.faceID;
            box.querySelector(".label").textContent = (live ? "face " + face.faceID + " · " : "") + "roll " + Math.round(face.roll) + "° yaw " + Math.round(face.yaw) + "°";
            if (live) state.faces[face.faceID] = { roll: face.roll, yaw: face.yaw, box: b, transform: box.style.transform };
          });
          for (const box of [...layer.children]) if (!seen.has(box.dataset.key)) box.remove();
        }

        function landmarkDots(svg, faces, scale) {
          for (const face of faces) {
            if (!face.landmarks) continue;
            const b = face.pixelBox;
            for (const region of Object.values(face.landmarks)) {
              for (const [x, y] of region) {
                const dot = document.createElementNS(SVG, "circle");
                dot.setAttribute("class", "landmark");
                dot.setAttribute("cx", (b.x + x * b.width) * scale);
                dot.setAttribute("cy", (b.y + (1 - y) * b.height) * scale);
                dot.setAttribute("r", 1.5);
                svg.appendChild(dot);
              }
            }
          }
        }

        // Codes keep their outline and message until CODE_HIDE_MS after the last frame that saw them.
        const shownCodes = new Map();
        function drawLive(message, now, frame) {
          const svg = $("marks");
          const scale = svg.clientWidth / message.width;
          for (const code of message.barcodes) {
            shownCodes.set(code.key, { code, scale, lastSeen: now });
            state.lastSeen[code.payload != null ? code.payload : code.key] = now;
            remember(code, frame);
          }
          renderMarks(svg, message, scale, now);
        }

        function renderMarks(svg, message, scale, now) {
          svg.innerHTML = "";
          state.codesShown = {};
          for (const [key, entry] of shownCodes) {
            if (now - entry.lastSeen > CODE_HIDE_MS) { shownCodes.delete(key); continue; }
            drawCode(svg, entry.code, entry.scale);
            state.codesShown[key] = { payload: entry.code.payload, lastSeen: entry.lastSeen };
          }
          if (message) {
            landmarkDots(svg, message.faces || [], scale);
            for (const line of message.text || []) drawTextBox(svg, line, scale);
          }
        }

        // Hide codes on time even when no new result arrives.
        setInterval(() => {
          if (!shownCodes.size) return;
          const now = performance.now();
          if ([...shownCodes.values()].some((e) => now - e.lastSeen > CODE_HIDE_MS)) {
            const last = state.lastResult;
            renderMarks($("marks"), last, last ? $("marks").clientWidth / last.width : 1, now);
          }
        }, 20);

        function drawCode(svg, code, scale) {
          const b = code.pixelBox;
          const oval = document.createElementNS(SVG, "ellipse");
          oval.setAttribute("class", "code-oval");
          oval.setAttribute("cx", (b.x + b.width / 2) * scale); oval.setAttribute("cy", (b.y + b.height / 2) * scale);
          oval.setAttribute("rx", b.width * scale * 0.75); oval.setAttribute("ry", b.height * scale * 0.75);
          svg.appendChild(oval);
          const quad = document.createElementNS(SVG, "polygon");
          quad.setAttribute("class", "code-quad");
          quad.setAttribute("points", code.pixelCorners.map(([x, y]) => x * scale + "," + y * scale).join(" "));
          svg.appendChild(quad);
          const label = document.createElementNS(SVG, "text");
          label.setAttribute("class", "code-text");
          label.setAttribute("x", b.x * scale); label.setAttribute("y", (b.y + b.height) * scale + 18);
          label.textContent = code.payload != null ? code.payload : "<" + atob(code.payloadBase64).length + " bytes>";
          svg.appendChild(label);
        }

        function drawTextBox(svg, line, scale) {
          const b = line.pixelBox;
          const rect = document.createElementNS(SVG, "rect");
          rect.setAttribute("class", "text-box");
          rect.setAttribute("x", b.x * scale); rect.setAttribute("y", b.y * scale);
          rect.setAttribute("width", b.width * scale); rect.setAttribute("height", b.height * scale);
          svg.appendChild(rect);
        }

        // Scan history: each code once per session, with a crop of where it was first seen.
        function remember(code, frame) {
          const key = code.symbology + "\u0000" + code.payloadBase64;
          if (state.history.some((h) => h.key === key)) return;
          let crop = "";
          if (frame) {
            const b = code.pixelBox, c = document.createElement("canvas");
            const side = Math.max(b.width, b.height) * 1.2;
            c.width = c.height = 96;
            c.getContext("2d").drawImage(frame, b.x + b.width / 2 - side / 2, b.y + b.height / 2 - side / 2, side, side, 0, 0, 96, 96);
            crop = c.toDataURL("image/jpeg", 0.8);
          }
          const entry = { key, payload: code.payload, payloadBase64: code.payloadBase64, symbology: code.symbology, time: new Date().toISOString(), crop };
          state.history.push(entry);
          const li = document.createElement("li");
          if (crop) { const img = document.createElement("img"); img.src = crop; img.alt = "code"; li.appendChild(img); }
          const text = document.createElement("div");
          text.textContent = entry.payload != null ? entry.payload : "<binary>";
          const meta = document.createElement("small");
          meta.textContent = entry.symbology + " · " + entry.time.slice(11, 19);
          text.appendChild(meta);
          li.appendChild(text);
          $("history").prepend(li);
        }
        function historyRows() { return state.history.map(({ crop, key, ...row }) => row); }
        function download(name, type, text) {
          const a = document.createElement("a");
          a.href = URL.createObjectURL(new Blob([text], { type }));
          a.download = name; a.click();
          setTimeout(() => URL.revokeObjectURL(a.href), 1000);
        }
        const csvField = (v) => '"' + String(v == null ? "" : v).replace(/"/g, '""') + '"';
        function historyCSV() {
          return ["time,symbology,payload,payloadBase64"].concat(historyRows().map((r) => [r.time, r.symbology, r.payload, r.payloadBase64].map(csvField).join(","))).join("\n") + "\n";
        }
        $("copy-history").addEventListener("click", () => navigator.clipboard.writeText(historyRows().map((r) => r.payload).join("\n")));
        $("export-csv").addEventListener("click", () => download("kamera-scans.csv", "text/csv", historyCSV()));
        $("export-json").addEventListener("click", () => download("kamera-scans.json", "application/json", JSON.stringify(historyRows(), null, 2)));
        $("clear-history").addEventListener("click", () => { state.history = []; $("history").innerHTML = ""; });
        // Recording: the server writes the frames it analyses into a crash-safe movie, within
        // the chosen limits (and its own), and announces it when it ends.
        function setRecording(on) {
          state.recording = on;
          $("record").textContent = on ? "■ Stop recording" : "● Record";
          if (!on) $("recording-state").textContent = "";
        }
        $("record").addEventListener("click", () => {
          if (!socket || socket.readyState !== 1) return;
          if (state.recording) {
            socket.send(JSON.stringify({ record: "stop" }));
          } else {
            socket.send(JSON.stringify({ record: "start", maxSeconds: Number($("record-seconds").value), maxMegabytes: Number($("record-megabytes").value) }));
            setRecording(true);
            $("recording-state").textContent = "● REC";
          }
        });
        function recordingFinished(entry) {
          state.lastRecording = entry;
          setRecording(false);
          setStatus("recorded " + entry.duration.toFixed(1) + " s (" + entry.stopReason + ")");
          loadGallery();
        }

        // Gallery: recordings with their thumbnails, played in the page.
        // A recording that ends while the Gallery tab opens starts two loads at once: only the
        // newest answer is drawn, and an unchanged list is left alone, so a button is never
        // swapped out from under the click that is landing on it.
        let galleryRequest = 0, galleryShown = "";
        async function loadGallery() {
          const request = ++galleryRequest;
          const response = await fetch("/v1/recordings");
          if (!response.ok) return;
          const recordings = (await response.json()).recordings;
          if (request !== galleryRequest) return;
          state.recordings = recordings;
          const signature = JSON.stringify(recordings);
          if (signature === galleryShown) return;
          galleryShown = signature;
          const list = $("gallery");
          list.innerHTML = "";
          for (const r of state.recordings) {
            const li = document.createElement("li");
            li.dataset.id = r.id;
            if (r.thumbnail) { const img = document.createElement("img"); img.src = r.thumbnail; img.alt = "thumbnail"; li.appendChild(img); }
            const meta = document.createElement("div");
            meta.className = "meta";
            meta.textContent = new Date(r.startedAt).toLocaleString() + " · " + r.duration.toFixed(1) + " s · " + (r.bytes / 1048576).toFixed(1) + " MB · " + r.stopReason + (r.source && r.source !== "browser" ? " · " + r.source : "");
            li.appendChild(meta);
            const play = document.createElement("button");
            play.textContent = "Play"; play.className = "play";
            play.addEventListener("click", () => { const p = $("player"); p.classList.remove("hidden"); p.src = r.movie; p.play().catch(() => {}); });
            const remove = document.createElement("button");
            remove.textContent = "Delete";
            remove.addEventListener("click", async () => { await fetch("/v1/recordings/" + r.id, { method: "DELETE" }); loadGallery(); });
            li.append(play, remove);
            list.appendChild(li);
          }
          $("gallery-summary").textContent = state.recordings.length + " recordings";
        }
        $("refresh-gallery").addEventListener("click", loadGallery);
        $("start").addEventListener("click", start);
        $("stop").addEventListener("click", stop);
        listCameras();

        // Photo: drop or pick an image; faces with landmarks and pose, codes and text drawn on it.
        async function analysePhoto(file) {
          const flags = [["photo-codes", "barcodes"], ["photo-faces", "faces"], ["photo-landmarks", "landmarks"], ["photo-text", "recognize"]]
            .filter(([id]) => $(id).checked).map(([, flag]) => flag);
          setStatus("analysing " + file.name);
          const response = await fetch("/v1/detect?" + flags.join("&") + "&name=" + encodeURIComponent(file.name), { method: "POST", body: file });
          const body = await response.json();
          $("photo-json").textContent = JSON.stringify(body, null, 2);
          if (!response.ok) { setStatus(body.error.message); $("photo-summary").textContent = body.error.message + " — " + body.error.hint; return; }
          const result = body.results[0];
          state.photoResult = result;
          const img = $("photo");
          img.src = URL.createObjectURL(file);
          await img.decode().catch(() => {});
          $("photo-box").classList.remove("hidden");
          const scale = img.clientWidth / result.width;
          drawFaces($("photo-faces-layer"), result.faces || [], result.width, false);
          const svg = $("photo-marks");
          svg.innerHTML = "";
          for (const code of result.barcodes || []) drawCode(svg, code, scale);
          landmarkDots(svg, result.faces || [], scale);
          for (const line of result.text || []) drawTextBox(svg, line, scale);
          const counts = [["faces", result.faces], ["codes", result.barcodes], ["text lines", result.text]]
            .filter(([, list]) => list).map(([name, list]) => list.length + " " + name);
          $("photo-summary").textContent = result.width + "×" + result.height + ": " + counts.join(", ");
          document.body.dataset.photoAnnotated = "true";
          setStatus("idle");
        }
        $("photo-file").addEventListener("change", (e) => { if (e.target.files[0]) analysePhoto(e.target.files[0]); });
        const drop = $("drop");
        drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
        drop.addEventListener("dragleave", () => drop.classList.remove("over"));
        drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); if (e.dataTransfer.files[0]) analysePhoto(e.dataTransfer.files[0]); });
        """#
}
