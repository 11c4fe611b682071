/* server/log: placeholder, being written. */
