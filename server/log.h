#ifndef X_log
#define X_log
#endif
