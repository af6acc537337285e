#include "color.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set, not empty and not "0": FORCE_COLOR=0 asks for no forcing, as
 * Node's and chalk's readers take it. */
static bool env_on(const char *name)
{
	const char *v = getenv(name);
	return v && *v && strcmp(v, "0") != 0;
}

bool color_wanted(int setting, int fd)
{
	if (setting >= 0)
		return setting;
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
	if (no && *no)
		return false;
	if (env_on("CLICOLOR_FORCE") || env_on("FORCE_COLOR"))
		return true;
	return isatty(fd) && !(term && !strcmp(term, "dumb"));
}
