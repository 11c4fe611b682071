/* common/referee: placeholder, being written. */
