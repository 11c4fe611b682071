/* server/net: placeholder, being written. */
