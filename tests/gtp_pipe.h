#ifndef X_gtp_pipe
#define X_gtp_pipe
#endif
