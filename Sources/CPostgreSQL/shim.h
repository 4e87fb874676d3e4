// libpq (libpq-dev), PostgreSQL's own client library, for the shared store.
#include <libpq-fe.h>

