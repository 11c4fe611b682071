#ifndef X_rating
#define X_rating
#endif
