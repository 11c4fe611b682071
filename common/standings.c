/* common/standings: placeholder */
