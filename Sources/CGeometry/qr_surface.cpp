// QR codes on bent paper (a bottle's label, a curled receipt, a folded flyer). A plane-to-plane
// mapping from the three finder patterns — what every reader samples with — drifts by modules
// across a curled code. Here the paper is modelled as what paper can be: a developable sheet
// bent along one direction, its curvature free to vary across the code (a cylinder, a wave, a
// rounded fold) or turned at one sharp crease, seen by a pinhole camera. Its pose and shape are
// fitted to the finder patterns' corners, then to the timing patterns' module edges and to every
// other module edge measured along the fitted sheet, and the code is sampled on the sheet into
// a flat view that any decoder can read.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "guard.hpp"

namespace {

/// A finder pattern: its centre, outer corners (any order) and module size, in pixels.
struct Finder {
    cv::Point2d center;
    std::array<cv::Point2d, 4> corners;
    double module;
};

/// The intersection of two lines given as (vx, vy, x0, y0).
bool intersect(const cv::Vec4f &a, const cv::Vec4f &b, cv::Point2d &p) {
    double det = a[0] * b[1] - a[1] * b[0];
    if (std::abs(det) < 1e-9) return false;
    double t = ((b[2] - a[2]) * b[1] - (b[3] - a[3]) * b[0]) / det;
    p = {a[2] + t * a[0], a[3] + t * a[1]};
    return true;
}

/// The outer square of a finder pattern: four corners from a polygon fit, each side then
/// refitted to the contour points along its middle so the corners land between pixels.
bool finderCorners(const std::vector<cv::Point> &contour, std::array<cv::Point2d, 4> &corners) {
    std::vector<cv::Point> hull, polygon;
    cv::convexHull(contour, hull);
    double perimeter = cv::arcLength(hull, true);
    for (double epsilon : {0.06, 0.09, 0.12, 0.04}) {
        cv::approxPolyDP(hull, polygon, epsilon * perimeter, true);
        if (polygon.size() == 4) break;
    }
    if (polygon.size() != 4 || !cv::isContourConvex(polygon)) return false;
    std::array<cv::Vec4f, 4> sides;
    for (int k = 0; k < 4; k++) {
        cv::Point2d a = polygon[k], b = polygon[(k + 1) % 4];
        cv::Point2d d = b - a;
        double length = std::hypot(d.x, d.y);
        if (length < 3) return false;
        std::vector<cv::Point2f> near;
        for (const auto &p : contour) {
            cv::Point2d q = cv::Point2d(p) - a;
            double along = (q.x * d.x + q.y * d.y) / (length * length);
            double off = std::abs(q.x * d.y - q.y * d.x) / length;
            if (along > 0.15 && along < 0.85 && off < std::max(1.5, 0.12 * length)) near.emplace_back(p);
        }
        if (near.size() < 3) {
            sides[k] = cv::Vec4f(static_cast<float>(d.x / length), static_cast<float>(d.y / length), static_cast<float>(a.x),
                                 static_cast<float>(a.y));
        } else {
            cv::fitLine(near, sides[k], cv::DIST_HUBER, 0, 0.01, 0.01);
        }
    }
    for (int k = 0; k < 4; k++) {
        if (!intersect(sides[(k + 3) % 4], sides[k], corners[k])) return false;
    }
    return true;
}

/// Adds `f` unless a finder already found has its centre within 1.5 of that finder's modules
/// (the same pattern seen again).
void addUnlessSeen(std::vector<Finder> &found, const Finder &f) {
    for (const auto &g : found) {
        if (std::hypot(g.center.x - f.center.x, g.center.y - f.center.y) < 1.5 * g.module) return;
    }
    found.push_back(f);
}

/// Finder patterns: a dark square ring around a light ring around a dark core (areas near
/// 49 : 25 : 9), found as three nested contours of a locally thresholded image.
std::vector<Finder> findFinders(const cv::Mat &gray) {
    std::vector<Finder> found;
    int shortSide = std::min(gray.cols, gray.rows);
    // One threshold: a second, coarser one found no code more on the tuning sets and doubled
    // the contour search, which is most of the cost on photos without a QR code.
    for (int block : {std::max(11, (shortSide / 12) | 1)}) {
        cv::Mat binary;
        cv::adaptiveThreshold(gray, binary, 255, cv::ADAPTIVE_THRESH_MEAN_C, cv::THRESH_BINARY_INV, block, 5);
        std::vector<std::vector<cv::Point>> contours;
        std::vector<cv::Vec4i> hierarchy;
        cv::findContours(binary, contours, hierarchy, cv::RETR_TREE, cv::CHAIN_APPROX_NONE);
        for (size_t i = 0; i < contours.size(); i++) {
            int ring = hierarchy[i][2];
            if (ring < 0) continue;
            int core = hierarchy[ring][2];
            if (core < 0) continue;
            double outer = cv::contourArea(contours[i]), hole = cv::contourArea(contours[ring]),
                   inner = cv::contourArea(contours[core]);
            if (outer < 40 || hole <= 0 || inner <= 0) continue;
            if (outer / hole < 1.25 || outer / hole > 4.5 || hole / inner < 1.2 || hole / inner > 9 || outer / inner < 2.5 ||
                outer / inner > 16)
                continue;
            std::vector<cv::Point> hull;
            cv::convexHull(contours[i], hull);
            if (outer / cv::contourArea(hull) < 0.85) continue;
            cv::Moments mo = cv::moments(contours[i]), mc = cv::moments(contours[core]);
            if (mo.m00 <= 0 || mc.m00 <= 0) continue;
            cv::Point2d co(mo.m10 / mo.m00, mo.m01 / mo.m00), cc(mc.m10 / mc.m00, mc.m01 / mc.m00);
            if (std::hypot(co.x - cc.x, co.y - cc.y) > 0.25 * std::sqrt(outer)) continue;
            Finder f;
            // Contour points are pixel indices; continuous coordinates put pixel centres at +0.5.
            f.center = cc + cv::Point2d(0.5, 0.5);
            f.module = std::sqrt(outer) / 7;
            if (!finderCorners(contours[i], f.corners)) continue;
            for (auto &corner : f.corners) {
                // The contour runs through the dark pixels' centres, half a pixel inside the edge.
                cv::Point2d c = corner + cv::Point2d(0.5, 0.5), d = c - f.center;
                double length = std::hypot(d.x, d.y);
                corner = length > 0 ? c + d * (0.7 / length) : c;
            }
            addUnlessSeen(found, f);
        }
    }
    return found;
}

/// Finder patterns of small codes (modules of 2–3 pixels, whose rings merge when thresholded
/// as they are) looked for in the image enlarged twice, in this image's coordinates.
std::vector<Finder> findFindersEnlarged(const cv::Mat &gray) {
    cv::Mat enlarged;
    cv::resize(gray, enlarged, cv::Size(), 2, 2, cv::INTER_CUBIC);
    std::vector<Finder> found = findFinders(enlarged);
    for (auto &f : found) {
        // Continuous coordinates (pixel edges at whole numbers) scale exactly.
        f.center *= 0.5;
        for (auto &c : f.corners) c *= 0.5;
        f.module *= 0.5;
    }
    return found;
}

/// Adds the `more` finders not already in `finders`.
void mergeFinders(std::vector<Finder> &finders, const std::vector<Finder> &more) {
    for (const auto &f : more) addUnlessSeen(finders, f);
}

/// A point of the code (module coordinates: module (i, j) spans [i, i+1] × [j, j+1]) and
/// where it was seen.
struct Correspondence {
    cv::Point2d module;
    cv::Point2d image;
    double weight;
};

constexpr int kSegments = 8;

/// The bent sheet seen by the camera: pose (p[0…2] Rodrigues rotation, p[3…5] translation, in
/// modules), the bend's direction p[6] on the code, and the curvature of each of eight bands
/// across the bend (p[7…14], per module), the bands spanning ±0.75 of the code's side from its
/// centre — or one sharp crease instead (`crease`).
struct Sheet {
    std::array<double, 6 + 1 + kSegments> p{};
    /// A sharp crease instead of the bands: flat up to p[7] (modules from the centre along
    /// the bend), then turned by p[8] radians; p[9…] unused.
    bool crease = false;
    int n = 21;
    double focal = 1;
    cv::Point2d principal;

