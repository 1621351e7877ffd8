// Test-only LD_PRELOAD shim: fails the Nth file-system call of a kind under a folder, and with
// FAULT_RECORD set records every change a process makes under it, for the power-loss explorer
// (Tests/PlainStoreTests/PowerLoss): each a line, a write followed by its bytes.
//   W <inode> <offset> <count>\n<bytes>   T <inode> <size>   S <inode> (fsync, fdatasync)
//   C <parent inode> <f|d> <inode> <name> (a file or folder created)   U <parent inode> <name>
//   R <from parent> <to parent> <from name>/<to name>   M <bytes written to standard output>
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
#include <libgen.h>
#include <pthread.h>

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

static int counter, faulted;
// Returns nonzero when this call must fail: the FAULT_NTH call of kind FAULT_OP (1-based), and
// once it has, every call of kind FAULT_ALSO (a rollback that fails too: the journal's cut).
// Every call of a kind under the root is appended to FAULT_LOG when set.
static int should_fail(const char *op, const char *detail) {
  const char *log = getenv("FAULT_LOG");
  if (log) {
    int saved = errno;
    FILE *f = fopen(log, "a");
    if (f) { fprintf(f, "%s %s\n", op, detail ? detail : ""); fclose(f); }
    errno = saved;
  }
  const char *also = getenv("FAULT_ALSO");
  if (faulted && also && strcmp(also, op) == 0) {
    const char *code = getenv("FAULT_ERRNO");
    errno = code ? atoi(code) : EIO;
    return 1;
  }
  const char *want = getenv("FAULT_OP");
  if (!want || strcmp(want, op) != 0) return 0;
  counter += 1;
  const char *nth = getenv("FAULT_NTH");
  if (!nth || atoi(nth) != counter) return 0;
  faulted = 1;
  const char *code = getenv("FAULT_ERRNO");
  errno = code ? atoi(code) : EIO;
  const char *hit = getenv("FAULT_HIT");
  if (hit) { int saved = errno; FILE *f = fopen(hit, "a"); if (f) { fprintf(f, "%s %s\n", op, detail ? detail : ""); fclose(f); } errno = saved; }
  return 1;
}


// MARK: Recording

static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *record_path(void) { return getenv("FAULT_RECORD"); }

// Appends one entry (a header line, then `count` bytes if any) to FAULT_RECORD, whole.
static void record(const char *header, const void *bytes, size_t count) {
  const char *path = record_path();
  if (!path) return;
  int saved = errno;
  pthread_mutex_lock(&record_lock);
  FILE *f = fopen(path, "a");
  if (f) {
    fputs(header, f);
    fputc('\n', f);
    if (count) fwrite(bytes, 1, count, f);
    fclose(f);
  }
  pthread_mutex_unlock(&record_lock);
  errno = saved;
}

static unsigned long long inode_of_fd(int fd) {
  struct stat info;
  return fstat(fd, &info) == 0 ? (unsigned long long)info.st_ino : 0;
}

// The absolute path of `path` as seen from `dirfd` (AT_FDCWD: the working folder).
static void absolute(int dirfd, const char *path, char *out, size_t size) {
  if (path[0] == '/') { snprintf(out, size, "%s", path); return; }
  char base[PATH_MAX];
  if (dirfd == AT_FDCWD) { if (!getcwd(base, sizeof base)) base[0] = 0; }
  else if (!fd_path(dirfd, base, sizeof base)) base[0] = 0;
  snprintf(out, size, "%s/%s", base, path);
}

// The inode of the folder holding `absolute_path`, and the entry's name.
static unsigned long long parent_inode(const char *absolute_path, char *name, size_t size) {
  char copy[PATH_MAX], copy2[PATH_MAX];
  snprintf(copy, sizeof copy, "%s", absolute_path);
  snprintf(copy2, sizeof copy2, "%s", absolute_path);
  size_t n = strlen(copy);
  while (n > 1 && copy[n - 1] == '/') { copy[--n] = 0; copy2[n] = 0; }
  snprintf(name, size, "%s", basename(copy2));
  struct stat info;
  return stat(dirname(copy), &info) == 0 ? (unsigned long long)info.st_ino : 0;
}

