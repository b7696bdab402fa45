#ifndef BOK_CHYPHEN_SHIM_H
#define BOK_CHYPHEN_SHIM_H
// libhyphen (Debian libhyphen-dev), the pattern hyphenation LibreOffice uses, with the pattern
// files of Debian's hyphen-* packages in /usr/share/hyphen.
#include <hyphen.h>
#endif
