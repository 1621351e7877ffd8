// The system's zlib: part of every Apple SDK, and of Linux images as zlib1g-dev.
// BabyDashboard uses it only to inflate Core Data's model cache (raw DEFLATE).
#if __has_include(<zlib.h>)
#include <zlib.h>
#else
// Without it the build would stop at "'zlib.h' file not found", which does not say what to do.
#error "zlib's header is missing: install the system packages first (README, Install step 1): sudo apt-get install libsqlite3-dev zlib1g-dev"
#endif
