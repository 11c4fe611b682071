/* server/accounts: placeholder, being written. */
