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

#endif
