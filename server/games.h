#ifndef X_games
#define X_games
#endif
