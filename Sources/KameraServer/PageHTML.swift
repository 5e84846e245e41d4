/// The page's markup: the live view with its toggles, the scan history and the photo view.
enum PageHTML {
    static let text = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Kamera</title>
        <link rel="stylesheet" href="/style.css">
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        </head>
        <body>
        <header>
          <h1>Kamera</h1>
          <nav>
            <button id="tab-live" class="tab active" data-view="live">Live</button>
            <button id="tab-photo" class="tab" data-view="photo">Photo</button>
            <button id="tab-gallery" class="tab" data-view="gallery">Gallery</button>
          </nav>
          <span id="status" class="status">idle</span>
        </header>
        <main>
          <section id="view-live" class="view">
            <div class="controls">
              <label>Camera <select id="camera"></select></label>
              <label>Resolution
                <select id="resolution">
                  <option value="640x480">640×480</option>
                  <option value="1280x720">1280×720</option>
                </select>
              </label>
              <button id="start">Start</button>
              <button id="stop" disabled>Stop</button>
              <label><input type="checkbox" data-option="faces" checked> faces</label>
              <label><input type="checkbox" data-option="landmarks"> landmarks</label>
              <label><input type="checkbox" data-option="barcodes" checked> codes</label>
              <label><input type="checkbox" data-option="text"> text</label>
              <label>Faces at most <input type="number" data-option="maxFaces" min="1" max="1000" value="10" class="narrow"></label>
              <label>Limit
                <select id="record-seconds">
                  <option value="10">10 s</option>
                  <option value="30" selected>30 s</option>
                  <option value="60">1 min</option>
                  <option value="300">5 min</option>
                </select>
              </label>
              <label>max
                <select id="record-megabytes">
                  <option value="10">10 MB</option>
                  <option value="50" selected>50 MB</option>
                  <option value="200">200 MB</option>
                </select>
              </label>
              <button id="record" disabled>● Record</button>
              <span id="recording-state" class="recording"></span>
              <span class="stats">fps <b id="fps">–</b> · latency <b id="latency">–</b> ms · dropped <b id="dropped">0</b></span>
            </div>
            <div class="stage">
              <div id="live-box" class="box">
                <video id="video" autoplay muted playsinline></video>
                <img id="server-view" class="hidden" alt="the server camera's latest analysed frame">
                <div id="faces" class="layer faces"></div>
                <svg id="marks" class="layer"></svg>
              </div>
              <aside class="history">
                <h2>Scan history</h2>
                <div class="history-actions">
                  <button id="copy-history">Copy</button>
                  <button id="export-csv">CSV</button>
                  <button id="export-json">JSON</button>
                  <button id="clear-history">Clear</button>
                </div>
                <ol id="history"></ol>
              </aside>
            </div>
          </section>
          <section id="view-photo" class="view hidden">
            <div class="controls">
              <label class="file">Choose an image <input type="file" id="photo-file" accept="image/jpeg,image/png,image/webp"></label>
              <label><input type="checkbox" id="photo-faces" checked> faces</label>
              <label><input type="checkbox" id="photo-landmarks" checked> landmarks</label>
              <label><input type="checkbox" id="photo-codes" checked> codes</label>
              <label><input type="checkbox" id="photo-text"> text</label>
            </div>
            <div id="drop" class="drop">Drop an image here</div>
            <div id="photo-box" class="box hidden">
              <img id="photo" alt="the analysed photo">
              <div id="photo-faces-layer" class="layer faces"></div>
              <svg id="photo-marks" class="layer"></svg>
            </div>
            <p id="photo-summary" class="summary"></p>
            <details><summary>JSON</summary><pre id="photo-json"></pre></details>
          </section>
          <section id="view-gallery" class="view hidden">
            <div class="controls"><button id="refresh-gallery">Refresh</button> <span id="gallery-summary"></span></div>
            <div class="gallery-stage">
              <ol id="gallery" class="gallery"></ol>
              <video id="player" controls playsinline class="hidden"></video>
            </div>
          </section>
        </main>
        <script src="/app.js"></script>
        </body>
        </html>
        """#
}
