/* client/cmd_td: placeholder */
