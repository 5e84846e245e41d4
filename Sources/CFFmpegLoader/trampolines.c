/* FFmpeg's functions as Kamera calls them: each resolved once from the libraries that
 * loader.c opens, then called through its pointer. Written from Debian 12's FFmpeg 5.1 headers;
 * every definition must match the header's declaration or this file does not compile. A new
 * FFmpeg call in KameraMedia needs its line here (the link fails without it). */
#include "CFFmpegLoader.h"

#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/mathematics.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

AVRational av_d2q(double d, int max) {
    static _Atomic(void *) cached;
    AVRational (*real)(double d, int max) = (__typeof__(real))kamera_ffmpeg_symbol("av_d2q", &cached);
    return real(d, max);
}

void av_dict_free(AVDictionary **m) {
    static _Atomic(void *) cached;
    void (*real)(AVDictionary **m) = (__typeof__(real))kamera_ffmpeg_symbol("av_dict_free", &cached);
    real(m);
}

int av_dict_set(AVDictionary **pm, const char *key, const char *value, int flags) {
    static _Atomic(void *) cached;
    int (*real)(AVDictionary **pm, const char *key, const char *value, int flags) = (__typeof__(real))kamera_ffmpeg_symbol("av_dict_set", &cached);
    return real(pm, key, value, flags);
}

double av_display_rotation_get(const int32_t matrix[9]) {
    static _Atomic(void *) cached;
    double (*real)(const int32_t matrix[9]) = (__typeof__(real))kamera_ffmpeg_symbol("av_display_rotation_get", &cached);
    return real(matrix);
}

void av_display_rotation_set(int32_t matrix[9], double angle) {
    static _Atomic(void *) cached;
    void (*real)(int32_t matrix[9], double angle) = (__typeof__(real))kamera_ffmpeg_symbol("av_display_rotation_set", &cached);
    real(matrix, angle);
}

int av_find_best_stream(AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags) = (__typeof__(real))kamera_ffmpeg_symbol("av_find_best_stream", &cached);
    return real(ic, type, wanted_stream_nb, related_stream, decoder_ret, flags);
}

const AVInputFormat * av_find_input_format(const char *short_name) {
    static _Atomic(void *) cached;
    const AVInputFormat * (*real)(const char *short_name) = (__typeof__(real))kamera_ffmpeg_symbol("av_find_input_format", &cached);
    return real(short_name);
}

AVFrame * av_frame_alloc(void) {
    static _Atomic(void *) cached;
    AVFrame * (*real)(void) = (__typeof__(real))kamera_ffmpeg_symbol("av_frame_alloc", &cached);
    return real();
}

void av_frame_free(AVFrame **frame) {
    static _Atomic(void *) cached;
    void (*real)(AVFrame **frame) = (__typeof__(real))kamera_ffmpeg_symbol("av_frame_free", &cached);
    real(frame);
}

int av_frame_get_buffer(AVFrame *frame, int align) {
    static _Atomic(void *) cached;
    int (*real)(AVFrame *frame, int align) = (__typeof__(real))kamera_ffmpeg_symbol("av_frame_get_buffer", &cached);
    return real(frame, align);
}

int av_frame_make_writable(AVFrame *frame) {
    static _Atomic(void *) cached;
    int (*real)(AVFrame *frame) = (__typeof__(real))kamera_ffmpeg_symbol("av_frame_make_writable", &cached);
    return real(frame);
}

void av_frame_unref(AVFrame *frame) {
    static _Atomic(void *) cached;
    void (*real)(AVFrame *frame) = (__typeof__(real))kamera_ffmpeg_symbol("av_frame_unref", &cached);
    real(frame);
}

int av_interleaved_write_frame(AVFormatContext *s, AVPacket *pkt) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext *s, AVPacket *pkt) = (__typeof__(real))kamera_ffmpeg_symbol("av_interleaved_write_frame", &cached);
    return real(s, pkt);
}