static int recording_fd(int fd) { return record_path() && under_root_fd(fd); }

static void record_write(int fd, const void *buf, ssize_t written, off_t offset) {
  if (written <= 0) return;
  if (!recording_fd(fd)) {
    if (fd == STDOUT_FILENO && record_path()) {
      char header[64];
      snprintf(header, sizeof header, "M %zd", written);
      record(header, buf, (size_t)written);
    }
    return;
  }
  char header[128];
  snprintf(header, sizeof header, "W %llu %lld %zd", inode_of_fd(fd), (long long)offset, written);
  record(header, buf, (size_t)written);
}

static void record_sync(int fd) {
  if (!recording_fd(fd)) return;
  char header[64];
  snprintf(header, sizeof header, "S %llu", inode_of_fd(fd));
  record(header, 0, 0);
}

static void record_created(const char *absolute_path, char kind, unsigned long long inode) {
  char name[NAME_MAX + 1], header[PATH_MAX + 128];
  unsigned long long parent = parent_inode(absolute_path, name, sizeof name);
  snprintf(header, sizeof header, "C %llu %c %llu %s", parent, kind, inode, name);
  record(header, 0, 0);
}

static void record_unlinked(int dirfd, const char *path) {
  char full[PATH_MAX], name[NAME_MAX + 1], header[PATH_MAX + 64];
  absolute(dirfd, path, full, sizeof full);
  unsigned long long parent = parent_inode(full, name, sizeof name);
  snprintf(header, sizeof header, "U %llu %s", parent, name);
  record(header, 0, 0);
}

// Whether an open of `path` (from `dirfd`) with `flags` will create the file: checked before it.
static int will_create(int dirfd, const char *path, int flags, char *full, size_t size) {
  if (!record_path() || !(flags & O_CREAT)) return 0;
  absolute(dirfd, path, full, size);
  if (!under_root_path(full)) return 0;
  struct stat info;
  return lstat(full, &info) != 0;
}

static int after_open(int fd, int creating, const char *full) {
  if (fd >= 0 && creating) record_created(full, 'f', inode_of_fd(fd));
  return fd;
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
  ssize_t written = real_write(fd, buf, count);
  if (written > 0 && record_path()) {
    off_t end = recording_fd(fd) ? lseek(fd, 0, SEEK_CUR) : 0;
    record_write(fd, buf, written, end - written);
  }
  return written;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  REAL(pwrite);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("write", fd_detail(fd, path, sizeof path))) return -1;
  ssize_t written = real_pwrite(fd, buf, count, offset);
  record_write(fd, buf, written, offset);
  return written;
}

int ftruncate(int fd, off_t length) {
  REAL(ftruncate);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("truncate", fd_detail(fd, path, sizeof path))) return -1;
  int result = real_ftruncate(fd, length);
  if (result == 0 && recording_fd(fd)) {
    char header[96];
    snprintf(header, sizeof header, "T %llu %lld", inode_of_fd(fd), (long long)length);
    record(header, 0, 0);
  }
  return result;
}

int fsync(int fd) {
  REAL(fsync);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("fsync", fd_detail(fd, path, sizeof path))) return -1;
  int result = real_fsync(fd);
  if (result == 0) record_sync(fd);
  return result;
}

int fdatasync(int fd) {
  REAL(fdatasync);
  char path[PATH_MAX];
  if (under_root_fd(fd) && should_fail("fsync", fd_detail(fd, path, sizeof path))) return -1;
  int result = real_fdatasync(fd);
  if (result == 0) record_sync(fd);
  return result;
}

// A rename's two folders and names, taken before it (nothing when not recording).
struct rename_entry { unsigned long long fromParent, toParent; char fromName[NAME_MAX + 1], toName[NAME_MAX + 1]; };

static void rename_before(int fromfd, const char *from, int tofd, const char *to, struct rename_entry *entry) {
  entry->fromParent = entry->toParent = 0;
  if (!record_path()) return;
  char fromFull[PATH_MAX], toFull[PATH_MAX];
  absolute(fromfd, from, fromFull, sizeof fromFull);
  absolute(tofd, to, toFull, sizeof toFull);
  if (!under_root_path(toFull) && !under_root_path(fromFull)) return;
  entry->fromParent = parent_inode(fromFull, entry->fromName, sizeof entry->fromName);
  entry->toParent = parent_inode(toFull, entry->toName, sizeof entry->toName);
}

