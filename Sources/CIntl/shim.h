// glibc's libintl (gettext, ngettext, bindtextdomain) and setlocale, which the Glibc module does not export.
#include <libintl.h>
#include <locale.h>
