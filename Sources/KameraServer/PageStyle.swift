/// The page's style sheet. The face layer's parent sets `perspective: 1000px` so that turning a
/// layer about Y by the face's yaw looks like the seeds' m34 = −1/1000 transform.
enum PageStyle {
    static let text = #"""
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: #111; color: #eee; }
        header { display: flex; align-items: center; gap: 1em; padding: .5em 1em; background: #1c1c1c; }
        h1 { font-size: 1.2em; margin: 0; }
        h2 { font-size: 1em; margin: 0 0 .5em; }
        nav { display: flex; gap: .3em; }
        button, select { background: #2a2a2a; color: #eee; border: 1px solid #444; border-radius: 4px; padding: .3em .7em; }
        button:disabled { opacity: .4; }
        input.narrow { width: 4.5em; background: #2a2a2a; color: #eee; border: 1px solid #444; border-radius: 4px; }
        /* A fixed width: the camera list fills in after the page loads (long device names),
           and the controls beside it must not move under the pointer when it does. */
        #camera { width: 18em; text-overflow: ellipsis; }
        .tab.active { background: #3d6; color: #111; }
        .status { margin-left: auto; opacity: .8; }
        .controls { display: flex; flex-wrap: wrap; gap: .8em; align-items: center; padding: .6em 1em; }
        .stats { margin-left: auto; font-variant-numeric: tabular-nums; }
        .stage { display: flex; gap: 1em; padding: 0 1em 1em; align-items: flex-start; }
        .box { position: relative; flex: 1; max-width: 1280px; line-height: 0; }
        .box video, .box img { width: 100%; height: auto; background: #000; display: block; }
        .layer { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; overflow: visible; }
        .faces { perspective: 1000px; }
        .face { position: absolute; border: 3px solid #f22; border-radius: 4px; transform-origin: 50% 50%; }
        .face .label { position: absolute; top: -1.6em; left: 0; line-height: 1.4; background: #f22; color: #fff; padding: 0 .3em; font-size: 12px; white-space: nowrap; }
        .code-oval { fill: none; stroke: #fd0; stroke-width: 3; }
        .code-quad { fill: rgba(0, 200, 0, .45); stroke: #0c0; stroke-width: 2; }
        .code-text { fill: #fff; font-size: 15px; paint-order: stroke; stroke: #000; stroke-width: 3px; }
        .text-box { fill: none; stroke: #39f; stroke-width: 2; }
        .landmark { fill: #0ff; }
        .history { width: 22em; max-height: 80vh; overflow: auto; background: #1a1a1a; padding: .6em; border-radius: 4px; }
        .history-actions { display: flex; gap: .3em; margin-bottom: .5em; }
        .history ol { list-style: none; margin: 0; padding: 0; }
        .history li { display: flex; gap: .5em; align-items: center; padding: .3em 0; border-bottom: 1px solid #333; word-break: break-all; }
        .history img { width: 48px; height: 48px; object-fit: contain; background: #000; flex: none; }
        .history small { opacity: .7; display: block; }
        .drop { margin: 1em; padding: 3em; border: 2px dashed #555; border-radius: 8px; text-align: center; }
        .drop.over { border-color: #3d6; }
        #photo-box { margin: 0 1em; }
        .summary { padding: 0 1em; }
        pre { white-space: pre-wrap; padding: 0 1em; font-size: 12px; }
        .recording { color: #f44; font-weight: bold; min-width: 6em; }
        .gallery-stage { display: flex; gap: 1em; padding: 0 1em 1em; align-items: flex-start; }
        .gallery { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .5em; width: 26em; }
        .gallery li { display: flex; gap: .6em; align-items: center; background: #1a1a1a; padding: .4em; border-radius: 4px; }
        .gallery img { width: 100px; height: auto; background: #000; }
        .gallery .meta { flex: 1; }
        #player { flex: 1; max-width: 960px; background: #000; }
        .hidden { display: none !important; }
        .file input { margin-left: .4em; }
        """#
}
