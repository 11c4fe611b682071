#ifndef X_match
#define X_match
#endif
