/* The release table (docs/versions.md, "pc-releases": every row there
 * with a Slurm version, each with its source). Left out because no
 * source read gives their Slurm: 3.2.0, 3.2.1, 3.10.0, 3.10.1, 3.13.2,
 * 3.14.1 and 3.14.2. 3.1.4 and 3.1.5 ship Slurm 21.08.8-2, kept here as
 * 21.08.8 (the -2 is a packaging revision). */
#include "releases.h"

#define R(a, b, c, sa, sb, sc, how) { VERSION_AT(a, b, c), VERSION_AT(sa, sb, sc), RELEASE_##how }

static const struct pc_release releases[] = {
	R(3, 0, 0, 20, 11, 8, SOURCED),
	R(3, 0, 1, 20, 11, 8, DERIVED),
	R(3, 0, 2, 20, 11, 8, DERIVED),
	R(3, 0, 3, 20, 11, 8, DERIVED),
	R(3, 1, 1, 21, 8, 5, SOURCED),
	R(3, 1, 2, 21, 8, 6, SOURCED),
	R(3, 1, 3, 21, 8, 6, DERIVED),
	R(3, 1, 4, 21, 8, 8, SOURCED),
	R(3, 1, 5, 21, 8, 8, DERIVED),
	R(3, 3, 0, 22, 5, 5, SOURCED),
	R(3, 3, 1, 22, 5, 5, DERIVED),
	R(3, 4, 0, 22, 5, 7, SOURCED),
	R(3, 4, 1, 22, 5, 7, DERIVED),
	R(3, 5, 0, 22, 5, 8, SOURCED),
	R(3, 5, 1, 22, 5, 8, DERIVED),
	R(3, 6, 0, 23, 2, 2, SOURCED),
	R(3, 6, 1, 23, 2, 2, DERIVED),
	R(3, 7, 0, 23, 2, 4, SOURCED),
	R(3, 7, 1, 23, 2, 5, SOURCED),
	R(3, 7, 2, 23, 2, 6, SOURCED),
	R(3, 8, 0, 23, 2, 7, SOURCED),
	R(3, 9, 0, 23, 11, 4, SOURCED),
	R(3, 9, 1, 23, 11, 4, DERIVED),
	R(3, 9, 2, 23, 11, 7, SOURCED),
	R(3, 9, 3, 23, 11, 7, DERIVED),
	R(3, 11, 0, 23, 11, 10, THIRD_PARTY),
	R(3, 11, 1, 23, 11, 10, THIRD_PARTY),
	R(3, 12, 0, 24, 5, 2, DERIVED),
	R(3, 13, 0, 24, 5, 7, SOURCED),
	R(3, 13, 1, 24, 5, 8, SOURCED),
	R(3, 14, 0, 24, 11, 6, SOURCED),
	R(3, 15, 0, 25, 11, 4, SOURCED),
	R(3, 15, 1, 25, 11, 4, THIRD_PARTY),
	R(3, 16, 0, 25, 11, 6, DERIVED),
	R(3, 16, 1, 25, 11, 8, SOURCED),
	/* docs/versions.md, "pc-releases": "3.16.1+", their own notes not re-read */
	R(3, 16, 2, 25, 11, 8, DERIVED),
	R(3, 16, 3, 25, 11, 8, DERIVED),
};

#define N_RELEASES (sizeof releases / sizeof releases[0])

size_t pc_release_count(void)
{
	return N_RELEASES;
}

const struct pc_release *pc_release_at(size_t i)
{
	return i < N_RELEASES ? &releases[i] : NULL;
}

const struct pc_release *pc_release_find(struct version pc)
{
	const struct pc_release *newest = NULL;
	for (size_t i = 0; i < N_RELEASES; i++) {
		const struct pc_release *r = &releases[i];
		if (!version_same_line(r->pc, pc))
			continue;
		if (!pc.line && r->pc.patch == pc.patch)
			return r;
		newest = r; /* the table is in release order */
	}
	return pc.line ? newest : NULL;
}

struct version pc_newest(void)
{
	return version_line_of(releases[N_RELEASES - 1].pc);
}

struct version pc_oldest_target(void)
{
	return (struct version)VERSION_LINE(3, 11);
}

int pc_version_key(struct version pc)
{
	return 100 * pc.major + pc.minor;
}

/* Slurm's release lines from the baseline of the option table (the
 * 22.05 that Debian 12 packages) to the newest whose changes
 * docs/versions.md lists ("slurm-options"). */
static const struct version slurm_lines[] = {
	VERSION_LINE(22, 5), VERSION_LINE(23, 2), VERSION_LINE(23, 11), VERSION_LINE(24, 5),
	VERSION_LINE(24, 11), VERSION_LINE(25, 5), VERSION_LINE(25, 11), VERSION_LINE(26, 5),
};

#define N_LINES (sizeof slurm_lines / sizeof slurm_lines[0])

size_t slurm_line_count(void)
{
	return N_LINES;
}

struct version slurm_line_at(size_t i)
{
	return i < N_LINES ? slurm_lines[i] : (struct version){ 0, 0, 0, false };
}

bool slurm_line_known(struct version v)
{
	for (size_t i = 0; i < N_LINES; i++)
		if (version_same_line(slurm_lines[i], v))
			return true;
	return false;
}
