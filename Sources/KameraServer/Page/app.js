"use strict";
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// How long a code's outline stays after its last sighting (the seeds' hide timer).
const CODE_HIDE_MS = 200;
const state = window.kamera = {
  connected: false, frames: 0, results: 0, dropped: 0, fps: 0, latencyMs: 0,
  faces: {}, codesShown: {}, history: [], lastResult: null, photoResult: null,
  recording: false, recordings: [], lastRecording: null, lastSeen: {}, source: null, serverFrames: 0,
  phase: "idle", reconnects: 0, cameraSize: null, liveText: [],
};
const STOP_REASONS = {
  finished: "stopped", maximumDurationReached: "time limit reached", maximumFileSizeReached: "size limit reached",
  diskSpaceLow: "server disk nearly full", diskFull: "server disk full", writeFailed: "could not be written",
  disconnected: "page disconnected", cameraLost: "camera lost", serverStopped: "server stopped", interrupted: "interrupted (server restarted)",
  eventEnded: "event over",
};
const EVENT_NAMES = { face: "a face", code: "a code", person: "a person" };
const humanReason = (reason) => STOP_REASONS[reason] || reason || "being written";

// Status in words (idle, live, recording, reconnecting), announced to screen readers.
function setPhase(phase, detail) {
  state.phase = phase;
  const status = $("status");
  status.dataset.state = phase;
  status.textContent = detail ? phase + ": " + detail : phase;
}
function setStatus(text) { $("status").textContent = text; }

// Toasts: saved recordings, new codes, errors; polite for screen readers.
function toast(text, kind) {
  const item = document.createElement("div");
  item.className = "toast" + (kind === "error" ? " error" : "");
  item.textContent = text;
  $("toasts").appendChild(item);
  setTimeout(() => item.remove(), kind === "error" ? 8000 : 4000);
}

// Tabs: buttons with tab semantics; arrow keys move between them.
const tabs = [...document.querySelectorAll(".tab")];
function selectTab(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.classList.toggle("active", on);
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
  }
  for (const v of document.querySelectorAll(".view")) v.classList.toggle("hidden", v.id !== "view-" + tab.dataset.view);
  if (tab.dataset.view === "gallery") loadGallery();
}
tabs.forEach((tab, index) => {
  tab.addEventListener("click", () => selectTab(tab));
  tab.addEventListener("keydown", (e) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    const next = tabs[(index + step + tabs.length) % tabs.length];
    next.focus();
    selectTab(next);
  });
});

// Cameras: the browser's list, then the server's own (kamera serve --camera, values
// "server:N"); the choice remembered.
async function listCameras() {
  const select = $("camera");
  const choices = [];
  try {
    const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "videoinput");
    devices.forEach((d, i) => choices.push([d.label || "camera " + (i + 1), d.deviceId]));
  } catch (e) { /* no camera API (an insecure origin): the server's cameras still work */ }
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
  showServerCamera();
}
$("camera").addEventListener("change", () => {
  localStorage.setItem("kamera.camera", $("camera").value);
  // A server camera sends its own frames at its own size.
  $("resolution").disabled = $("camera").value.startsWith("server:");
  showServerCamera();
});

