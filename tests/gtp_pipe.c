/* tests/gtp_pipe: placeholder, being written. */
