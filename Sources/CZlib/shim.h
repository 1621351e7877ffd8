// The system's zlib: part of every Apple SDK, and of Linux images as zlib1g-dev.
// BabyDashboard uses it only to inflate Core Data's model cache (raw DEFLATE).
#include <zlib.h>
