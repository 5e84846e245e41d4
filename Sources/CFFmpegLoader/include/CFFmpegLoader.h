#ifndef KAMERA_CFFMPEG_LOADER_H
#define KAMERA_CFFMPEG_LOADER_H

#include <stdatomic.h>
#include <stddef.h>

/* FFmpeg, loaded when a movie is first read or written instead of at process start.
 *
 * Linked directly, libavformat, libavcodec, libswscale and libavdevice bring some 190 shared
 * libraries (codecs, TLS, X11, PulseAudio, SDL, speech synthesis…) that the dynamic loader
 * maps and relocates before main: 0.1 s of every `kamera` command, even `kamera --version`.
 * Kamera defines each FFmpeg function it calls (trampolines.c) as a call through a pointer
 * resolved once from the libraries opened here; the compiler checks every definition
 * against FFmpeg's own declaration. libavdevice (cameras) is opened only for a capture. */

/* Opens libavformat, libavcodec, libavutil and libswscale (the versions of the headers
 * built against). 0 on success; -1 with the loader's message in `error`. Once per process. */
int kamera_ffmpeg_load(char *error, size_t size);

/* Opens libavdevice as well (V4L2 capture). Same convention. */
int kamera_ffmpeg_load_devices(char *error, size_t size);

/* The address of FFmpeg's `name`, cached in `cached`. Aborts with a message if FFmpeg cannot
 * be loaded: Swift callers load it first (kamera_ffmpeg_load) and turn a failure into a
 * typed error, so this is only reached by a call made without doing so. */
void *kamera_ffmpeg_symbol(const char *name, _Atomic(void *) *cached);

#endif
