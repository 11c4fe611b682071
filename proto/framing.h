#ifndef X_framing
#define X_framing
#endif
