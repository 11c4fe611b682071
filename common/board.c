/* board: placeholder */
