#ifndef X_store
#define X_store
#endif
