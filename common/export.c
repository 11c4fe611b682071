/* common/export: placeholder */