    /// What every projection of one parameter set shares: the rotation, the bend's direction
    /// and where each band of the profile starts (x, z, angle), so a point costs one sincos.
    struct Prepared {
        cv::Matx33d r;
        double c = 1, s = 0, band = 1, creaseCos = 1, creaseSin = 0;
        // [side][band]: side 0 towards −s, 1 towards +s.
        double x0[2][kSegments / 2], z0[2][kSegments / 2], theta0[2][kSegments / 2], sin0[2][kSegments / 2],
            cos0[2][kSegments / 2], kappa[2][kSegments / 2];
    };

    Prepared prepare() const {
        Prepared q;
        cv::Rodrigues(cv::Vec3d(p[0], p[1], p[2]), q.r);
        q.c = std::cos(p[6]);
        q.s = std::sin(p[6]);
        if (crease) {
            q.creaseCos = std::cos(p[8]);
            q.creaseSin = std::sin(p[8]);
            return q;
        }
        q.band = 0.75 * n / (kSegments / 2);
        for (int side = 0; side < 2; side++) {
            double x = 0, z = 0, theta = 0;
            for (int k = 0; k < kSegments / 2; k++) {
                int index = side == 1 ? kSegments / 2 + k : kSegments / 2 - 1 - k;
                double kappa = p[7 + index];
                q.x0[side][k] = x;
                q.z0[side][k] = z;
                q.theta0[side][k] = theta;
                q.sin0[side][k] = std::sin(theta);
                q.cos0[side][k] = std::cos(theta);
                q.kappa[side][k] = kappa;
                arc(kappa, q.band, theta, q.sin0[side][k], q.cos0[side][k], x, z);
                theta += kappa * q.band;
            }
        }
        return q;
    }

