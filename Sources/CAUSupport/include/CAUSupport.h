#ifndef CAUSUPPORT_H
#define CAUSUPPORT_H
#include "au_thread.h"
#include "au_float.h"
#include "au_lv2.h"
#include "au_strict.h"
#include "au_fftw.h"
#include "au_futex.h"
#include "au_bridge.h"
#include "au_quantize.h"
#include "au_loaded_objects.h"
#include "au_scan.h"
#include "au_meter.h"
#endif
