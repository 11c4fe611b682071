#ifndef X_cmd_td
#define X_cmd_td
#endif