void av_log_set_level(int level) {
    static _Atomic(void *) cached;
    void (*real)(int level) = (__typeof__(real))kamera_ffmpeg_symbol("av_log_set_level", &cached);
    real(level);
}

int av_opt_set(void *obj, const char *name, const char *val, int search_flags) {
    static _Atomic(void *) cached;
    int (*real)(void *obj, const char *name, const char *val, int search_flags) = (__typeof__(real))kamera_ffmpeg_symbol("av_opt_set", &cached);
    return real(obj, name, val, search_flags);
}

AVPacket * av_packet_alloc(void) {
    static _Atomic(void *) cached;
    AVPacket * (*real)(void) = (__typeof__(real))kamera_ffmpeg_symbol("av_packet_alloc", &cached);
    return real();
}

void av_packet_free(AVPacket **pkt) {
    static _Atomic(void *) cached;
    void (*real)(AVPacket **pkt) = (__typeof__(real))kamera_ffmpeg_symbol("av_packet_free", &cached);
    real(pkt);
}

void av_packet_rescale_ts(AVPacket *pkt, AVRational tb_src, AVRational tb_dst) {
    static _Atomic(void *) cached;
    void (*real)(AVPacket *pkt, AVRational tb_src, AVRational tb_dst) = (__typeof__(real))kamera_ffmpeg_symbol("av_packet_rescale_ts", &cached);
    real(pkt, tb_src, tb_dst);
}

void av_packet_unref(AVPacket *pkt) {
    static _Atomic(void *) cached;
    void (*real)(AVPacket *pkt) = (__typeof__(real))kamera_ffmpeg_symbol("av_packet_unref", &cached);
    real(pkt);
}

int av_read_frame(AVFormatContext *s, AVPacket *pkt) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext *s, AVPacket *pkt) = (__typeof__(real))kamera_ffmpeg_symbol("av_read_frame", &cached);
    return real(s, pkt);
}

int64_t av_rescale_q(int64_t a, AVRational bq, AVRational cq) {
    static _Atomic(void *) cached;
    int64_t (*real)(int64_t a, AVRational bq, AVRational cq) = (__typeof__(real))kamera_ffmpeg_symbol("av_rescale_q", &cached);
    return real(a, bq, cq);
}

int av_seek_frame(AVFormatContext *s, int stream_index, int64_t timestamp, int flags) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext *s, int stream_index, int64_t timestamp, int flags) = (__typeof__(real))kamera_ffmpeg_symbol("av_seek_frame", &cached);
    return real(s, stream_index, timestamp, flags);
}

uint8_t * av_stream_get_side_data(const AVStream *stream, enum AVPacketSideDataType type, size_t *size) {
    static _Atomic(void *) cached;
    uint8_t * (*real)(const AVStream *stream, enum AVPacketSideDataType type, size_t *size) = (__typeof__(real))kamera_ffmpeg_symbol("av_stream_get_side_data", &cached);
    return real(stream, type, size);
}

uint8_t * av_stream_new_side_data(AVStream *stream, enum AVPacketSideDataType type, size_t size) {
    static _Atomic(void *) cached;
    uint8_t * (*real)(AVStream *stream, enum AVPacketSideDataType type, size_t size) = (__typeof__(real))kamera_ffmpeg_symbol("av_stream_new_side_data", &cached);
    return real(stream, type, size);
}

int av_strerror(int errnum, char *errbuf, size_t errbuf_size) {
    static _Atomic(void *) cached;
    int (*real)(int errnum, char *errbuf, size_t errbuf_size) = (__typeof__(real))kamera_ffmpeg_symbol("av_strerror", &cached);
    return real(errnum, errbuf, errbuf_size);
}

int av_write_trailer(AVFormatContext *s) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext *s) = (__typeof__(real))kamera_ffmpeg_symbol("av_write_trailer", &cached);
    return real(s);
}

