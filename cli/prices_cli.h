/* Which price store a command reads (docs/prices.md, "Where the store
 * is"): --prices FILE, else none with --isolated, else the user's
 * $XDG_DATA_HOME/trainforge/prices.tsv (~/.local/share/trainforge/). */
#ifndef TF_PRICES_CLI_H
#define TF_PRICES_CLI_H

#include <stdbool.h>

struct buf;

/* The user's store path into out; false when neither XDG_DATA_HOME nor
 * HOME is set (there is then no user store). */
bool cli_prices_default(struct buf *out);

/* Installs the store for this run. A --prices FILE must be a store (a
 * message on stderr and false otherwise: exit 2); the user's store may
 * be missing, and one that is not a store gets a warning and is not
 * read. Releases it at exit. */
bool cli_prices_setup(const char *explicit_path, bool isolated);

#endif
