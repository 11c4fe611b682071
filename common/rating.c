/* common/rating: placeholder */
