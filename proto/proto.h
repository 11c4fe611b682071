#ifndef X_proto
#define X_proto
#endif
