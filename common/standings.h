#ifndef X_standings
#define X_standings
#endif
