#ifndef X_export
#define X_export
#endif