// A server camera: a photo button, whether it keeps event clips, and its settings (focus,
// exposure, white balance, zoom, torch, mains frequency) as its driver supports them.
function serverCameraIndex() { const v = $("camera").value; return v.startsWith("server:") ? v.slice(7) : null; }
async function errorText(response) {
  try { const e = (await response.json()).error; return e.message + (e.hint ? " (" + e.hint + ")" : ""); } catch (e) { return "HTTP " + response.status; }
}
let serverCamera = null;
async function showServerCamera() {
  const index = serverCameraIndex();
  $("server-camera").classList.toggle("hidden", index === null);
  $("camera-settings").open = false;
  $("camera-settings-body").replaceChildren();
  $("clips-state").textContent = "";
  serverCamera = null;
  if (index === null) return;
  try {
    const response = await fetch("/v1/cameras");
    if (!response.ok) return;
    const camera = (await response.json()).cameras.find((c) => String(c.index) === index);
    if (serverCameraIndex() === index) serverCamera = camera;
    if (camera && camera.clips && serverCameraIndex() === index) {
      const events = camera.clips.events.map((e) => EVENT_NAMES[e] || e).join(", ");
      $("clips-state").textContent = "Saves a clip whenever " + events + " comes into view (" + camera.clips.preRoll + " s before, "
        + camera.clips.postRoll + " s after)" + (camera.clips.writing ? " · saving one now" : "") + ".";
    }
  } catch (e) { /* the camera list is only a nicety here */ }
}
$("take-photo").addEventListener("click", async () => {
  const index = serverCameraIndex();
  if (index === null) return;
  $("take-photo").disabled = true;
  try {
    const response = await fetch("/v1/cameras/" + index + "/photo", { method: "POST" });
    if (response.ok) {
      const still = (await response.json()).still;
      toast("Photo saved (" + still.width + "×" + still.height + (still.facesCovered ? ", faces covered" : "") + "). It is in the Gallery.");
    } else toast("No photo: " + await errorText(response), "error");
  } catch (e) { toast("No photo: the server did not answer.", "error"); }
  $("take-photo").disabled = false;
});
$("camera-settings").addEventListener("toggle", () => { if ($("camera-settings").open) loadCameraSettings(); });
async function loadCameraSettings() {
  const index = serverCameraIndex(), body = $("camera-settings-body");
  if (index === null) return;
  if (serverCamera && !serverCamera.hasControls) {
    body.replaceChildren(paragraph("This camera has no settings to change: it is a video file standing in for a camera, or its driver lists no controls."));
    return;
  }
  body.replaceChildren(paragraph("Asking the camera…"));
  let response;
  try { response = await fetch("/v1/cameras/" + index + "/controls"); } catch (e) { body.replaceChildren(paragraph("The server did not answer.")); return; }
  if (!response.ok) { body.replaceChildren(paragraph(await errorText(response))); return; }
  renderCameraSettings(index, await response.json());
}
function paragraph(text) { const p = document.createElement("p"); p.textContent = text; return p; }
// One control per setting the driver supports; a change is sent at once (PUT), and the
// driver's answer (or its refusal) is shown.
function renderCameraSettings(index, listing) {
  const body = $("camera-settings-body"), s = listing.supports, items = [];
  const send = async (settings) => {
    let response;
    try {
      response = await fetch("/v1/cameras/" + index + "/controls", { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify(settings) });
    } catch (e) { toast("The server did not answer.", "error"); return; }
    if (response.ok) toast("Camera set: " + Object.entries(settings).map(([k, v]) => k + " " + v).join(", ") + ".");
    else toast("Not set: " + await errorText(response), "error");
  };
  const choice = (label, key, values) => {
    if (!values.length) return;
    const select = document.createElement("select");
    select.add(new Option("—", ""));
    for (const v of values) select.add(new Option(v, v));
    select.addEventListener("change", () => { if (select.value) send({ [key]: select.value }); });
    const l = document.createElement("label"); l.append(label + " ", select); items.push(l);
  };
  const slider = (label, key, min, max, step, extra) => {
    const input = document.createElement("input");
    Object.assign(input, { type: "range", min, max, step, value: min });
    input.addEventListener("change", () => send({ ...extra, [key]: Number(input.value) }));
    const l = document.createElement("label"); l.append(label + " ", input); items.push(l);
  };
  const toggle = (label, key, on, off) => {
    const input = document.createElement("input"); input.type = "checkbox";
    input.addEventListener("change", () => send({ [key]: input.checked ? on : off }));
    const l = document.createElement("label"); l.append(input, " " + label); items.push(l);
  };
  choice("Focus", "focusMode", s.focusModes);
  if (s.autoFocusRangeRestriction) choice("Focus range", "autoFocusRangeRestriction", ["none", "near", "far"]);
  if (s.smoothAutoFocus) toggle("smooth autofocus", "isSmoothAutoFocusEnabled", true, false);
  if (s.lensPosition) slider("Lens (near … far)", "lensPosition", 0, 1, 0.01, { focusMode: "locked" });
  choice("Exposure", "exposureMode", s.exposureModes.filter((m) => m !== "custom"));
  if (s.exposureModes.includes("continuous")) slider("Brightness (EV)", "exposureTargetBias", -2, 2, 0.1, {});
  choice("White balance", "whiteBalanceMode", s.whiteBalanceModes);
  if (s.maxZoomFactor > 1) slider("Zoom", "videoZoomFactor", 1, s.maxZoomFactor, 0.1, {});
  if (s.torch) toggle("torch", "torchMode", "on", "off");
  if (s.powerLineFrequency) choice("Mains", "powerLineFrequency", ["50", "60", "auto", "disabled"]);
  if (!items.length) items.push(paragraph("The driver lists controls, but none that maps to a setting here."));
  const raw = document.createElement("details");
  raw.innerHTML = "<summary>Driver controls</summary>";
  const list = document.createElement("ul");
  for (const c of listing.controls) {
    const li = document.createElement("li");
    li.textContent = c.name + ": " + (c.value ?? "–") + (c.kind === "integer" ? " (" + c.minimum + "…" + c.maximum + ")" : "") + (c.isInactive ? ", inactive" : "");
    list.appendChild(li);
  }
  raw.appendChild(list);
  body.replaceChildren(...items, raw);
}
$("resolution").value = localStorage.getItem("kamera.resolution") || "640x480";
$("resolution").addEventListener("change", () => localStorage.setItem("kamera.resolution", $("resolution").value));
$("beep").checked = localStorage.getItem("kamera.beep") === "true";
$("beep").addEventListener("change", () => localStorage.setItem("kamera.beep", String($("beep").checked)));

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
  control.addEventListener("change", () => {
    if (socket && socket.readyState === 1) socket.send(JSON.stringify(options()));
    // What is no longer looked for is no longer drawn.
    renderLive(performance.now());
    showSource();
  });
}

// Live: one session at a time, from the browser's camera or a server camera; the socket is
// reconnected with back-off when it drops, and everything drawn is cleared meanwhile.
let socket = null, stream = null, nextId = 1, inFlight = new Map(), captureCanvas = document.createElement("canvas");
let fpsWindow = [], wanted = null, retryTimer = null, retryDelay = 1000;

async function start() {
  clearTimeout(retryTimer);
  $("banner").classList.add("hidden");
  if ($("camera").value.startsWith("server:")) {
    wanted = { kind: "server", index: $("camera").value.slice(7) };
  } else {
    if (!stream && !(await openCamera())) return;
    wanted = { kind: "browser" };
  }
  connect();
}

