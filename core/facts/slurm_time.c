#include "slurm_time.h"

bool slurm_time_seconds(const char *s, size_t len, double *out)
{
	double f[4] = { 0 };
	size_t nf = 0, colons = 0;
	bool dash = false, digit = false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c >= '0' && c <= '9') {
			if (!digit && ++nf > 4)
				return false;
			f[nf - 1] = f[nf - 1] * 10 + (c - '0');
			digit = true;
		} else if (c == '-' && digit && !dash && nf == 1) {
			dash = true, digit = false;
		} else if (c == ':' && digit && colons < 2) {
			colons++, digit = false;
		} else {
			return false;
		}
	}
	if (!nf || !digit)
		return false;
	/* Field roles by form: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S. */
	double sec;
	if (dash)
		sec = f[0] * 86400 + f[1] * 3600 + (colons >= 1 ? f[2] * 60 : 0) + (colons == 2 ? f[3] : 0);
	else if (colons == 2)
		sec = f[0] * 3600 + f[1] * 60 + f[2];
	else if (colons == 1)
		sec = f[0] * 60 + f[1];
	else
		sec = f[0] * 60;
	*out = sec;
	return true;
}
