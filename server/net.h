#ifndef X_net
#define X_net
#endif
