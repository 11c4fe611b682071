#ifndef X_pairing
#define X_pairing
#endif
