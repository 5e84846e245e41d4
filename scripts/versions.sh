# Pinned third-party versions and where Kamera keeps what it downloads and builds.
# Sourced by the other scripts.
ZXING_VERSION="3.1.1"
ZXING_SHA256="1051a521b21a9fe206702ad4186aeb195154e3e1badcd99576d030723f36382b"
KAMERA_CACHE="${KAMERA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kamera}"
KAMERA_DEPS="${KAMERA_DEPS:-$KAMERA_CACHE/deps}"
