/* server/server: placeholder, being written. */
