/* Rule selectors as users write them on the command line: an ID
 * (PC2101, pc2101), a name (efa-without-placement-group), an ID prefix
 * (PC, PC2, PC21) or ALL. */
#ifndef TF_SELECTORS_H
#define TF_SELECTORS_H

#include <stdbool.h>

#include "rules.h"

/* Sets mark[i] = value for every rule a comma-separated list selects.
 * Returns false (after a message on stderr) on an unknown selector. */
bool selectors_apply(const char *list, bool *mark, bool value);

#endif
