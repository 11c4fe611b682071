#ifndef X_cmd_gtp
#define X_cmd_gtp
#endif