async function openCamera() {
  const [width, height] = $("resolution").value.split("x").map(Number);
  const video = { width: { ideal: width }, height: { ideal: height } };
  if ($("camera").value) video.deviceId = { exact: $("camera").value };
  else if (matchMedia("(pointer: coarse)").matches) video.facingMode = { ideal: "environment" };  // the back camera on phones
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video, audio: false });
  } catch (e) {
    const denied = e.name === "NotAllowedError" || e.name === "SecurityError";
    const how = denied
      ? "Camera permission was denied. Allow the camera for this site (the camera icon in the address bar), then press Start."
      : location.protocol !== "https:" && location.hostname !== "localhost" && location.hostname !== "127.0.0.1"
        ? "Browsers only give pages on https or localhost a camera: open this page through https, or use a server camera."
        : "The camera could not be opened (" + e.message + ").";
    $("prompt").textContent = how;
    $("prompt").classList.remove("hidden");
    toast(how, "error");
    setPhase("idle");
    return false;
  }
  $("video").srcObject = stream;
  await $("video").play().catch(() => {});
  const settings = stream.getVideoTracks()[0].getSettings();
  state.cameraSize = settings.width + "×" + settings.height;
  $("camera-size").textContent = "camera " + state.cameraSize;
  if (settings.width && settings.width !== width) toast("Asked for " + width + "×" + height + "; the camera gives " + state.cameraSize + ".");
  await listCameras();
  return true;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const server = wanted.kind === "server";
  const path = server ? "/v1/cameras/" + wanted.index + "/live" : "/v1/live";
  const current = socket = new WebSocket(scheme + "//" + location.host + path);
  socket.binaryType = "arraybuffer";
  showSource();
  $("prompt").classList.add("hidden");
  setPhase("connecting");
  socket.onopen = () => {
    state.connected = true;
    showSource();
    retryDelay = 1000;
    $("banner").classList.add("hidden");
    setPhase(state.recording ? "recording" : "live", server ? "server camera " + wanted.index : "");
    socket.send(JSON.stringify(options()));
    if (!server) pump();
  };
  socket.onclose = () => { if (current === socket) dropped(); };
  socket.onmessage = server ? serverMessage : browserMessage;
  state.source = server ? "server:" + wanted.index : "browser";
  $("start").disabled = true; $("stop").disabled = false; $("record").disabled = false;
}

// The socket closed without Stop: clear what is drawn and retry with back-off (1 s, 2 s, …
// 15 s); Reconnect tries at once.
function dropped() {
  state.connected = false;
  socket = null; inFlight.clear();
  clearOverlays();
  setRecording(false);
  if (!wanted) return;
  state.reconnects++;
  const seconds = Math.round(retryDelay / 1000);
  $("banner-text").textContent = "The connection to the server was lost. Reconnecting in " + seconds + " s…";
  $("banner").classList.remove("hidden");
  setPhase("reconnecting", "in " + seconds + " s");
  $("start").disabled = false; $("record").disabled = true;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => { if (wanted) connect(); }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, 15000);
}
$("reconnect").addEventListener("click", () => { if (!wanted) return; retryDelay = 1000; clearTimeout(retryTimer); connect(); });

// The picture shown: the page's own camera, or the server's frames (a server camera's, or
// the page's own frames sent back changed by the server: background replaced, faces covered).
function changedByServer() { const chosen = options(); return !!(chosen.background || chosen.redact); }
function showSource() {
  const serverPictures = (wanted && wanted.kind === "server") || (state.connected && changedByServer());
  $("video").classList.toggle("hidden", serverPictures);
  $("server-view").classList.toggle("hidden", !serverPictures);
}

// A binary message: a frame's number, then the frame as JPEG.
function showPicture(data) {
  const id = new DataView(data, 0, 4).getUint32(0, true);
  const blob = new Blob([new Uint8Array(data, 4)], { type: "image/jpeg" });
  const image = $("server-view"), old = image.src;
  image.src = URL.createObjectURL(blob);
  if (old) URL.revokeObjectURL(old);
  state.serverFrames++;
  return { id, blob };
}

let serverFrame = null;
async function serverMessage(event) {
  if (typeof event.data === "string") { received(JSON.parse(event.data)); return; }
  const { id, blob } = showPicture(event.data);
  serverFrame = { id, arrived: performance.now(), bitmap: await createImageBitmap(blob).catch(() => null) };
}

function browserMessage(event) {
  if (typeof event.data === "string") received(JSON.parse(event.data));
  else if (changedByServer()) showPicture(event.data);
}

function stop() {
  wanted = null;
  clearTimeout(retryTimer);
  const closing = socket;
  socket = null;
  if (closing) closing.close();
  if (stream) stream.getTracks().forEach((t) => t.stop());
  stream = null; inFlight.clear(); serverFrame = null; state.source = null; state.connected = false;
  showSource();
  $("start").disabled = false; $("stop").disabled = true; $("record").disabled = true;
  $("banner").classList.add("hidden");
  $("prompt").classList.remove("hidden");
  $("camera-size").textContent = "";
  setRecording(false);
  clearOverlays();
  setPhase("idle");
}

