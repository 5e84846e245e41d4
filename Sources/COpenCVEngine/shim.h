/* OpenCV is consumed by the CGeometry C++ shim only; this target carries its pkg-config flags
   (kamera-opencv.pc, written by scripts/setup.sh: the seven modules the shim links). */
