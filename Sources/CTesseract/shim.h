/* Tesseract's C API declarations only: Kamera loads libtesseract with dlopen (see
 * TesseractLibrary.swift) so that OpenMP can be limited before libgomp starts. */
#include <tesseract/capi.h>