// Everything drawn over the video and every figure, as when nothing runs.
function clearOverlays() {
  shownCodes.clear();
  state.lastResult = null; state.faces = {}; state.codesShown = {}; state.fps = 0; state.liveText = [];
  fpsWindow = [];
  $("faces").innerHTML = "";
  $("marks").innerHTML = "";
  $("live-text").innerHTML = "";
  $("fps").textContent = "–"; $("latency").textContent = "–"; $("dropped").textContent = "0";
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
  if (!socket) return;  // stopped or dropped: late messages draw nothing
  if (message.recording && typeof message.recording === "object") { recordingFinished(message.recording); return; }
  if (message.skipped) { inFlight.delete(message.id); state.dropped = message.dropped; $("dropped").textContent = message.dropped; return; }
  if (message.error) {
    toast(message.error.message + (message.error.hint ? " — " + message.error.hint : ""), "error");
    if (message.id) inFlight.delete(message.id);
    if (!message.id && state.recording && /record/i.test(message.error.message)) setRecording(false);
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
  setFrameSize($("live-box"), $("marks"), message.width, message.height);
  for (const code of message.barcodes) {
    shownCodes.set(code.key, { code, lastSeen: now });
    state.lastSeen[code.payload != null ? code.payload : code.key] = now;
    remember(code, sent && sent.frame);
  }
  showLiveText(message.text);
  renderLive(now);
}

// On a desktop the preview is as tall as the window leaves below the controls above it
// (which wrap differently at each width), so it is always wholly in view.
function fitPreview() {
  const box = $("live-box");
  const top = box.getBoundingClientRect().top + scrollY;
  box.style.setProperty("--room", Math.max(160, innerHeight - top - 8) + "px");
}
addEventListener("resize", fitPreview);
// The header, the banner (shown while reconnecting) and the controls above can each move it.
for (const above of [document.querySelector("header"), $("banner")]) new ResizeObserver(fitPreview).observe(above);
for (const controls of document.querySelectorAll("#view-live > .controls")) new ResizeObserver(fitPreview).observe(controls);
fitPreview();

// The box takes the frame's aspect ratio and the overlay its coordinates (viewBox), so
// every mark is placed in frame pixels and stays on its object at any displayed size.
function setFrameSize(box, svg, width, height) {
  box.style.setProperty("--aspect", String(width / height));
  const viewBox = "0 0 " + width + " " + height;
  if (svg.getAttribute("viewBox") !== viewBox) svg.setAttribute("viewBox", viewBox);
}

// Faces: a red-bordered layer per face turned in 3-D, about Z by the roll and about -Y
// by the yaw, under the parent's 1000 px perspective; placed in percent of the frame.
function drawFaces(layer, faces, frameWidth, frameHeight, live) {
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
    box.style.left = (100 * b.x / frameWidth) + "%"; box.style.top = (100 * b.y / frameHeight) + "%";
    box.style.width = (100 * b.width / frameWidth) + "%"; box.style.height = (100 * b.height / frameHeight) + "%";
    box.style.transform = "rotateZ(" + (-face.roll) + "deg) rotateY(" + (-face.yaw) + "deg)";
    box.dataset.roll = face.roll; box.dataset.yaw = face.yaw;
    if (live) box.dataset.faceId = face.faceID;
    box.querySelector(".label").textContent = (live ? "face " + face.faceID + " · " : "") + "roll " + Math.round(face.roll) + "° yaw " + Math.round(face.yaw) + "°";
    if (live) state.faces[face.faceID] = { roll: face.roll, yaw: face.yaw, box: b, transform: box.style.transform };
  });
  for (const box of [...layer.children]) if (!seen.has(box.dataset.key)) box.remove();
}

function landmarkDots(svg, faces, frameWidth) {
  for (const face of faces) {
    if (!face.landmarks) continue;
    const b = face.pixelBox;
    for (const region of Object.values(face.landmarks)) {
      for (const [x, y] of region) {
        const dot = document.createElementNS(SVG, "circle");
        dot.setAttribute("class", "landmark");
        dot.setAttribute("cx", b.x + x * b.width);
        dot.setAttribute("cy", b.y + (1 - y) * b.height);
        dot.setAttribute("r", Math.max(1, frameWidth / 400));
        svg.appendChild(dot);
      }
    }
  }
}

// Codes keep their outline and message until CODE_HIDE_MS after the last frame that saw them.
const shownCodes = new Map();
function renderLive(now) {
  const message = state.lastResult;
  const svg = $("marks");
  svg.innerHTML = "";
  state.codesShown = {};
  const chosen = options();
  if (!message) return;
  const width = message.width;
  if (chosen.barcodes) {
    for (const [key, entry] of shownCodes) {
      if (now - entry.lastSeen > CODE_HIDE_MS) { shownCodes.delete(key); continue; }
      drawCode(svg, entry.code, width);
      state.codesShown[key] = { payload: entry.code.payload, lastSeen: entry.lastSeen };
    }
  }
  // Face layers only while "faces" is ticked; landmarks alone show just their points.
  drawFaces($("faces"), chosen.faces ? message.faces : [], width, message.height, true);
  if (chosen.landmarks) landmarkDots(svg, message.faces || [], width);
  if (chosen.text) for (const line of state.liveText) drawTextBox(svg, line, width);
  if (chosen.bodies) drawBodies(svg, message.bodies || [], width);
  if (chosen.hands) drawHands(svg, message.hands || [], width);
}