    /// Advances (x, z) along an arc of curvature `kappa` over `step` from angle `theta`.
    static void arc(double kappa, double step, double theta, double sinTheta, double cosTheta, double &x, double &z) {
        if (std::abs(kappa) < 1e-9) {
            x += step * cosTheta;
            z += step * sinTheta;
        } else {
            double next = theta + kappa * step;
            x += (std::sin(next) - sinTheta) / kappa;
            z += (cosTheta - std::cos(next)) / kappa;
        }
    }

    /// Where module coordinates (u, v) appear in the image.
    cv::Point2d project(double u, double v) const { return project(u, v, prepare()); }

    /// As `project`, with the parameters' shared values `q` prepared.
    cv::Point2d project(double u, double v, const Prepared &q) const {
        double a = u - n / 2.0, b = v - n / 2.0;
        double along = a * q.c + b * q.s, across = -a * q.s + b * q.c;
        // A diverged fit: no band to index (the caller's sampling treats NaN as outside).
        if (!std::isfinite(along) || !std::isfinite(across) || std::abs(along) > 1e6) return {NAN, NAN};
        double x, z;
        if (crease) {
            double beyond = along - p[7];
            x = beyond <= 0 ? along : p[7] + beyond * q.creaseCos;
            z = beyond <= 0 ? 0 : beyond * q.creaseSin;
        } else {
            int side = along < 0 ? 0 : 1;
            double rest = std::abs(along);
            int k = std::min(static_cast<int>(rest / q.band), kSegments / 2 - 1);
            x = q.x0[side][k];
            z = q.z0[side][k];
            arc(q.kappa[side][k], rest - k * q.band, q.theta0[side][k], q.sin0[side][k], q.cos0[side][k], x, z);
            if (side == 0) x = -x;
        }
        cv::Vec3d local(x * q.c - across * q.s, x * q.s + across * q.c, z);
        cv::Vec3d world = q.r * local + cv::Vec3d(p[3], p[4], p[5]);
        double depth = std::max(world[2], 1e-6);
        return {principal.x + focal * world[0] / depth, principal.y + focal * world[1] / depth};
    }
};

/// Residuals: each correspondence's reprojection error (pixels, weighted); for the bands, a
/// smoothness term on neighbouring bands' curvature (unobserved bands follow their neighbours)
/// and a weak pull towards flat (a band no point constrains stays put).
std::vector<double> residuals(const Sheet &sheet, const std::vector<Correspondence> &points) {
    std::vector<double> r;
    r.reserve(points.size() * 2 + kSegments);
    const Sheet::Prepared prepared = sheet.prepare();
    for (const auto &c : points) {
        cv::Point2d q = sheet.project(c.module.x, c.module.y, prepared);
        r.push_back(c.weight * (q.x - c.image.x));
        r.push_back(c.weight * (q.y - c.image.y));
    }
    if (sheet.crease) return r;
    double pixelsPerModule = sheet.focal / std::max(1.0, sheet.p[5]);
    for (int k = 0; k + 1 < kSegments; k++) r.push_back(4 * pixelsPerModule * (sheet.p[7 + k] - sheet.p[8 + k]) * sheet.n / 4);
    for (int k = 0; k < kSegments; k++) r.push_back(0.5 * pixelsPerModule * sheet.p[7 + k] * sheet.n / 4);
    return r;
}

double cost(const std::vector<double> &r) {
    double s = 0;
    for (double v : r) s += v * v;
    return s;
}

/// Levenberg–Marquardt on the sheet's parameters with a numeric Jacobian.
double fit(Sheet &sheet, const std::vector<Correspondence> &points, int iterations) {
    const int m = static_cast<int>(sheet.p.size());
    std::vector<double> r = residuals(sheet, points);
    double current = cost(r), lambda = 1e-3;
    for (int it = 0; it < iterations; it++) {
        cv::Mat J(static_cast<int>(r.size()), m, CV_64F);
        for (int j = 0; j < m; j++) {
            Sheet moved = sheet;
            double h = j < 3 ? 1e-5 : j < 6 ? 1e-4 * std::max(1.0, std::abs(sheet.p[j])) : j == 6 ? 1e-5 : 1e-6;
            moved.p[j] += h;
            std::vector<double> rj = residuals(moved, points);
            for (size_t i = 0; i < r.size(); i++) J.at<double>(static_cast<int>(i), j) = (rj[i] - r[i]) / h;
        }
        cv::Mat rm(static_cast<int>(r.size()), 1, CV_64F, r.data());
        cv::Mat JtJ = J.t() * J, Jtr = J.t() * rm;
        bool accepted = false;
        double gain = 0;
        for (int tries = 0; tries < 8 && !accepted; tries++) {
            cv::Mat A = JtJ.clone();
            for (int j = 0; j < m; j++) A.at<double>(j, j) += lambda * (JtJ.at<double>(j, j) + 1e-9);
            cv::Mat delta;
            if (!cv::solve(A, -Jtr, delta, cv::DECOMP_CHOLESKY)) {
                lambda *= 10;
                continue;
            }
            Sheet trial = sheet;
            for (int j = 0; j < m; j++) trial.p[j] += delta.at<double>(j);
            std::vector<double> rt = residuals(trial, points);
            double c = cost(rt);
            if (c < current) {
                gain = (current - c) / std::max(current, 1e-12);
                sheet = trial;
                r = rt;
                current = c;
                lambda = std::max(1e-7, lambda / 5);
                accepted = true;
            } else {
                lambda *= 10;
            }
        }
        if (!accepted || gain < 1e-6) break;
    }
    return current;
}

/// Bilinear grey value at (x, y) in pixel-centre coordinates, or −1 outside.
double sample(const cv::Mat &gray, double x, double y) {
    x -= 0.5;
    y -= 0.5;
    // Written so that NaN (a diverged fit) lands outside too, before any conversion to int.
    if (!(x >= 0 && y >= 0 && x <= gray.cols - 1.001 && y <= gray.rows - 1.001)) return -1;
    int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
    double fx = x - x0, fy = y - y0;
    const uint8_t *r0 = gray.ptr<uint8_t>(y0), *r1 = gray.ptr<uint8_t>(y0 + 1);
    double top = r0[x0] + (r0[x0 + 1] - r0[x0]) * fx, bottom = r1[x0] + (r1[x0 + 1] - r1[x0]) * fx;
    return top + (bottom - top) * fy;
}

/// The module edges of a timing pattern measured along the fitted sheet: row 6 (`alongRow`)
/// or column 6, between the finder patterns. An edge where module k−1 meets module k is
/// light-to-dark for even k; each crossing of the local mid-grey within 0.4 of a module of
/// such an edge, in the right direction, becomes a correspondence on that edge.
int measureTiming(const Sheet &sheet, const cv::Mat &gray, bool alongRow, std::vector<Correspondence> &out) {
    const int n = sheet.n;
    const double step = 0.1;
    std::vector<double> t, value;
    std::vector<cv::Point2d> where;
    const Sheet::Prepared prepared = sheet.prepare();
    for (double s = 5.5; s <= n - 5.5 + 1e-9; s += step) {
        cv::Point2d q = alongRow ? sheet.project(s, 6.5, prepared) : sheet.project(6.5, s, prepared);
        double g = sample(gray, q.x, q.y);
        if (g < 0) return 0;
        t.push_back(s);
        value.push_back(g);
        where.push_back(q);
    }
    // Mid-grey over a window of three modules.
    const int window = static_cast<int>(1.5 / step);
    std::vector<double> mid(value.size());
    for (size_t i = 0; i < value.size(); i++) {
        size_t a = i > static_cast<size_t>(window) ? i - window : 0, b = std::min(value.size() - 1, i + window);
        double lo = 255, hi = 0;
        for (size_t k = a; k <= b; k++) {
            lo = std::min(lo, value[k]);
            hi = std::max(hi, value[k]);
        }
        mid[i] = hi - lo < 12 ? -1 : (lo + hi) / 2;
    }
    int matched = 0;
    std::vector<bool> used(n + 1, false);
    for (size_t i = 0; i + 1 < value.size(); i++) {
        if (mid[i] < 0 || mid[i + 1] < 0) continue;
        double d0 = value[i] - mid[i], d1 = value[i + 1] - mid[i + 1];
        if ((d0 < 0) == (d1 < 0)) continue;
        double f = d0 / (d0 - d1);
        double s = t[i] + f * step;
        int k = static_cast<int>(std::lround(s));
        if (k < 7 || k > n - 7 || std::abs(s - k) > 0.4 || used[k]) continue;
        bool lightToDark = d0 > 0;
        if (lightToDark != (k % 2 == 0)) continue;
        used[k] = true;
        cv::Point2d q = where[i] + (where[i + 1] - where[i]) * f;
        out.push_back({alongRow ? cv::Point2d(k, 6.5) : cv::Point2d(6.5, k), q, 1.0});
        matched++;
    }
    return matched;
}

/// Every module edge the code shows, measured along the fitted sheet: module centres (and
/// the quiet zone's ring, light) are classified against their neighbourhood's mean; where
/// two neighbours differ with some margin, the mid-grey crossing nearest their shared edge
/// (within 0.7 of a module, in the right direction) becomes a correspondence on that edge.
/// The bottom and right of a code, far from the finders, are held by these.
int measureModuleEdges(const Sheet &sheet, const cv::Mat &gray, std::vector<Correspondence> &out) {
    const int n = sheet.n, m = n + 2;
    const Sheet::Prepared prepared = sheet.prepare();
    std::vector<double> value(static_cast<size_t>(m) * m);
    auto at = [&](int i, int j) -> double & { return value[static_cast<size_t>(j + 1) * m + (i + 1)]; };
    for (int j = -1; j <= n; j++) {
        for (int i = -1; i <= n; i++) {
            cv::Point2d q = sheet.project(i + 0.5, j + 0.5, prepared);
            double g = sample(gray, q.x, q.y);
            if (g < 0) return 0;
            at(i, j) = g;
        }
    }
    std::vector<int8_t> kind(static_cast<size_t>(m) * m, 0);  // −1 light, 1 dark, 0 unsure
    auto kindAt = [&](int i, int j) -> int8_t & { return kind[static_cast<size_t>(j + 1) * m + (i + 1)]; };
    for (int j = -1; j <= n; j++) {
        for (int i = -1; i <= n; i++) {
            if (i < 0 || j < 0 || i >= n || j >= n) {
                kindAt(i, j) = -1;
                continue;
            }
            double sum = 0, lo = 255, hi = 0;
            int count = 0;
            for (int dj = -3; dj <= 3; dj++) {
                for (int di = -3; di <= 3; di++) {
                    int x = std::clamp(i + di, -1, n), y = std::clamp(j + dj, -1, n);
                    double g = at(x, y);
                    sum += g;
                    lo = std::min(lo, g);
                    hi = std::max(hi, g);
                    count++;
                }
            }
            double threshold = sum / count, margin = 0.12 * (hi - lo);
            double g = at(i, j);
            kindAt(i, j) = hi - lo < 12 ? 0 : g < threshold - margin ? 1 : g > threshold + margin ? -1 : 0;
        }
    }
    const double step = 0.05, reach = 0.7;
    // About 400 edges suffice to hold a sheet of 15 parameters; larger codes measure a share.
    const int stride = std::max(1, n * n / 400);
    int measured = 0, seen = 0;
    for (int horizontal = 0; horizontal < 2; horizontal++) {
        for (int j = 0; j < n; j++) {
            for (int i = -1; i < n; i++) {
                // The edge between (i, j) and (i + 1, j), or, transposed, (j, i) and (j, i + 1).
                int ax = horizontal ? i : j, ay = horizontal ? j : i, bx = horizontal ? i + 1 : j, by = horizontal ? j : i + 1;
                int8_t ka = kindAt(ax, ay), kb = kindAt(bx, by);
                if (ka == 0 || kb == 0 || ka == kb || seen++ % stride != 0) continue;
                double mid = (at(ax, ay) + at(bx, by)) / 2;
                double edge = i + 1, across = j + 0.5;
                double best = -1, previous = 0;
                cv::Point2d previousPoint, bestPoint;
                for (double t = edge - reach; t <= edge + reach + 1e-9; t += step) {
                    cv::Point2d q = horizontal ? sheet.project(t, across, prepared) : sheet.project(across, t, prepared);
                    double g = sample(gray, q.x, q.y);
                    if (g < 0) {  // off the photo: no edge to trust here
                        best = -1;
                        break;
                    }
                    double d = g - mid;
                    if (t > edge - reach && (previous < 0) != (d < 0) && ((ka == 1) == (previous < 0))) {
                        double f = previous / (previous - d);
                        double crossing = t - step + f * step;
                        if (best < 0 || std::abs(crossing - edge) < std::abs(best - edge)) {
                            best = crossing;
                            bestPoint = previousPoint + (q - previousPoint) * f;
                        }
                    }
                    previous = d;
                    previousPoint = q;
                }
                if (best < 0) continue;
                out.push_back({horizontal ? cv::Point2d(edge, across) : cv::Point2d(across, edge), bestPoint, 0.5});
                measured++;
            }
        }
    }
    return measured;
}

/// The finder patterns' corners and centres in module coordinates for a code of side n.
bool finderCorrespondences(const Finder &tl, const Finder &tr, const Finder &bl, int n, std::vector<Correspondence> &out) {
    cv::Point2d e1 = tr.center - tl.center, e2 = bl.center - tl.center;
    double det = e1.x * e2.y - e1.y * e2.x;
    if (std::abs(det) < 1e-9) return false;
    const std::array<std::pair<const Finder *, cv::Point2d>, 3> finders = {
        {{&tl, {0, 0}}, {&tr, {static_cast<double>(n - 7), 0}}, {&bl, {0, static_cast<double>(n - 7)}}}};
    for (const auto &[f, origin] : finders) {
        out.push_back({origin + cv::Point2d(3.5, 3.5), f->center, 1.0});
        int seen = 0;
        std::array<cv::Point2d, 4> assigned;
        for (const auto &c : f->corners) {
            cv::Point2d d = c - f->center;
            // d in the basis (e1, e2): which corner of the square it is.
            double a = (d.x * e2.y - d.y * e2.x) / det, b = (e1.x * d.y - e1.y * d.x) / det;
            int slot = (a < 0 ? 0 : 1) + (b < 0 ? 0 : 2);
            if (seen & (1 << slot)) return false;
            seen |= 1 << slot;
            assigned[slot] = c;
        }
        const cv::Point2d offsets[4] = {{0, 0}, {7, 0}, {0, 7}, {7, 7}};
        for (int k = 0; k < 4; k++) out.push_back({origin + offsets[k], assigned[k], 1.0});
    }
    return true;
}

struct View {
    std::vector<uint8_t> pixels;
    int side = 0;
    std::array<cv::Point2d, 4> outline;
    double score;
};

void refineOnEdges(Sheet &sheet, const std::vector<Correspondence> &base, const cv::Mat &gray, int rounds);
bool render(const Sheet &best, const cv::Mat &gray, View &view);


/// A sheet fitted to a code of side n from its finders and timing patterns, and how many of
/// the timing patterns' module edges it found (the side's score).
struct Fitted {
    Sheet sheet;
    std::vector<Correspondence> base;
    double score = 0;
    int order = 0;
};

/// Fits the bands' sheet for a code of side n seen through finders (tl, tr, bl): the plane
/// from the finders' points, then from four bend directions three rounds of measuring the
/// timing patterns along the sheet and refitting; the direction with most timing edges wins.
bool fitBands(const cv::Mat &gray, const Finder &tl, const Finder &tr, const Finder &bl, int n, double focal, Fitted &out) {
    std::vector<Correspondence> base;
    if (!finderCorrespondences(tl, tr, bl, n, base)) return false;
    cv::Matx33d camera(focal, 0, gray.cols / 2.0, 0, focal, gray.rows / 2.0, 0, 0, 1);
    std::vector<cv::Point3d> object;
    std::vector<cv::Point2d> image;
    for (const auto &c : base) {
        object.emplace_back(c.module.x - n / 2.0, c.module.y - n / 2.0, 0);
        image.push_back(c.image);
    }
    cv::Vec3d rvec, tvec;
    if (!cv::solvePnP(object, image, camera, cv::noArray(), rvec, tvec, false, cv::SOLVEPNP_IPPE)) return false;
    if (tvec[2] <= 0) return false;
    double bestCost = -1;
    int bestEdges = 0;
    for (double phi : {0.0, CV_PI / 4, CV_PI / 2, 3 * CV_PI / 4}) {
        Sheet sheet;
        sheet.n = n;
        sheet.focal = focal;
        sheet.principal = {gray.cols / 2.0, gray.rows / 2.0};
        for (int k = 0; k < 3; k++) {
            sheet.p[k] = rvec[k];
            sheet.p[3 + k] = tvec[k];
        }
        sheet.p[6] = phi;
        fit(sheet, base, 20);
        std::vector<Correspondence> points;
        int edges = 0;
        for (int round = 0; round < 3; round++) {
            points = base;
            edges = measureTiming(sheet, gray, true, points) + measureTiming(sheet, gray, false, points);
            fit(sheet, points, 20);
        }
        double c = cost(residuals(sheet, points)) / std::max<size_t>(1, points.size());
        if (edges > bestEdges || (edges == bestEdges && (bestCost < 0 || c < bestCost))) {
            out.sheet = sheet;
            bestCost = c;
            bestEdges = edges;
        }
    }
    out.base = std::move(base);
    // Found edges less those missing: a wrong side finds fewer of more.
    out.score = bestEdges - 2.0 * (n - 13);
    return bestCost >= 0;
}

/// A fold is a kink the bands round off over a band's width (a fifth of the code): the same
/// sheet with one sharp crease where the bands bent most, turned by what they turned there.
Sheet creasedFrom(const Sheet &bands) {
    Sheet folded = bands;
    folded.crease = true;
    const int n = bands.n, half = kSegments / 2;
    const double band = 0.75 * n / half;
    int strongest = 0;
    for (int k = 1; k < kSegments; k++) {
        if (std::abs(bands.p[7 + k]) > std::abs(bands.p[7 + strongest])) strongest = k;
    }
    bool positive = strongest >= half;
    double position = positive ? (strongest - half + 0.5) * band : -(half - 1 - strongest + 0.5) * band;
    double turn = 0;
    for (int k = positive ? half : 0; k < (positive ? kSegments : half); k++) turn += bands.p[7 + k] * band;
    if (!positive) {
        // The crease on the far side: turn the bend's direction round so the centre stays flat.
        folded.p[6] += CV_PI;
        position = -position;
    }
    std::fill(folded.p.begin() + 7, folded.p.end(), 0.0);
    folded.p[7] = position;
    folded.p[8] = turn;
    return folded;
}

/// The views of a fitted side: the bands' sheet and the creased one, each refined on every
/// module edge the code shows (the decoder tells which holds).
void viewsOf(const Fitted &fitted, const cv::Mat &gray, std::vector<View> &out) {
    Sheet bands = fitted.sheet;
    refineOnEdges(bands, fitted.base, gray, 2);
    View view;
    if (!render(bands, gray, view)) return;
    view.score = fitted.score;
    out.push_back(std::move(view));
    Sheet folded = creasedFrom(bands);
    fit(folded, fitted.base, 20);
    refineOnEdges(folded, fitted.base, gray, 2);
    View creased;
    if (!render(folded, gray, creased)) return;
    creased.score = fitted.score;
    out.push_back(std::move(creased));
}

/// Measures the timing patterns and every module edge along `sheet` and refits, `rounds` times.
void refineOnEdges(Sheet &sheet, const std::vector<Correspondence> &base, const cv::Mat &gray, int rounds) {
    for (int round = 0; round < rounds; round++) {
        std::vector<Correspondence> points = base;
        measureTiming(sheet, gray, true, points);
        measureTiming(sheet, gray, false, points);
        measureModuleEdges(sheet, gray, points);
        fit(sheet, points, 15);
    }
}

/// The code sampled on `best` into a flat view.
bool render(const Sheet &best, const cv::Mat &gray, View &view) {
    const int n = best.n;
    // Flat view: 6 pixels a module, 4 modules of quiet zone filled with the paper's grey.
    const int scale = 6, quiet = 4;
    view.side = (n + 2 * quiet) * scale;
    view.pixels.assign(static_cast<size_t>(view.side) * view.side, 0);
    std::vector<double> inside;
    std::vector<double> values(static_cast<size_t>(view.side) * view.side, -1);
    // Positions on a half-module lattice, interpolated between (the sheet is smooth at that
    // scale), rather than a projection per view pixel.
    const Sheet::Prepared prepared = best.prepare();
    const int lattice = 2 * n + 1;
    std::vector<cv::Point2d> grid(static_cast<size_t>(lattice) * lattice);
    for (int j = 0; j < lattice; j++) {
        for (int i = 0; i < lattice; i++) grid[static_cast<size_t>(j) * lattice + i] = best.project(i / 2.0, j / 2.0, prepared);
    }
    for (int y = 0; y < view.side; y++) {
        double v = (y + 0.5) / scale - quiet;
        if (v < 0 || v > n) continue;
        int j = std::min(static_cast<int>(v * 2), lattice - 2);
        double fy = v * 2 - j;
        for (int x = 0; x < view.side; x++) {
            double u = (x + 0.5) / scale - quiet;
            if (u < 0 || u > n) continue;
            int i = std::min(static_cast<int>(u * 2), lattice - 2);
            double fx = u * 2 - i;
            const cv::Point2d &p00 = grid[static_cast<size_t>(j) * lattice + i], &p01 = grid[static_cast<size_t>(j) * lattice + i + 1],
                              &p10 = grid[static_cast<size_t>(j + 1) * lattice + i],
                              &p11 = grid[static_cast<size_t>(j + 1) * lattice + i + 1];
            cv::Point2d q = (p00 * (1 - fx) + p01 * fx) * (1 - fy) + (p10 * (1 - fx) + p11 * fx) * fy;
            double g = sample(gray, q.x, q.y);
            values[static_cast<size_t>(y) * view.side + x] = g;
            if (g >= 0) inside.push_back(g);
        }
    }
    if (inside.size() < static_cast<size_t>(n * n)) return false;
    std::nth_element(inside.begin(), inside.begin() + inside.size() * 9 / 10, inside.end());
    double paper = inside[inside.size() * 9 / 10];
    for (size_t i = 0; i < values.size(); i++) view.pixels[i] = static_cast<uint8_t>(std::lround(values[i] < 0 ? paper : values[i]));
    view.outline = {best.project(0, 0), best.project(n, 0), best.project(n, n), best.project(0, n)};
    for (const auto &corner : view.outline) {
        if (!std::isfinite(corner.x) || !std::isfinite(corner.y)) return false;
    }
    return true;
}

/// Three finders that may be one code's: a top-left one with the other two at similar
/// distances, roughly square to it, turning clockwise (top-right, then bottom-left), of similar
/// module sizes; the four most code-like.
struct Triple {
    int tl, tr, bl;
    double badness;
};

std::vector<Triple> findTriples(const std::vector<Finder> &finders) {
    std::vector<Triple> triples;
    for (size_t i = 0; i < finders.size(); i++) {
        for (size_t j = 0; j < finders.size(); j++) {
            for (size_t k = 0; k < finders.size(); k++) {
                if (i == j || j == k || i == k) continue;
                const Finder &a = finders[i], &b = finders[j], &c = finders[k];
                cv::Point2d e1 = b.center - a.center, e2 = c.center - a.center;
                if (e1.x * e2.y - e1.y * e2.x <= 0) continue;
                double l1 = std::hypot(e1.x, e1.y), l2 = std::hypot(e2.x, e2.y);
                double m = (a.module + b.module + c.module) / 3;
                double mmax = std::max({a.module, b.module, c.module}), mmin = std::min({a.module, b.module, c.module});
                if (mmax > 2.2 * mmin || l1 < 10 * m || l2 < 10 * m || l1 > 70 * m || l2 > 70 * m) continue;
                double ratio = std::max(l1, l2) / std::min(l1, l2);
                double cosine = (e1.x * e2.x + e1.y * e2.y) / (l1 * l2);
                if (ratio > 1.8 || std::abs(cosine) > 0.8) continue;
                triples.push_back({static_cast<int>(i), static_cast<int>(j), static_cast<int>(k),
                                   std::abs(cosine) + std::log(ratio) + std::log(mmax / mmin)});
            }
        }
    }
    std::sort(triples.begin(), triples.end(), [](const Triple &a, const Triple &b) { return a.badness < b.badness; });
    if (triples.size() > 4) triples.resize(4);
    return triples;
}

/// A triple's views, best first: the code sides (versions 1–10, 21…57 modules) nearest the
/// finders' spacing and one version either way are fitted; the side(s) whose timing patterns
/// show most of their edges are viewed.
std::vector<View> viewsOfTriple(const cv::Mat &gray, const Finder &tl, const Finder &tr, const Finder &bl, double focal) {
    double m = (tl.module + tr.module + bl.module) / 3;
    double across = (std::hypot(tr.center.x - tl.center.x, tr.center.y - tl.center.y) +
                     std::hypot(bl.center.x - tl.center.x, bl.center.y - tl.center.y)) /
                        (2 * m) +
                    7;
    int nearest = 21 + 4 * static_cast<int>(std::lround(std::clamp((across - 21) / 4, 0.0, 9.0)));
    std::vector<Fitted> sides;
    for (int n : {nearest, nearest - 4, nearest + 4}) {
        if (n < 21 || n > 57) continue;
        Fitted fitted;
        fitted.order = static_cast<int>(sides.size());
        if (fitBands(gray, tl, tr, bl, n, focal, fitted)) sides.push_back(std::move(fitted));
    }
    // Best score first; on a tie the side nearest the finders' spacing (fitted first).
    std::sort(sides.begin(), sides.end(),
              [](const Fitted &a, const Fitted &b) { return a.score != b.score ? a.score > b.score : a.order < b.order; });
    std::vector<View> views;
    for (size_t i = 0; i < sides.size() && i < 2; i++) {
        // A second side only when its timing patterns look as good.
        if (i > 0 && sides[i].score < sides[0].score) break;
        viewsOf(sides[i], gray, views);
    }
    return views;
}

/// The views as the C API hands them over (malloc'd; outlines scaled back by 1 / `shrink`).
kgeo_qr_views pack(const std::vector<View> &views, double shrink) {
    size_t total = 0;
    for (const auto &v : views) total += v.pixels.size();
    kgeo_qr_views result{};
    result.count = static_cast<int>(views.size());
    result.pixels = static_cast<uint8_t *>(std::malloc(std::max<size_t>(total, 1)));
    result.sides = static_cast<int *>(std::malloc(sizeof(int) * std::max<size_t>(views.size(), 1)));
    result.outlines = static_cast<double *>(std::malloc(sizeof(double) * 8 * std::max<size_t>(views.size(), 1)));
    if (!result.pixels || !result.sides || !result.outlines) {
        kgeo_qr_views_free(&result);
        throw std::bad_alloc();
    }
    size_t offset = 0;
    for (size_t i = 0; i < views.size(); i++) {
        std::memcpy(result.pixels + offset, views[i].pixels.data(), views[i].pixels.size());
        offset += views[i].pixels.size();
        result.sides[i] = views[i].side;
        for (int k = 0; k < 4; k++) {
            result.outlines[8 * i + 2 * k] = views[i].outline[k].x / shrink;
            result.outlines[8 * i + 2 * k + 1] = views[i].outline[k].y / shrink;
        }
    }
    return result;
}

}  // namespace

