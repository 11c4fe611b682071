#ifndef X_sgf
#define X_sgf
#endif
