/* common/clock: placeholder */
