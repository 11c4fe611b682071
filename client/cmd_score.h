#ifndef X_cmd_score
#define X_cmd_score
#endif
