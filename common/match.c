/* common/match: placeholder */
