#ifndef X_clock
#define X_clock
#endif
