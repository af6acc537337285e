/* Neuron SDK facts as static tables; docs/versions.md has each row with
 * its source, in the sections named beside each table. */
#include "neuron.h"

#include <stdio.h>
#include <string.h>

#define V(a, b, c) { a, b, c }

/* neuron-min-sdk: Trainium2 from 2.21.0 (2024-12-20), Trainium3 from
 * 2.27.0 (2025-12-19). Trainium1 and Inferentia2 predate every release
 * in the package table, so no pin can be too old for them. */
static const struct {
	enum accel_kind accel;
	struct neuron_first_release first;
} min_sdk[] = {
	{ ACCEL_TRAINIUM2, { V(2, 21, 0), "2024-12-20", "Trainium2" } },
	{ ACCEL_TRAINIUM3, { V(2, 27, 0), "2025-12-19", "Trainium3" } },
};

/* neuron-packages: the version each SDK release ships. One SDK can ship
 * several torch-neuronx lines, and one package version can ship in
 * several SDK releases (torch-neuronx 2.9.0.2.15.32035 in 2.31.0 and
 * 2.33.0). Rows the table gives only as "2.24.x" carry patch -1; rows
 * with a wildcard (2.9.0.2.14.*) are left out. */
static const struct {
	const char *pkg, *version;
	struct neuron_version sdk;
} packages[] = {
	{ "neuronx-cc", "2.13.68.0", V(2, 18, 1) },
	{ "neuronx-cc", "2.14.227.0", V(2, 19, 1) },
	{ "neuronx-cc", "2.16.345.0", V(2, 21, 0) },
	{ "neuronx-cc", "2.16.372.0", V(2, 21, 1) },
	{ "neuronx-cc", "2.17.194.0", V(2, 22, 0) },
	{ "neuronx-cc", "2.18.121.0", V(2, 23, 0) },
	{ "neuronx-cc", "2.24.5133.0", V(2, 29, 0) },
	{ "neuronx-cc", "2.25.3371.0", V(2, 30, 0) },
	{ "neuronx-cc", "2.26.6360.0", V(2, 31, 0) },
	{ "neuronx-cc", "2.27.5334.0", V(2, 32, 0) },
	{ "neuronx-cc", "2.28.7631.0", V(2, 33, 0) },
	{ "torch-neuronx", "1.13.1.1.14.0", V(2, 18, 1) },
	{ "torch-neuronx", "2.1.2.2.1.0", V(2, 18, 1) },
	{ "torch-neuronx", "1.13.1.1.15.0", V(2, 19, 1) },
	{ "torch-neuronx", "2.1.2.2.2.0", V(2, 19, 1) },
	{ "torch-neuronx", "1.13.1.1.17.0", V(2, 21, 1) },
	{ "torch-neuronx", "2.1.2.2.4.0", V(2, 21, 1) },
	{ "torch-neuronx", "2.5.1.2.4.0", V(2, 21, 1) },
	{ "torch-neuronx", "2.5.1.2.6.0", V(2, 22, 0) },
	{ "torch-neuronx", "2.5.1.2.7.5413", V(2, 23, 0) },
	{ "torch-neuronx", "2.6.0.2.7.5413", V(2, 23, 0) },
	{ "torch-neuronx", "2.7.0.2.8.6734", V(2, 24, -1) },
	{ "torch-neuronx", "2.9.0.2.13.24727", V(2, 29, 0) },
	{ "torch-neuronx", "2.9.0.2.15.32035", V(2, 31, 0) },
	{ "torch-neuronx", "2.9.0.2.15.32035", V(2, 33, 0) },
	{ "neuronx-distributed", "0.7.0", V(2, 18, 1) },
	{ "neuronx-distributed", "0.8.0", V(2, 19, 1) },
	{ "neuronx-distributed", "0.10.0", V(2, 21, 0) },
	{ "neuronx-distributed", "0.10.1", V(2, 21, 1) },
	{ "neuronx-distributed", "0.11.0", V(2, 22, 0) },
	{ "neuronx-distributed", "0.12.12111", V(2, 23, 0) },
	{ "neuronx-distributed", "0.18.27753", V(2, 29, 0) },
	{ "neuronx-distributed", "0.19.28093", V(2, 30, 0) },
	{ "neuronx-distributed", "0.19.28492", V(2, 31, 0) },
};

static bool digits(const char *s, size_t len, int *out)
{
	long v = 0;

	if (len == 0 || len > 6)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = (int)v;
	return true;
}

