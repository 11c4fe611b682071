/* server/store: placeholder, being written. */
