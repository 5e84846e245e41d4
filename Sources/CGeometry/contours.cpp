// Contours as Vision traces them: contrast stretched about a pivot, the image scaled down to a
// working size, binarized for dark-on-light (or the reverse), then every boundary as a tree.
#include <cstdlib>
#include <cstring>

#include <opencv2/imgproc.hpp>

#include "guard.hpp"

extern "C" int kgeo_find_contours(const kgeo_image *gray, double contrast, double pivot, int darkOnLight,
                                  int maximumDimension, kgeo_contours *out, char *error, size_t error_size) {
    if (out) *out = kgeo_contours{};
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat image = kgeo::wrap(gray);
        if (image.channels() != 1) throw std::invalid_argument("contours need a gray image");
        if (!out || maximumDimension < 16) throw std::invalid_argument("maximum dimension below 16");
        double scale = std::min(1.0, static_cast<double>(maximumDimension) / std::max(image.cols, image.rows));
        cv::Mat working;
        if (scale < 1)
            cv::resize(image, working, cv::Size(), scale, scale, cv::INTER_AREA);
        else
            working = image.clone();
        double p = pivot >= 0 ? pivot * 255 : cv::mean(working)[0];
        // (v − pivot) · contrast + pivot, saturated.
        working.convertTo(working, CV_8U, contrast, p * (1 - contrast));
        cv::Mat binary;
        cv::threshold(working, binary, 0, 255, (darkOnLight ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY) | cv::THRESH_OTSU);
        std::vector<std::vector<cv::Point>> contours;
        std::vector<cv::Vec4i> hierarchy;
        cv::findContours(binary, contours, hierarchy, cv::RETR_TREE, cv::CHAIN_APPROX_NONE);
        size_t total = 0;
        for (auto &c : contours) total += c.size();
        kgeo_contours result{};
        result.count = static_cast<int>(contours.size());
        result.width = working.cols;
        result.height = working.rows;
        result.points = static_cast<float *>(std::malloc(sizeof(float) * 2 * std::max<size_t>(total, 1)));
        result.point_offsets = static_cast<int *>(std::malloc(sizeof(int) * (contours.size() + 1)));
        result.parents = static_cast<int *>(std::malloc(sizeof(int) * std::max<size_t>(contours.size(), 1)));
        if (!result.points || !result.point_offsets || !result.parents) {
            kgeo_contours_free(&result);
            throw std::bad_alloc();
        }
        size_t at = 0;
        for (size_t i = 0; i < contours.size(); i++) {
            result.point_offsets[i] = static_cast<int>(at);
            result.parents[i] = hierarchy[i][3];
            for (auto &q : contours[i]) {
                // Pixel centres, in continuous coordinates.
                result.points[2 * at] = q.x + 0.5f;
                result.points[2 * at + 1] = q.y + 0.5f;
                at++;
            }
        }
        result.point_offsets[contours.size()] = static_cast<int>(at);
        *out = result;
    });
}

extern "C" void kgeo_contours_free(kgeo_contours *contours) {
    if (!contours) return;
    std::free(contours->points);
    std::free(contours->point_offsets);
    std::free(contours->parents);
    *contours = kgeo_contours{};
}
