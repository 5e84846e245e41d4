#define _GNU_SOURCE
#include "CFFmpegLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libavcodec/version_major.h>
#include <libavdevice/version_major.h>
#include <libavformat/version_major.h>
#include <libavutil/version.h>
#include <libswscale/version_major.h>

#define KAMERA_TEXT(x) #x
#define KAMERA_SONAME(name, major) "lib" name ".so." KAMERA_TEXT(major)

/* The libraries the headers describe, by their versioned names (the runtime packages'). */
static const char *const core_names[] = {
    KAMERA_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR),
    KAMERA_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR),
    KAMERA_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR),
    KAMERA_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR),
};
#define CORE_COUNT (sizeof core_names / sizeof core_names[0])
static const char *const device_name = KAMERA_SONAME("avdevice", LIBAVDEVICE_VERSION_MAJOR);

static void *core[CORE_COUNT];
static void *devices;
static char core_failure[512];
static char device_failure[512];
static pthread_once_t core_once = PTHREAD_ONCE_INIT;
static pthread_once_t device_once = PTHREAD_ONCE_INIT;

static void open_core(void) {
    for (size_t i = 0; i < CORE_COUNT; i++) {
        /* RTLD_LOCAL: FFmpeg's symbols stay out of the process's global scope. */
        core[i] = dlopen(core_names[i], RTLD_NOW | RTLD_LOCAL);
        if (!core[i]) {
            const char *message = dlerror();
            snprintf(core_failure, sizeof core_failure, "%s", message ? message : core_names[i]);
            return;
        }
    }
}

static void open_devices(void) {
    devices = dlopen(device_name, RTLD_NOW | RTLD_LOCAL);
    if (!devices) {
        const char *message = dlerror();
        snprintf(device_failure, sizeof device_failure, "%s", message ? message : device_name);
    }
}

int kamera_ffmpeg_load(char *error, size_t size) {
    pthread_once(&core_once, open_core);
    if (core_failure[0] == 0) return 0;
    if (error && size > 0) snprintf(error, size, "%s", core_failure);
    return -1;
}

int kamera_ffmpeg_load_devices(char *error, size_t size) {
    if (kamera_ffmpeg_load(error, size) != 0) return -1;
    pthread_once(&device_once, open_devices);
    if (device_failure[0] == 0) return 0;
    if (error && size > 0) snprintf(error, size, "%s", device_failure);
    return -1;
}

void *kamera_ffmpeg_symbol(const char *name, _Atomic(void *) *cached) {
    void *symbol = atomic_load_explicit(cached, memory_order_acquire);
    if (symbol) return symbol;
    char error[512];
    int is_device = strncmp(name, "avdevice_", 9) == 0;
    if ((is_device ? kamera_ffmpeg_load_devices(error, sizeof error) : kamera_ffmpeg_load(error, sizeof error)) != 0) {
        fprintf(stderr, "kamera: FFmpeg cannot be loaded (%s): %s\n", name, error);
        abort();
    }
    if (is_device) {
        symbol = dlsym(devices, name);
    } else {
        for (size_t i = 0; i < CORE_COUNT && !symbol; i++) symbol = dlsym(core[i], name);
    }
    if (!symbol) {
        fprintf(stderr, "kamera: the FFmpeg libraries have no %s\n", name);
        abort();
    }
    atomic_store_explicit(cached, symbol, memory_order_release);
    return symbol;
}
