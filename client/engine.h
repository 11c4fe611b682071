#ifndef X_engine
#define X_engine
#endif
