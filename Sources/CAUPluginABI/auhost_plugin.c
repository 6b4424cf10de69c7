/* Compiles the header once, so a mistake in it fails the build, and gives SwiftPM a
 * source file for this otherwise header-only target. Defines nothing. */
#include <stddef.h>

#include "auhost_plugin.h"

_Static_assert(sizeof(auhost_event) == 20, "auhost_event is 20 bytes in ABI version 1");
_Static_assert(sizeof(uint32_t) == 4, "uint32_t is 4 bytes");
/* Version 1's table is version 2's without get_extension: the fields before it never move. */
_Static_assert(offsetof(auhost_unit, get_extension) == 17 * sizeof(void *) + 8, "auhost_unit keeps version 1's layout as its prefix");
