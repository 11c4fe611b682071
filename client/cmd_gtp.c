/* client/cmd_gtp: placeholder */
