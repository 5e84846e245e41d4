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
        /* One entry per discrete size (presets pick among them); a stepwise range gives its largest. */
        for (uint32_t sizeIndex = 0; count < capacity; sizeIndex++) {
            struct v4l2_frmsizeenum size = {0};
            size.index = sizeIndex;
            size.pixel_format = description.pixelformat;
            if (ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &size) < 0) {
                if (sizeIndex == 0) formats[count++] = (kamera_camera_format){description.pixelformat, 0, 0};
                break;
            }
            int discrete = size.type == V4L2_FRMSIZE_TYPE_DISCRETE;
            uint32_t w = discrete ? size.discrete.width : size.stepwise.max_width;
            uint32_t h = discrete ? size.discrete.height : size.stepwise.max_height;
            formats[count++] = (kamera_camera_format){description.pixelformat, w, h};
            if (!discrete) break;
        }
    }
    close(fd);
    return count;
}

/* V4L2 controls (VIDIOC_QUERYCTRL and friends), for CaptureDevice. The driver does the work;
 * these only fill plain structs, and every failure is returned as -errno. */
typedef struct kamera_v4l2_control {
    uint32_t id;
    uint32_t type;
    char name[32];
    int64_t minimum;
    int64_t maximum;
    int64_t step;
    int64_t default_value;
    int64_t value;
    uint32_t flags;
} kamera_v4l2_control;

static inline int kamera_v4l2_open(const char *path) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

static inline void kamera_v4l2_close(int fd) { close(fd); }

/* Every enabled control but class headers, with its current value where it can be read.
 * Returns the count (at most `capacity`) or -errno. */
static inline int kamera_v4l2_controls(int fd, kamera_v4l2_control *out, int capacity) {
    struct v4l2_capability capability = {0};
    if (ioctl(fd, VIDIOC_QUERYCAP, &capability) < 0) return -errno; /* not a V4L2 node */
    int count = 0;
    struct v4l2_queryctrl query = {0};
    query.id = V4L2_CTRL_FLAG_NEXT_CTRL;
    while (count < capacity && ioctl(fd, VIDIOC_QUERYCTRL, &query) == 0) {
        if (!(query.flags & V4L2_CTRL_FLAG_DISABLED) && query.type != V4L2_CTRL_TYPE_CTRL_CLASS) {
            kamera_v4l2_control *entry = &out[count++];
            entry->id = query.id;
            entry->type = query.type;
            snprintf(entry->name, sizeof entry->name, "%s", (const char *)query.name);
            entry->minimum = query.minimum;
            entry->maximum = query.maximum;
            entry->step = query.step;
            entry->default_value = query.default_value;
            entry->value = query.default_value;
            entry->flags = query.flags;
            struct v4l2_control current = {query.id, 0};
            if (!(query.flags & V4L2_CTRL_FLAG_WRITE_ONLY) && query.type != V4L2_CTRL_TYPE_BUTTON &&
                ioctl(fd, VIDIOC_G_CTRL, &current) == 0) {
                entry->value = current.value;
            }
        }
        query.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
    }
    return count;
}

/* Menu item `index` of control `id`: its name (menus) or value (integer menus). 0 when the
 * item exists, -errno when not (menus may skip indices). */
static inline int kamera_v4l2_menu_item(int fd, uint32_t id, uint32_t index, char *name, int name_size, int64_t *value) {
    struct v4l2_querymenu item = {0};
    item.id = id;
    item.index = index;
    if (ioctl(fd, VIDIOC_QUERYMENU, &item) < 0) return -errno;
    snprintf(name, (size_t)name_size, "%s", (const char *)item.name);
    *value = item.value;
    return 0;
}

static inline int kamera_v4l2_set_control(int fd, uint32_t id, int64_t value) {
    struct v4l2_control control = {id, (int32_t)value};
    return ioctl(fd, VIDIOC_S_CTRL, &control) < 0 ? -errno : 0;
}

/* Record priority: while this descriptor is open, other applications cannot change controls. */
static inline int kamera_v4l2_claim(int fd) {
    enum v4l2_priority priority = V4L2_PRIORITY_RECORD;
    return ioctl(fd, VIDIOC_S_PRIORITY, &priority) < 0 ? -errno : 0;
}

#endif
