#ifndef X_referee
#define X_referee
#endif