// Skeletons: Vision's joints joined bone by bone; joints the model is unsure of are left out.
const BONES = [["leftEar", "leftEye"], ["leftEye", "nose"], ["nose", "rightEye"], ["rightEye", "rightEar"], ["nose", "neck"],
  ["leftShoulder", "rightShoulder"], ["leftShoulder", "leftElbow"], ["leftElbow", "leftWrist"], ["rightShoulder", "rightElbow"],
  ["rightElbow", "rightWrist"], ["neck", "root"], ["leftHip", "rightHip"], ["leftHip", "leftKnee"], ["leftKnee", "leftAnkle"],
  ["rightHip", "rightKnee"], ["rightKnee", "rightAnkle"]];
function drawBodies(svg, bodies, frameWidth) {
  for (const body of bodies) {
    const joints = new Map(body.joints.filter((j) => j.confidence >= 0.5).map((j) => [j.name, j]));
    const path = BONES.filter(([a, b]) => joints.has(a) && joints.has(b))
      .map(([a, b]) => "M" + joints.get(a).x + " " + joints.get(a).y + "L" + joints.get(b).x + " " + joints.get(b).y).join("");
    svgPath(svg, "bone", path);
    for (const joint of joints.values()) svgDot(svg, "joint", joint.x, joint.y, Math.max(2, frameWidth / 200));
    svgLabel(svg, "#" + body.bodyID, body.pixelBox.x + body.pixelBox.width / 2, body.pixelBox.y - 6, frameWidth);
  }
}

// Hands: each finger from the wrist through its joints; left and right hands in two colours.
function drawHands(svg, hands, frameWidth) {
  for (const hand of hands) {
    const p = hand.joints;
    if (p.length !== 21) continue;
    let path = "";
    for (let finger = 0; finger < 5; finger++) {
      path += "M" + p[0].x + " " + p[0].y;
      for (let k = 1; k <= 4; k++) path += "L" + p[4 * finger + k].x + " " + p[4 * finger + k].y;
    }
    svgPath(svg, "finger " + hand.chirality, path);
    for (const joint of p) svgDot(svg, "hand-joint " + hand.chirality, joint.x, joint.y, Math.max(1.5, frameWidth / 320));
  }
}

function svgPath(svg, className, d) {
  if (!d) return;
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("class", className);
  path.setAttribute("d", d);
  svg.appendChild(path);
}
function svgDot(svg, className, x, y, r) {
  const dot = document.createElementNS(SVG, "circle");
  dot.setAttribute("class", className);
  dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", r);
  svg.appendChild(dot);
}
function svgLabel(svg, text, x, y, frameWidth) {
  const label = document.createElementNS(SVG, "text");
  label.setAttribute("class", "body-id");
  label.setAttribute("x", x); label.setAttribute("y", Math.max(14, y));
  label.setAttribute("text-anchor", "middle");
  label.setAttribute("font-size", Math.max(12, frameWidth / 40));
  label.textContent = text;
  svg.appendChild(label);
}

// Hide codes on time even when no new result arrives.
setInterval(() => {
  if (!shownCodes.size) return;
  const now = performance.now();
  if ([...shownCodes.values()].some((e) => now - e.lastSeen > CODE_HIDE_MS)) renderLive(now);
}, 20);

function drawCode(svg, code, frameWidth) {
  const b = code.pixelBox;
  const oval = document.createElementNS(SVG, "ellipse");
  oval.setAttribute("class", "code-oval");
  oval.setAttribute("cx", b.x + b.width / 2); oval.setAttribute("cy", b.y + b.height / 2);
  oval.setAttribute("rx", b.width * 0.75); oval.setAttribute("ry", b.height * 0.75);
  svg.appendChild(oval);
  const quad = document.createElementNS(SVG, "polygon");
  quad.setAttribute("class", "code-quad");
  quad.setAttribute("points", code.pixelCorners.map(([x, y]) => x + "," + y).join(" "));
  svg.appendChild(quad);
  const text = code.payload != null ? code.payload : "<" + atob(code.payloadBase64).length + " bytes>";
  const size = Math.max(12, frameWidth / 32);
  const label = document.createElementNS(SVG, "text");
  label.setAttribute("class", "code-text");
  label.setAttribute("font-size", size);
  // Kept inside the frame: a label that would run off the right edge ends at it.
  const estimated = text.length * size * 0.68;  // bold DejaVu-like glyphs
  const x = Math.max(0, Math.min(b.x, frameWidth - estimated));
  label.setAttribute("x", x);
  label.setAttribute("y", b.y + b.height + size * 1.2);
  label.textContent = text;
  svg.appendChild(label);
}

// A text line: its box, and its words above it.
function drawTextBox(svg, line, frameWidth) {
  const b = line.pixelBox;
  const rect = document.createElementNS(SVG, "rect");
  rect.setAttribute("class", "text-box");
  rect.setAttribute("x", b.x); rect.setAttribute("y", b.y);
  rect.setAttribute("width", b.width); rect.setAttribute("height", b.height);
  svg.appendChild(rect);
  if (line.string) {
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("class", "word");
    label.setAttribute("font-size", Math.max(10, Math.min(b.height, frameWidth / 40)));
    label.setAttribute("x", b.x); label.setAttribute("y", Math.max(b.y - 2, 10));
    label.textContent = line.string;
    svg.appendChild(label);
  }
}

// Live text arrives at its own pace (with the time of the frame it was found on): listed
// under the preview and drawn until the next finds replace it.
function showLiveText(lines) {
  if (!lines) return;
  state.liveText = lines;
  const list = $("live-text");
  list.innerHTML = "";
  for (const line of lines) {
    if (!line.string || !line.string.trim()) continue;
    const li = document.createElement("li");
    li.textContent = line.string;
    list.appendChild(li);
  }
}

