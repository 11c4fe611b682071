#ifndef X_server
#define X_server
#endif
