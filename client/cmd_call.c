/* client/cmd_call: placeholder */
