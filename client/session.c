/* client/session: placeholder */
