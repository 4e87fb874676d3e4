// The Linux calls of CStackDocSystem.h (see there): compiled with _GNU_SOURCE, so that glibc's own
// headers declare them and their flags.
#define _GNU_SOURCE
#include "CStackDocSystem.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
#include <linux/falloc.h>
#include <malloc.h>
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)  // <linux/fs.h>; <stdio.h> has it from glibc 2.28
#endif

const unsigned int stackdoc_sync_file_range_write = SYNC_FILE_RANGE_WRITE;
const int stackdoc_m_top_pad = M_TOP_PAD;
const int stackdoc_m_mmap_threshold = M_MMAP_THRESHOLD;
const unsigned int stackdoc_rename_exchange = RENAME_EXCHANGE;
const int stackdoc_falloc_keep_size = FALLOC_FL_KEEP_SIZE;

int stackdoc_sync_file_range(int fd, int64_t offset, int64_t count, unsigned int flags) {
    return sync_file_range(fd, offset, count, flags);
}

int stackdoc_mallopt(int parameter, int value) {
    return mallopt(parameter, value);
}

int stackdoc_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, flags);
}

int stackdoc_fallocate(int fd, int mode, int64_t offset, int64_t length) {
    return fallocate(fd, mode, offset, length);
}
#else
const unsigned int stackdoc_sync_file_range_write = 0;
const int stackdoc_m_top_pad = 0;
const int stackdoc_m_mmap_threshold = 0;
const unsigned int stackdoc_rename_exchange = 0;
const int stackdoc_falloc_keep_size = 0;

int stackdoc_sync_file_range(int fd, int64_t offset, int64_t count, unsigned int flags) {
    errno = ENOSYS;
    return -1;
}

int stackdoc_mallopt(int parameter, int value) {
    return 0;
}

int stackdoc_renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags) {
    errno = ENOSYS;
    return -1;
}

int stackdoc_fallocate(int fd, int mode, int64_t offset, int64_t length) {
    errno = ENOSYS;
    return -1;
}
#endif
