#ifndef LV2_FIXTURES_H
#define LV2_FIXTURES_H
/// How many fixture descriptors the library exports (the tests check the library loaded).
int auhost_lv2_fixtures_count(void);
#endif
