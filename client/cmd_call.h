#ifndef X_cmd_call
#define X_cmd_call
#endif
