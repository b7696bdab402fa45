#ifndef BOK_CZLIB_SHIM_H
#define BOK_CZLIB_SHIM_H
#include <zlib.h>
#endif
