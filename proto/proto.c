/* proto/proto: placeholder, being written. */
