/* Whether human output gets ANSI colour: the --color flag, else the
 * environment as https://bixense.com/clicolors/ orders it (NO_COLOR off,
 * then CLICOLOR_FORCE or FORCE_COLOR on), else a terminal that is not
 * dumb. */
#ifndef TF_COLOR_H
#define TF_COLOR_H

#include <stdbool.h>

/* setting: 1 always, 0 never, -1 auto (--color); fd: where the output goes. */
bool color_wanted(int setting, int fd);

#endif
