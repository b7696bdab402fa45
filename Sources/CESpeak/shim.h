#ifndef BOK_CESPEAK_SHIM_H
#define BOK_CESPEAK_SHIM_H
// eSpeak NG (Debian libespeak-ng-dev) for reading aloud; voices from espeak-ng-data.
#include <espeak-ng/speak_lib.h>
#endif
