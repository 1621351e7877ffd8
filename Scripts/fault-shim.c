// Test-only LD_PRELOAD shim: fails the Nth file-system call of a kind under a folder.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char *root(void) { return getenv("FAULT_ROOT"); }

static int under_root_path(const char *path) {
  const char *r = root();
  if (!r || !path) return 0;
  char resolved[PATH_MAX];
  if (path[0] != '/') {
    if (!getcwd(resolved, sizeof resolved)) return 0;
    size_t n = strlen(resolved);
    snprintf(resolved + n, sizeof resolved - n, "/%s", path);
    path = resolved;
  }
  return strncmp(path, r, strlen(r)) == 0;
}

static int fd_path(int fd, char *out, size_t size) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, out, size - 1);
  if (n < 0) return 0;
  out[n] = 0;
  return 1;
}

static int under_root_fd(int fd) {
  char path[PATH_MAX];
  return fd_path(fd, path, sizeof path) && under_root_path(path);
}

static int under_root_at(int dirfd, const char *path) {
  if (!path) return 0;
  if (path[0] == '/' || dirfd == AT_FDCWD) return under_root_path(path);
  return under_root_fd(dirfd);
}

static int counter;
// Returns nonzero when this call must fail: the FAULT_NTH call of kind FAULT_OP (1-based).
// Every call of a kind under the root is appended to FAULT_LOG when set.
static int should_fail(const char *op, const char *detail) {
  const char *log = getenv("FAULT_LOG");
  if (log) {
    int saved = errno;
    FILE *f = fopen(log, "a");
    if (f) { fprintf(f, "%s %s\n", op, detail ? detail : ""); fclose(f); }
    errno = saved;
  }
  const char *want = getenv("FAULT_OP");
  if (!want || strcmp(want, op) != 0) return 0;
  counter += 1;
  const char *nth = getenv("FAULT_NTH");
  if (!nth || atoi(nth) != counter) return 0;
  const char *code = getenv("FAULT_ERRNO");
  errno = code ? atoi(code) : EIO;
  const char *hit = getenv("FAULT_HIT");
  if (hit) { int saved = errno; FILE *f = fopen(hit, "a"); if (f) { fprintf(f, "%s %s\n", op, detail ? detail : ""); fclose(f); } errno = saved; }
  return 1;
}

#define REAL(name) static __typeof__(name) *real_##name; if (!real_##name) real_##name = dlsym(RTLD_NEXT, #name)

static char *fd_detail(int fd, char *buffer, size_t size) {
  if (!fd_path(fd, buffer, size)) snprintf(buffer, size, "fd%d", fd);
  return buffer;
}

ssize_t write(int fd, const void *buf, size_t count) {
  REAL(write);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("write", fd_detail(fd, path, sizeof path))) return -1;
  return real_write(fd, buf, count);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  REAL(pwrite);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("write", fd_detail(fd, path, sizeof path))) return -1;
  return real_pwrite(fd, buf, count, offset);
}

int fsync(int fd) {
  REAL(fsync);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("fsync", fd_detail(fd, path, sizeof path))) return -1;
  return real_fsync(fd);
}

int fdatasync(int fd) {
  REAL(fdatasync);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("fsync", fd_detail(fd, path, sizeof path))) return -1;
  return real_fdatasync(fd);
}

int rename(const char *from, const char *to) {
  REAL(rename);
  if (under_root_path(to) && should_fail("rename", to)) return -1;
  return real_rename(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
  REAL(renameat);
  if (under_root_at(tofd, to) && should_fail("rename", to)) return -1;
  return real_renameat(fromfd, from, tofd, to);
}

int unlink(const char *path) {
  REAL(unlink);
  if (under_root_path(path) && should_fail("unlink", path)) return -1;
  return real_unlink(path);
}

int unlinkat(int dirfd, const char *path, int flags) {
  REAL(unlinkat);
  if (under_root_at(dirfd, path) && should_fail("unlink", path)) return -1;
  return real_unlinkat(dirfd, path, flags);
}

int rmdir(const char *path) {
  REAL(rmdir);
  if (under_root_path(path) && should_fail("unlink", path)) return -1;
  return real_rmdir(path);
}

int mkdir(const char *path, mode_t mode) {
  REAL(mkdir);
  if (under_root_path(path) && should_fail("mkdir", path)) return -1;
  return real_mkdir(path, mode);
}

// Opens that create or write: the ones a commit, a compaction or a merge makes.
static int writes(int flags) { return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0; }

int open(const char *path, int flags, ...) {
  REAL(open);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_path(path) && should_fail("open", path)) return -1;
  return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
  REAL(open64);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_path(path) && should_fail("open", path)) return -1;
  return real_open64(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
  REAL(openat);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_at(dirfd, path) && should_fail("open", path)) return -1;
  return real_openat(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...) {
  REAL(openat64);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_at(dirfd, path) && should_fail("open", path)) return -1;
  return real_openat64(dirfd, path, flags, mode);
}