static int rename_after(int result, const struct rename_entry *entry) {
  if (result == 0 && entry->fromParent && entry->toParent) {
    char header[2 * NAME_MAX + 96];
    snprintf(header, sizeof header, "R %llu %llu %s/%s", entry->fromParent, entry->toParent, entry->fromName, entry->toName);
    record(header, 0, 0);
  }
  return result;
}

int rename(const char *from, const char *to) {
  REAL(rename);
  if (under_root_path(to) && should_fail("rename", to)) return -1;
  struct rename_entry entry;
  rename_before(AT_FDCWD, from, AT_FDCWD, to, &entry);
  return rename_after(real_rename(from, to), &entry);
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
  REAL(renameat);
  if (under_root_at(tofd, to) && should_fail("rename", to)) return -1;
  struct rename_entry entry;
  rename_before(fromfd, from, tofd, to, &entry);
  return rename_after(real_renameat(fromfd, from, tofd, to), &entry);
}

int unlink(const char *path) {
  REAL(unlink);
  if (under_root_path(path) && should_fail("unlink", path)) return -1;
  int result = real_unlink(path);
  if (result == 0 && record_path() && under_root_path(path)) record_unlinked(AT_FDCWD, path);
  return result;
}

int unlinkat(int dirfd, const char *path, int flags) {
  REAL(unlinkat);
  if (under_root_at(dirfd, path) && should_fail("unlink", path)) return -1;
  int result = real_unlinkat(dirfd, path, flags);
  if (result == 0 && record_path() && under_root_at(dirfd, path)) record_unlinked(dirfd, path);
  return result;
}

int rmdir(const char *path) {
  REAL(rmdir);
  if (under_root_path(path) && should_fail("unlink", path)) return -1;
  int result = real_rmdir(path);
  if (result == 0 && record_path() && under_root_path(path)) record_unlinked(AT_FDCWD, path);
  return result;
}

int mkdir(const char *path, mode_t mode) {
  REAL(mkdir);
  if (under_root_path(path) && should_fail("mkdir", path)) return -1;
  int result = real_mkdir(path, mode);
  if (result == 0 && record_path() && under_root_path(path)) {
    char full[PATH_MAX];
    absolute(AT_FDCWD, path, full, sizeof full);
    struct stat info;
    if (lstat(full, &info) == 0) record_created(full, 'd', (unsigned long long)info.st_ino);
  }
  return result;
}

// Opens that create or write: the ones a commit, a compaction or a merge makes.
static int writes(int flags) { return (flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)) != 0; }

int open(const char *path, int flags, ...) {
  REAL(open);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_path(path) && should_fail("open", path)) return -1;
  char full[PATH_MAX];
  int creating = will_create(AT_FDCWD, path, flags, full, sizeof full);
  return after_open(real_open(path, flags, mode), creating, full);
}

int open64(const char *path, int flags, ...) {
  REAL(open64);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_path(path) && should_fail("open", path)) return -1;
  char full[PATH_MAX];
  int creating = will_create(AT_FDCWD, path, flags, full, sizeof full);
  return after_open(real_open64(path, flags, mode), creating, full);
}

int openat(int dirfd, const char *path, int flags, ...) {
  REAL(openat);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_at(dirfd, path) && should_fail("open", path)) return -1;
  char full[PATH_MAX];
  int creating = will_create(dirfd, path, flags, full, sizeof full);
  return after_open(real_openat(dirfd, path, flags, mode), creating, full);
}

int openat64(int dirfd, const char *path, int flags, ...) {
  REAL(openat64);
  mode_t mode = 0;
  if (flags & (O_CREAT | __O_TMPFILE)) { va_list ap; va_start(ap, flags); mode = va_arg(ap, int); va_end(ap); }
  if (writes(flags) && under_root_at(dirfd, path) && should_fail("open", path)) return -1;
  char full[PATH_MAX];
  int creating = will_create(dirfd, path, flags, full, sizeof full);
  return after_open(real_openat64(dirfd, path, flags, mode), creating, full);
}
