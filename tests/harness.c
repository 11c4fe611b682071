/* tests/harness: placeholder, being written. */
