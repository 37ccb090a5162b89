// expat (libexpat1-dev), the XML parser the c-callbacks demo hands its callbacks to.
#include <expat.h>