bool neuron_version_parse(const char *s, size_t len, struct neuron_version *out)
{
	struct neuron_version v = { 0, 0, -1 };
	int *part[3] = { &v.major, &v.minor, &v.patch };
	size_t start = 0, n = 0;

	if (s == NULL)
		return false;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (n == 3 || !digits(s + start, i - start, part[n]))
			return false;
		n++;
		start = i + 1;
	}
	if (n < 2)
		return false;
	*out = v;
	return true;
}

int neuron_version_cmp(struct neuron_version a, struct neuron_version b)
{
	if (a.major != b.major)
		return a.major < b.major ? -1 : 1;
	if (a.minor != b.minor)
		return a.minor < b.minor ? -1 : 1;
	if (a.patch < 0 || b.patch < 0 || a.patch == b.patch)
		return 0;
	return a.patch < b.patch ? -1 : 1;
}

const char *neuron_version_str(struct neuron_version v, char *buf, size_t cap)
{
	if (v.patch < 0)
		snprintf(buf, cap, "%d.%d", v.major, v.minor);
	else
		snprintf(buf, cap, "%d.%d.%d", v.major, v.minor, v.patch);
	return buf;
}

bool neuron_min_sdk(enum accel_kind accel, struct neuron_first_release *out)
{
	for (size_t i = 0; i < sizeof min_sdk / sizeof min_sdk[0]; i++)
		if (min_sdk[i].accel == accel) {
			*out = min_sdk[i].first;
			return true;
		}
	return false;
}

/* neuron-os: 2.19 was the last release with a runtime for Amazon Linux 2;
 * from 2.30.0 (2026-05-21) there are no Ubuntu 22.04 DLAMIs or DLCs. */
struct neuron_version neuron_al2_last(void)
{
	return (struct neuron_version)V(2, 19, -1);
}

bool neuron_runs_on_al2(struct neuron_version sdk)
{
	return neuron_version_cmp(sdk, neuron_al2_last()) <= 0;
}

struct neuron_version neuron_u2204_images_end(const char **date)
{
	if (date != NULL)
		*date = "2026-05-21";
	return (struct neuron_version)V(2, 30, 0);
}

/* neuron-env: not supported after 2.24. */
struct neuron_version neuron_bf16_vars_last(void)
{
	return (struct neuron_version)V(2, 24, -1);
}

/* pip compares names with runs of '-', '_' and '.' as one '-', any case. */
static bool pip_name_eq(const char *a, size_t alen, const char *b)
{
	size_t i = 0, j = 0, blen = strlen(b);

	while (i < alen && j < blen) {
		bool asep = a[i] == '-' || a[i] == '_' || a[i] == '.';
		bool bsep = b[j] == '-';
		if (asep != bsep)
			return false;
		if (asep) {
			while (i < alen && (a[i] == '-' || a[i] == '_' || a[i] == '.'))
				i++;
			j++;
			continue;
		}
		char c = a[i] >= 'A' && a[i] <= 'Z' ? (char)(a[i] - 'A' + 'a') : a[i];
		if (c != b[j])
			return false;
		i++;
		j++;
	}
	return i == alen && j == blen;
}

bool neuron_package_known(const char *pkg, size_t len)
{
	static const char *const names[] = { "neuronx-cc", "torch-neuronx", "neuronx-distributed" };

	for (size_t i = 0; pkg != NULL && i < sizeof names / sizeof names[0]; i++)
		if (pip_name_eq(pkg, len, names[i]))
			return true;
	return false;
}

bool neuron_package_sdk(const char *pkg, size_t pkg_len, const char *ver, size_t ver_len,
			struct neuron_version *oldest, struct neuron_version *newest)
{
	bool found = false;

	if (pkg == NULL || ver == NULL)
		return false;
	for (size_t i = 0; i < sizeof packages / sizeof packages[0]; i++) {
		if (strlen(packages[i].version) != ver_len ||
		    memcmp(packages[i].version, ver, ver_len) != 0 ||
		    !pip_name_eq(pkg, pkg_len, packages[i].pkg))
			continue;
		if (!found || neuron_version_cmp(packages[i].sdk, *oldest) < 0)
			*oldest = packages[i].sdk;
		if (!found || neuron_version_cmp(packages[i].sdk, *newest) > 0)
			*newest = packages[i].sdk;
		found = true;
	}
	return found;
}
