#ifndef X_accounts
#define X_accounts
#endif
