#ifndef X_harness
#define X_harness
#endif