// Scan history: each code once per session, with a crop of where it was first seen; codes
// from earlier sessions are loaded from the server.
function historyKey(code) { return code.symbology + "\u0000" + code.payloadBase64; }
function remember(code, frame) {
  const key = historyKey(code);
  const known = state.history.find((h) => h.key === key);
  if (known && !known.earlier) return;
  let crop = "";
  if (frame) {
    const b = code.pixelBox, c = document.createElement("canvas");
    const side = Math.max(b.width, b.height) * 1.2;
    c.width = c.height = 96;
    c.getContext("2d").drawImage(frame, b.x + b.width / 2 - side / 2, b.y + b.height / 2 - side / 2, side, side, 0, 0, 96, 96);
    crop = c.toDataURL("image/jpeg", 0.8);
  }
  if (known) { state.history.splice(state.history.indexOf(known), 1); known.element.remove(); }
  addHistory({ key, payload: code.payload, payloadBase64: code.payloadBase64, symbology: code.symbology, time: new Date().toISOString(), crop });
  toast("New code: " + (code.payload != null ? code.payload : code.symbology));
  if ($("beep").checked) confirmScan();
}
function addHistory(entry, atEnd) {
  state.history.push(entry);
  const li = document.createElement("li");
  entry.element = li;
  if (entry.crop) { const img = document.createElement("img"); img.src = entry.crop; img.alt = "where the code was seen"; li.appendChild(img); }
  const text = document.createElement("div");
  if (entry.payload != null && /^https?:\/\//i.test(entry.payload)) {
    const link = document.createElement("a");
    link.href = entry.payload; link.textContent = entry.payload; link.target = "_blank"; link.rel = "noopener noreferrer";
    text.appendChild(link);
  } else {
    text.appendChild(document.createTextNode(entry.payload != null ? entry.payload : "<binary>"));
  }
  const meta = document.createElement("small");
  meta.textContent = entry.symbology + " · " + (entry.earlier ? "earlier, " + new Date(entry.time).toLocaleString() : entry.time.slice(11, 19));
  text.appendChild(meta);
  li.appendChild(text);
  if (atEnd) $("history").appendChild(li); else $("history").prepend(li);
  $("copy-history").disabled = false;
}
async function loadEarlierCodes() {
  try {
    const response = await fetch("/v1/codes?limit=50");
    if (!response.ok) return;
    for (const code of (await response.json()).codes) {
      const key = historyKey(code);
      if (state.history.some((h) => h.key === key)) continue;
      addHistory({ key, payload: code.payload, payloadBase64: code.payloadBase64, symbology: code.symbology, time: code.firstSeen, crop: "", earlier: true }, true);
    }
  } catch (e) { /* the history of this session still works */ }
}
// A short beep and a vibration when a new code is read (the setting is remembered).
let audio = null;
function confirmScan() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 880; gain.gain.value = 0.1;
    tone.connect(gain).connect(audio.destination);
    tone.start(); tone.stop(audio.currentTime + 0.08);
  } catch (e) { /* no audio */ }
  if (navigator.vibrate) navigator.vibrate(60);
}
function historyRows() { return state.history.map(({ crop, key, element, ...row }) => row); }
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
async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Copied " + what + ".");
  } catch (e) { toast("Could not copy: " + e.message, "error"); }
}
$("copy-history").addEventListener("click", () => {
  const payloads = historyRows().filter((r) => r.payload != null).map((r) => r.payload);
  if (!payloads.length) { toast("Nothing to copy yet.", "error"); return; }
  copyText(payloads.join("\n"), payloads.length + (payloads.length === 1 ? " code" : " codes"));
});
$("copy-history").disabled = true;
$("export-csv").addEventListener("click", () => download("kamera-scans.csv", "text/csv", historyCSV()));
$("export-json").addEventListener("click", () => download("kamera-scans.json", "application/json", JSON.stringify(historyRows(), null, 2)));
$("clear-history").addEventListener("click", () => { state.history = []; $("history").innerHTML = ""; $("copy-history").disabled = true; });

// Recording: the server writes the frames (or, for a server camera, the camera itself) into
// a crash-safe movie within the chosen limits (and its own), and announces it when it ends.
function setRecording(on) {
  state.recording = on;
  $("record").textContent = on ? "■ Stop recording" : "● Record";
  $("record").setAttribute("aria-pressed", String(on));
  if (!on) $("recording-state").textContent = "";
  if (state.connected) setPhase(on ? "recording" : "live", state.source && state.source.startsWith("server:") ? "server camera " + state.source.slice(7) : "");
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
  toast("Recording saved: " + entry.duration.toFixed(1) + " s, " + humanReason(entry.stopReason) + ". It is in the Gallery.");
  loadGallery();
}

