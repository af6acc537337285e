/* .gitignore patterns: the input is a .gitignore, at the root and at a
 * level below, matched against paths of the shapes a walk meets. The
 * contract: a match ends (the ** budget), and a path no pattern can name
 * (outside the level) is decided by the root's patterns alone. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "gitignore.h"

static const char *const paths[] = {
	"build", "build/x.yaml", "a/b/c/d/e/f.yaml", "sub/gen", "sub/gen/a.yaml", ".hidden/a.yaml",
	"node_modules/pkg/x/y/z.yaml", "a b/[x]/*.yaml", "logs/keep.tmp.yaml", "",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gitignore root = { 0 }, both = { 0 };
	root.root = both.root = (char *)"/fuzz";
	gitignore_add(&root, (const char *)data, size, "");
	gitignore_add(&both, (const char *)data, size, "");
	gitignore_add(&both, (const char *)data, size, "sub");
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
		for (int dir = 0; dir < 2; dir++) {
			bool a = gitignore_ignored(&root, paths[i], dir);
			bool b = gitignore_ignored(&both, paths[i], dir);
			if (strncmp(paths[i], "sub/", 4) != 0)
				FUZZ_CHECK(a == b);
		}
	root.root = both.root = NULL; /* not ours to free */
	gitignore_close(&root);
	gitignore_close(&both);
	return 0;
}
