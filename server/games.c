/* server/games: placeholder, being written. */