// Gallery: a grid of recordings with thumbnails; one plays in place above the grid.
// A recording that ends while the Gallery tab opens starts two loads at once: only the
// newest answer is drawn, and an unchanged list is left alone, so a button is never
// swapped out from under the click that is landing on it.
let galleryRequest = 0, galleryShown = "", playing = null;
async function loadGallery() {
  loadStills();
  const request = ++galleryRequest;
  let response;
  try { response = await fetch("/v1/recordings"); } catch (e) { return; }
  if (!response.ok) return;
  const recordings = (await response.json()).recordings;
  if (request !== galleryRequest) return;
  state.recordings = recordings;
  const signature = JSON.stringify(recordings);
  if (signature === galleryShown) return;
  galleryShown = signature;
  const list = $("gallery");
  list.innerHTML = "";
  for (const r of state.recordings) list.appendChild(galleryItem(r));
  $("gallery-summary").textContent = state.recordings.length + (state.recordings.length === 1 ? " recording" : " recordings");
}
function galleryItem(r) {
  const li = document.createElement("li");
  li.dataset.id = r.id;
  li.classList.toggle("playing", r.id === playing);
  const when = new Date(r.startedAt).toLocaleString();
  if (r.thumbnail) { const img = document.createElement("img"); img.src = r.thumbnail; img.alt = "recording from " + when; li.appendChild(img); }
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.textContent = when + " · " + r.duration.toFixed(1) + " s · " + (r.bytes / 1048576).toFixed(1) + " MB · " + humanReason(r.stopReason)
    + (r.source && r.source !== "browser" ? " · " + r.source : "");
  li.appendChild(meta);
  if (r.event) {
    const badge = document.createElement("span");
    badge.className = "event";
    badge.textContent = "Clip: " + (EVENT_NAMES[r.event] || r.event) + (r.eventOffset != null ? " at " + r.eventOffset.toFixed(1) + " s" : "");
    li.insertBefore(badge, meta);
  }
  const actions = document.createElement("div");
  actions.className = "actions";
  const play = document.createElement("button");
  play.textContent = "Play"; play.className = "play"; play.setAttribute("aria-label", "Play the recording from " + when);
  play.addEventListener("click", () => playRecording(r));
  const save = document.createElement("a");
  save.textContent = "Download"; save.href = r.movie + "?download"; save.setAttribute("download", "");
  save.setAttribute("aria-label", "Download the recording from " + when);
  const remove = document.createElement("button");
  remove.textContent = "Delete"; remove.setAttribute("aria-label", "Delete the recording from " + when);
  remove.addEventListener("click", () => confirmDelete(actions, "the recording from " + when, async () => {
    if (playing === r.id) closePlayer();
    return fetch("/v1/recordings/" + r.id, { method: "DELETE" });
  }, "Recording deleted."));
  actions.append(play, save, remove);
  li.appendChild(actions);
  return li;
}
function playRecording(r) {
  playing = r.id;
  for (const li of $("gallery").children) li.classList.toggle("playing", li.dataset.id === r.id);
  $("player-box").classList.remove("hidden");
  const player = $("player");
  player.src = r.movie;
  player.play().catch(() => {});
  $("player-box").scrollIntoView({ block: "nearest" });
}
function closePlayer() {
  const player = $("player");
  player.pause(); player.removeAttribute("src"); player.load();
  $("player-box").classList.add("hidden");
  playing = null;
  for (const li of $("gallery").children) li.classList.remove("playing");
}
$("close-player").addEventListener("click", closePlayer);
// Delete asks once, in place: "Delete for good?" with Yes and No.
function confirmDelete(actions, what, remove, done) {
  const kept = [...actions.children];
  const question = document.createElement("span");
  question.textContent = "Delete for good?";
  const yes = document.createElement("button");
  yes.textContent = "Yes, delete"; yes.className = "confirm-delete"; yes.setAttribute("aria-label", "Yes, delete " + what);
  const no = document.createElement("button");
  no.textContent = "No";
  actions.replaceChildren(question, yes, no);
  yes.focus();
  no.addEventListener("click", () => actions.replaceChildren(...kept));
  yes.addEventListener("click", async () => {
    let response = null;
    try { response = await remove(); } catch (e) { /* reported below */ }
    if (response && response.ok) toast(done); else toast("Could not delete " + what + ".", "error");
    loadGallery();
  });
}
// Photos taken with server cameras, newest first, under the recordings.
let stillsShown = "";
async function loadStills() {
  let response;
  try { response = await fetch("/v1/stills?limit=200"); } catch (e) { return; }
  if (!response.ok) return;
  const stills = (await response.json()).stills, signature = JSON.stringify(stills);
  if (signature === stillsShown) return;
  stillsShown = signature;
  $("stills-empty").classList.toggle("hidden", stills.length > 0);
  $("stills").replaceChildren(...stills.map(stillItem));
}
function stillItem(p) {
  const li = document.createElement("li");
  const when = new Date(p.takenAt).toLocaleString();
  const img = document.createElement("img"); img.src = p.thumbnail; img.alt = "photo from " + when; img.loading = "lazy";
  const meta = document.createElement("div");
  meta.className = "meta";
  meta.textContent = when + " · " + p.width + "×" + p.height + " · " + (p.bytes / 1048576).toFixed(1) + " MB" + (p.facesCovered ? " · faces covered" : "") + " · " + p.source;
  const actions = document.createElement("div");
  actions.className = "actions";
  const open = document.createElement("a");
  open.textContent = "Open"; open.href = p.image; open.target = "_blank"; open.rel = "noopener";
  open.setAttribute("aria-label", "Open the photo from " + when);
  const save = document.createElement("a");
  save.textContent = "Download"; save.href = p.image + "?download"; save.setAttribute("download", "");
  save.setAttribute("aria-label", "Download the photo from " + when);
  const remove = document.createElement("button");
  remove.textContent = "Delete"; remove.setAttribute("aria-label", "Delete the photo from " + when);
  remove.addEventListener("click", () => confirmDelete(actions, "the photo from " + when,
    () => fetch("/v1/stills/" + encodeURIComponent(p.id), { method: "DELETE" }), "Photo deleted."));
  actions.append(open, save, remove);
  li.append(img, meta, actions);
  return li;
}
$("refresh-gallery").addEventListener("click", loadGallery);
$("start").addEventListener("click", start);
$("stop").addEventListener("click", stop);
listCameras();
loadEarlierCodes();

