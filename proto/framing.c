/* proto/framing: placeholder, being written. */
