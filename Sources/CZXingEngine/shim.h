/* zxing-cpp is consumed by the CZXing C++ shim only; this target carries its pkg-config flags. */
