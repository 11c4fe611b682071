/* common/sgf: placeholder, being written. */
