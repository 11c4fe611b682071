/* common/pairing: placeholder */