extern "C" int kgeo_qr_surface_views(const kgeo_image *gray, int maximumViews, kgeo_qr_views *out, char *error, size_t error_size) {
    if (out) *out = kgeo_qr_views{};
    return kgeo::guarded(error, error_size, [&] {
        cv::Mat image = kgeo::wrap(gray);
        if (image.channels() != 1) throw std::invalid_argument("QR surface views need a gray image");
        if (!out || maximumViews < 1) throw std::invalid_argument("no room for views");
        // Finders are looked for at most 1280 pixels on the long side (a code whose modules
        // are under a pixel there is out of reach anyway).
        double shrink = std::min(1.0, 1280.0 / std::max(image.cols, image.rows));
        cv::Mat working;
        if (shrink < 1)
            cv::resize(image, working, cv::Size(), shrink, shrink, cv::INTER_AREA);
        else
            working = image;
        std::vector<Finder> finders = findFinders(working);
        if (std::max(working.cols, working.rows) <= 640) mergeFinders(finders, findFindersEnlarged(working));
        if (finders.size() > 12) {
            std::sort(finders.begin(), finders.end(), [](const Finder &a, const Finder &b) { return a.module > b.module; });
            finders.resize(12);
        }
        std::vector<View> views;
        // An unknown phone lens: a field of view of about 55° across the long side.
        double focal = 1.0 * std::max(working.cols, working.rows);
        for (const auto &t : findTriples(finders)) {
            for (auto &v : viewsOfTriple(working, finders[t.tl], finders[t.tr], finders[t.bl], focal)) views.push_back(std::move(v));
        }
        if (static_cast<int>(views.size()) > maximumViews) views.resize(maximumViews);
        *out = pack(views, shrink);
    });
}

extern "C" void kgeo_qr_views_free(kgeo_qr_views *views) {
    if (!views) return;
    std::free(views->pixels);
    std::free(views->sides);
    std::free(views->outlines);
    *views = kgeo_qr_views{};
}
