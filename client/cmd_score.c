/* client/cmd_score: placeholder, being written. */
