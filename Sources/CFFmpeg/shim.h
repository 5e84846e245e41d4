#ifndef KAMERA_CFFMPEG_H
#define KAMERA_CFFMPEG_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

/* FFmpeg's function-like macros do not import into Swift; these re-export them. */
static inline int kamera_averror(int code) { return AVERROR(code); }
static inline int kamera_averror_eof(void) { return AVERROR_EOF; }
static inline int kamera_eagain(void) { return AVERROR(EAGAIN); }
static inline int64_t kamera_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational kamera_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }
static inline int kamera_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline void kamera_error_string(int code, char *buffer, size_t size) { av_strerror(code, buffer, size); }

/* V4L2 capture formats of a device, for camera discovery: fills up to `capacity` entries
 * of fourcc codes with their largest discrete frame size. Returns the count, or -1 when
 * the node cannot be opened or is not a video capture device. */
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>
#include <unistd.h>

typedef struct kamera_camera_format {
    uint32_t fourcc;
    uint32_t width;
    uint32_t height;
} kamera_camera_format;

static inline int kamera_v4l2_formats(const char *path, kamera_camera_format *formats, int capacity,
                                      char *card, int card_size) {
    int fd = open(path, O_RDWR | O_NONBLOCK);
    if (fd < 0) return -1;
    struct v4l2_capability capability = {0};
    if (ioctl(fd, VIDIOC_QUERYCAP, &capability) < 0 ||
        !((capability.device_caps ? capability.device_caps : capability.capabilities) & V4L2_CAP_VIDEO_CAPTURE)) {
        close(fd);
        return -1;
    }
    if (card && card_size > 0) {
        snprintf(card, (size_t)card_size, "%s", (const char *)capability.card);
    }
    int count = 0;
    for (uint32_t index = 0; count < capacity; index++) {
        struct v4l2_fmtdesc description = {0};
        description.index = index;
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
        if (ioctl(fd, VIDIOC_ENUM_FMT, &description) < 0) break;
        kamera_camera_format entry = {description.pixelformat, 0, 0};
        for (uint32_t sizeIndex = 0;; sizeIndex++) {
            struct v4l2_frmsizeenum size = {0};
            size.index = sizeIndex;
            size.pixel_format = description.pixelformat;
            if (ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) < 0) break;
            uint32_t w = size.type == V4L2_FRMSIZE_TYPE_DISCRETE ? size.discrete.width : size.stepwise.max_width;
            uint32_t h = size.type == V4L2_FRMSIZE_TYPE_DISCRETE ? size.discrete.height : size.stepwise.max_height;
            if ((uint64_t)w * h > (uint64_t)entry.width * entry.height) { entry.width = w; entry.height = h; }
            if (size.type != V4L2_FRMSIZE_TYPE_DISCRETE) break;
        }
        formats[count++] = entry;
    }
    close(fd);
    return count;
}

#endif
