// Kamera: Apple's camera-vision stack for Linux. `import Kamera` brings in every public module.
@_exported import KameraCore
@_exported import KameraImageIO
@_exported import KameraMedia
@_exported import KameraNN
@_exported import KameraRender
@_exported import KameraVision