AVCodecContext * avcodec_alloc_context3(const AVCodec *codec) {
    static _Atomic(void *) cached;
    AVCodecContext * (*real)(const AVCodec *codec) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_alloc_context3", &cached);
    return real(codec);
}

const AVCodec * avcodec_find_encoder(enum AVCodecID id) {
    static _Atomic(void *) cached;
    const AVCodec * (*real)(enum AVCodecID id) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_find_encoder", &cached);
    return real(id);
}

const AVCodec * avcodec_find_encoder_by_name(const char *name) {
    static _Atomic(void *) cached;
    const AVCodec * (*real)(const char *name) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_find_encoder_by_name", &cached);
    return real(name);
}

void avcodec_flush_buffers(AVCodecContext *avctx) {
    static _Atomic(void *) cached;
    void (*real)(AVCodecContext *avctx) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_flush_buffers", &cached);
    real(avctx);
}

void avcodec_free_context(AVCodecContext **avctx) {
    static _Atomic(void *) cached;
    void (*real)(AVCodecContext **avctx) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_free_context", &cached);
    real(avctx);
}

const char * avcodec_get_name(enum AVCodecID id) {
    static _Atomic(void *) cached;
    const char * (*real)(enum AVCodecID id) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_get_name", &cached);
    return real(id);
}

int avcodec_open2(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_open2", &cached);
    return real(avctx, codec, options);
}

int avcodec_parameters_copy(AVCodecParameters *dst, const AVCodecParameters *src) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecParameters *dst, const AVCodecParameters *src) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_parameters_copy", &cached);
    return real(dst, src);
}

int avcodec_parameters_from_context(AVCodecParameters *par, const AVCodecContext *codec) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecParameters *par, const AVCodecContext *codec) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_parameters_from_context", &cached);
    return real(par, codec);
}

int avcodec_parameters_to_context(AVCodecContext *codec, const AVCodecParameters *par) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecContext *codec, const AVCodecParameters *par) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_parameters_to_context", &cached);
    return real(codec, par);
}

int avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecContext *avctx, AVFrame *frame) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_receive_frame", &cached);
    return real(avctx, frame);
}

int avcodec_receive_packet(AVCodecContext *avctx, AVPacket *avpkt) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecContext *avctx, AVPacket *avpkt) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_receive_packet", &cached);
    return real(avctx, avpkt);
}

int avcodec_send_frame(AVCodecContext *avctx, const AVFrame *frame) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecContext *avctx, const AVFrame *frame) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_send_frame", &cached);
    return real(avctx, frame);
}

int avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt) {
    static _Atomic(void *) cached;
    int (*real)(AVCodecContext *avctx, const AVPacket *avpkt) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_send_packet", &cached);
    return real(avctx, avpkt);
}

void avdevice_register_all(void) {
    static _Atomic(void *) cached;
    void (*real)(void) = (__typeof__(real))kamera_ffmpeg_symbol("avdevice_register_all", &cached);
    real();
}

int avformat_alloc_output_context2(AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_alloc_output_context2", &cached);
    return real(ctx, oformat, format_name, filename);
}

void avformat_close_input(AVFormatContext **s) {
    static _Atomic(void *) cached;
    void (*real)(AVFormatContext **s) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_close_input", &cached);
    real(s);
}

int avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext *ic, AVDictionary **options) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_find_stream_info", &cached);
    return real(ic, options);
}

void avformat_free_context(AVFormatContext *s) {
    static _Atomic(void *) cached;
    void (*real)(AVFormatContext *s) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_free_context", &cached);
    real(s);
}

AVStream * avformat_new_stream(AVFormatContext *s, const AVCodec *c) {
    static _Atomic(void *) cached;
    AVStream * (*real)(AVFormatContext *s, const AVCodec *c) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_new_stream", &cached);
    return real(s, c);
}

int avformat_open_input(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_open_input", &cached);
    return real(ps, url, fmt, options);
}

