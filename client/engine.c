/* client/engine: placeholder */
