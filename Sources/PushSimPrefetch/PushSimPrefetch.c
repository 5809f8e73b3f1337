// The prefetch helpers are inline in the header (include/PushSimPrefetch.h); SwiftPM needs one
// source file to build a C target.
#include "PushSimPrefetch.h"
