// The system's SQLite: part of every Apple SDK, and of Linux images as libsqlite3-dev.
// BabyDashboard uses it only to read the SwiftData store it migrates from.
#include <sqlite3.h>
