#ifndef FEEDS_CLIBPQ_SHIM_H
#define FEEDS_CLIBPQ_SHIM_H
/* libpq's types and constants only: its functions come through CLibPQShim, which loads the
   library on first use (see its header). No pkg-config and no `link`: either would link libpq
   into every `feeds`. Debian puts the header in /usr/include/postgresql, whose own includes are
   quoted, so they are found next to it. */
#include <postgresql/libpq-fe.h>
#endif
