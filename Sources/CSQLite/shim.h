// The system's SQLite: part of every Apple SDK, and of Linux images as libsqlite3-dev.
// BabyDashboard uses it only to read the SwiftData store it migrates from.
#if __has_include(<sqlite3.h>)
#include <sqlite3.h>
#else
// Without it the build would stop at "'sqlite3.h' file not found", which does not say what to do.
#error "SQLite's header is missing: install the system packages first (README, Install step 1): sudo apt-get install libsqlite3-dev zlib1g-dev"
#endif