int avformat_query_codec(const AVOutputFormat *ofmt, enum AVCodecID codec_id, int std_compliance) {
    static _Atomic(void *) cached;
    int (*real)(const AVOutputFormat *ofmt, enum AVCodecID codec_id, int std_compliance) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_query_codec", &cached);
    return real(ofmt, codec_id, std_compliance);
}

int avformat_write_header(AVFormatContext *s, AVDictionary **options) {
    static _Atomic(void *) cached;
    int (*real)(AVFormatContext *s, AVDictionary **options) = (__typeof__(real))kamera_ffmpeg_symbol("avformat_write_header", &cached);
    return real(s, options);
}

int avio_closep(AVIOContext **s) {
    static _Atomic(void *) cached;
    int (*real)(AVIOContext **s) = (__typeof__(real))kamera_ffmpeg_symbol("avio_closep", &cached);
    return real(s);
}

void avio_flush(AVIOContext *s) {
    static _Atomic(void *) cached;
    void (*real)(AVIOContext *s) = (__typeof__(real))kamera_ffmpeg_symbol("avio_flush", &cached);
    real(s);
}

int avio_open(AVIOContext **s, const char *url, int flags) {
    static _Atomic(void *) cached;
    int (*real)(AVIOContext **s, const char *url, int flags) = (__typeof__(real))kamera_ffmpeg_symbol("avio_open", &cached);
    return real(s, url, flags);
}

int64_t avio_seek(AVIOContext *s, int64_t offset, int whence) {
    static _Atomic(void *) cached;
    int64_t (*real)(AVIOContext *s, int64_t offset, int whence) = (__typeof__(real))kamera_ffmpeg_symbol("avio_seek", &cached);
    return real(s, offset, whence);
}

void sws_freeContext(struct SwsContext *swsContext) {
    static _Atomic(void *) cached;
    void (*real)(struct SwsContext *swsContext) = (__typeof__(real))kamera_ffmpeg_symbol("sws_freeContext", &cached);
    real(swsContext);
}

struct SwsContext * sws_getCachedContext(struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param) {
    static _Atomic(void *) cached;
    struct SwsContext * (*real)(struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param) = (__typeof__(real))kamera_ffmpeg_symbol("sws_getCachedContext", &cached);
    return real(context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param);
}

int sws_scale(struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH, uint8_t *const dst[], const int dstStride[]) {
    static _Atomic(void *) cached;
    int (*real)(struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH, uint8_t *const dst[], const int dstStride[]) = (__typeof__(real))kamera_ffmpeg_symbol("sws_scale", &cached);
    return real(c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride);
}

int av_packet_ref(AVPacket *dst, const AVPacket *src) {
    static _Atomic(void *) cached;
    int (*real)(AVPacket *dst, const AVPacket *src) = (__typeof__(real))kamera_ffmpeg_symbol("av_packet_ref", &cached);
    return real(dst, src);
}

AVPacket *av_packet_clone(const AVPacket *src) {
    static _Atomic(void *) cached;
    AVPacket *(*real)(const AVPacket *src) = (__typeof__(real))kamera_ffmpeg_symbol("av_packet_clone", &cached);
    return real(src);
}

AVCodecParameters *avcodec_parameters_alloc(void) {
    static _Atomic(void *) cached;
    AVCodecParameters *(*real)(void) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_parameters_alloc", &cached);
    return real();
}

void avcodec_parameters_free(AVCodecParameters **par) {
    static _Atomic(void *) cached;
    void (*real)(AVCodecParameters **par) = (__typeof__(real))kamera_ffmpeg_symbol("avcodec_parameters_free", &cached);
    real(par);
}

const AVOutputFormat *av_guess_format(const char *short_name, const char *filename, const char *mime_type) {
    static _Atomic(void *) cached;
    const AVOutputFormat *(*real)(const char *short_name, const char *filename, const char *mime_type) =
        (__typeof__(real))kamera_ffmpeg_symbol("av_guess_format", &cached);
    return real(short_name, filename, mime_type);
}
