// What every entry point of the shim shares: exceptions turned into an error message, and the
// caller's pixels wrapped (not copied) as a cv::Mat.
#pragma once

#include <cstdio>
#include <exception>
#include <stdexcept>

#include <opencv2/core.hpp>

#include "kgeo.h"

namespace kgeo {

inline void write_error(char *error, size_t size, const char *message) {
    if (error && size > 0) std::snprintf(error, size, "%s", message);
}

/// Runs `body`; any exception becomes -1 and a message, so none reaches Swift.
template <class Body> int guarded(char *error, size_t size, Body &&body) {
    try {
        body();
        return 0;
    } catch (const cv::Exception &e) {
        write_error(error, size, e.msg.c_str());
    } catch (const std::exception &e) {
        write_error(error, size, e.what());
    } catch (...) {
        write_error(error, size, "unknown C++ exception");
    }
    return -1;
}

/// The caller's pixels as a Mat header (no copy).
inline cv::Mat wrap(const kgeo_image *image) {
    if (!image || !image->pixels || image->width <= 0 || image->height <= 0 ||
        (image->channels != 1 && image->channels != 3) || image->stride < image->width * image->channels)
        throw std::invalid_argument("invalid image");
    return cv::Mat(image->height, image->width, CV_8UC(image->channels), const_cast<uint8_t *>(image->pixels),
                   static_cast<size_t>(image->stride));
}

}  // namespace kgeo
