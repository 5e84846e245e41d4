// Dense optical flow by DIS (Kroeger et al.): OpenCV's fastest dense method; its presets map
// onto Vision's accuracy levels.
#include <cstring>

#include <opencv2/imgproc.hpp>
#include <opencv2/video/tracking.hpp>

#include "guard.hpp"

extern "C" int kgeo_optical_flow(const kgeo_image *previous, const kgeo_image *next, int level, float *out, char *error,
                                 size_t error_size) {
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat a = kgeo::wrap(previous), b = kgeo::wrap(next);
        if (a.size() != b.size()) throw std::invalid_argument("frames differ in size");
        if (a.channels() != 1 || b.channels() != 1) throw std::invalid_argument("optical flow needs gray frames");
        if (!out) throw std::invalid_argument("missing output");
        static const int presets[] = {cv::DISOpticalFlow::PRESET_ULTRAFAST, cv::DISOpticalFlow::PRESET_FAST,
                                      cv::DISOpticalFlow::PRESET_MEDIUM, cv::DISOpticalFlow::PRESET_MEDIUM};
        auto dis = cv::DISOpticalFlow::create(presets[std::clamp(level, 0, 3)]);
        if (level >= 3) {
            // Very high: denser patches and more variational refinement than MEDIUM.
            dis->setPatchStride(2);
            dis->setVariationalRefinementIterations(10);
        }
        cv::Mat flow(a.rows, a.cols, CV_32FC2, out);
        dis->calc(a, b, flow);
        if (flow.ptr<float>() != out) throw std::runtime_error("flow reallocated its output");
    });
}