// Photo: drop, pick or (keyboard) press to choose an image; it is shown at its natural size
// up to the width available, with faces, codes and text drawn on it and listed beside it.
async function analysePhoto(file) {
  const flags = [["photo-codes", "barcodes"], ["photo-faces", "faces"], ["photo-landmarks", "landmarks"], ["photo-text", "recognize"]]
    .filter(([id]) => $(id).checked).map(([, flag]) => flag);
  if ($("photo-text").checked) flags.push("textEngine=" + $("photo-text-engine").value);
  const idle = !state.connected && !wanted;
  if (idle) setPhase("analysing", file.name);
  let response, body;
  try {
    response = await fetch("/v1/detect?" + flags.join("&") + "&name=" + encodeURIComponent(file.name), { method: "POST", body: file });
    body = await response.json();
  } catch (e) {
    body = { error: { message: "the server could not be reached", hint: "check that kamera serve is running" } };
  }
  $("photo-json").textContent = JSON.stringify(body, null, 2);
  if (!response || !response.ok) {
    // A failed upload does not leave the previous photo's results on screen.
    $("photo-box").classList.add("hidden"); $("photo-results").classList.add("hidden");
    state.photoResult = null;
    toast(body.error.message + " — " + body.error.hint, "error");
    if (idle) setPhase("idle");
    return;
  }
  const result = body.results[0];
  state.photoResult = result;
  const img = $("photo");
  if (img.src) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(file);
  await img.decode().catch(() => {});
  $("photo-box").classList.remove("hidden");
  $("photo-results").classList.remove("hidden");
  const svg = $("photo-marks");
  svg.setAttribute("viewBox", "0 0 " + result.width + " " + result.height);
  drawFaces($("photo-faces-layer"), result.faces || [], result.width, result.height, false);
  svg.innerHTML = "";
  for (const code of result.barcodes || []) drawCode(svg, code, result.width);
  landmarkDots(svg, result.faces || [], result.width);
  for (const line of result.text || []) drawTextBox(svg, line, result.width);
  listPhotoResults(result);
  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
  const counts = [];
  if (result.faces) counts.push(plural(result.faces.length, "face", "faces"));
  if (result.barcodes) counts.push(plural(result.barcodes.length, "code", "codes"));
  if (result.text) counts.push(plural(result.text.length, "text line", "text lines"));
  $("photo-summary").textContent = file.name + ", " + result.width + "×" + result.height + ": " + counts.join(", ");
  document.body.dataset.photoAnnotated = "true";
  if (idle) setPhase("idle");
}
function listItem(list, main, detail, copy) {
  const li = document.createElement("li");
  const text = document.createElement("div");
  if (/^https?:\/\//i.test(main)) {
    const link = document.createElement("a");
    link.href = main; link.textContent = main; link.target = "_blank"; link.rel = "noopener noreferrer";
    text.appendChild(link);
  } else {
    text.appendChild(document.createTextNode(main));
  }
  const small = document.createElement("small");
  small.textContent = detail;
  text.appendChild(small);
  li.appendChild(text);
  if (copy != null) {
    const button = document.createElement("button");
    button.textContent = "Copy"; button.setAttribute("aria-label", "Copy " + main);
    button.addEventListener("click", () => copyText(copy, "the code"));
    li.appendChild(button);
  }
  list.appendChild(li);
}
function listPhotoResults(result) {
  const codes = $("photo-code-list"), faces = $("photo-face-list"), text = $("photo-text-list");
  codes.innerHTML = ""; faces.innerHTML = ""; text.innerHTML = "";
  for (const code of result.barcodes || []) {
    const payload = code.payload != null ? code.payload : "<" + atob(code.payloadBase64).length + " bytes>";
    listItem(codes, payload, code.symbology, code.payload);
  }
  (result.faces || []).forEach((face, index) => listItem(faces, "face " + (index + 1),
    "roll " + Math.round(face.roll) + "°, yaw " + Math.round(face.yaw) + "°, pitch " + Math.round(face.pitch) + "°, confidence " + face.confidence.toFixed(2)));
  for (const line of result.text || []) listItem(text, line.string, "confidence " + line.confidence.toFixed(2));
  for (const [list, title] of [[codes, "photo-codes-title"], [faces, "photo-faces-title"], [text, "photo-text-title"]]) {
    $(title).classList.toggle("hidden", !list.children.length);
  }
}
$("copy-json").addEventListener("click", () => copyText($("photo-json").textContent, "the JSON"));
$("download-json").addEventListener("click", () => download("kamera-photo.json", "application/json", $("photo-json").textContent));
$("photo-file").addEventListener("change", (e) => { if (e.target.files[0]) analysePhoto(e.target.files[0]); });
const drop = $("drop");
drop.addEventListener("click", () => $("photo-file").click());
drop.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); $("photo-file").click(); } });
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); if (e.dataTransfer.files[0]) analysePhoto(e.dataTransfer.files[0]); });
