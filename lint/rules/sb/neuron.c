/* SB2109, SB2110, SB2112: the Neuron SDK a batch script pins against the
 * machine it runs on. A script pins an SDK release by a module it loads
 * (module load neuron/2.20.0), a Neuron DLAMI it names (by date), a
 * Neuron DLC image tag (sdk2.18.2) or a pip install of a Neuron package
 * at a version; the facts are core/facts/neuron's (docs/versions.md,
 * neuron-min-sdk, neuron-os, neuron-packages, neuron-dlami-dlc,
 * neuron-env). A version the tables do not know pins nothing. */
#include <stdio.h>
#include <string.h>

#include "neuron.h"
#include "sb.h"

enum pin_kind { PIN_MODULE, PIN_DLAMI, PIN_DLC, PIN_PIP };

/* One pin: an SDK range (one release, or the releases that ship a
 * package version), or for a DLAMI its build date. */
struct pin {
	enum pin_kind kind;
	struct sb_span span;
	struct neuron_version lo, hi;
	char date[11];     /* DLAMI: YYYY-MM-DD */
	char what[80];     /* as written, for messages */
	bool ubuntu2204;   /* a DLC tag built on Ubuntu 22.04 */
};

enum { MAX_PINS = 32 };

struct pins {
	struct pin v[MAX_PINS];
	size_t n;
};

static struct pin *pin_add(struct pins *ps, enum pin_kind kind, const sb_word *w, const char *what,
			   size_t what_len)
{
	if (ps->n == MAX_PINS)
		return NULL;
	struct pin *p = &ps->v[ps->n++];
	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->span = sb_word_span(w);
	snprintf(p->what, sizeof p->what, "%.*s", (int)(what_len < 79 ? what_len : 79), what);
	return p;
}

static size_t version_len(const char *s)
{
	size_t n = 0;
	while ((s[n] >= '0' && s[n] <= '9') || s[n] == '.')
		n++;
	while (n > 0 && s[n - 1] == '.')
		n--;
	return n;
}

static bool has_neuron(const char *s, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++)
		if (!strncmp(s + i, "neuron", 6))
			return true;
	return false;
}

/* module load neuron/2.20.0 (any module whose name has "neuron"). */
static void module_pins(const sb_cmd *cmd, struct pins *ps)
{
	size_t n = sb_cmd_word_count(cmd);
	const char *verb = n > 1 ? sb_word_value(sb_cmd_word(cmd, 1)) : NULL;
	if (n < 3 || !sb_word_value(sb_cmd_word(cmd, 0)) || strcmp(sb_word_value(sb_cmd_word(cmd, 0)), "module") ||
	    !verb || (strcmp(verb, "load") && strcmp(verb, "add")))
		return;
	for (size_t i = 2; i < n; i++) {
		const char *s = sb_word_value(sb_cmd_word(cmd, i));
		const char *slash = s ? strrchr(s, '/') : NULL;
		struct neuron_version v;
		if (!slash || !has_neuron(s, (size_t)(slash - s)) ||
		    !neuron_version_parse(slash + 1, strlen(slash + 1), &v))
			continue;
		char what[80];
		snprintf(what, sizeof what, "module %s", s);
		struct pin *p = pin_add(ps, PIN_MODULE, sb_cmd_word(cmd, i), what, strlen(what));
		if (p)
			p->lo = p->hi = v;
	}
}

static bool is_pip(const char *s)
{
	const char *base = strrchr(s, '/');
	base = base ? base + 1 : s;
	return !strncmp(base, "pip", 3) && (base[3] == '\0' || (base[3] >= '0' && base[3] <= '9'));
}

static const char *word(const sb_cmd *cmd, size_t i)
{
	return i < sb_cmd_word_count(cmd) ? sb_word_value(sb_cmd_word(cmd, i)) : NULL;
}

static bool is_python(const char *s)
{
	const char *base = s ? strrchr(s, '/') : NULL;
	base = base ? base + 1 : s;
	return base && !strncmp(base, "python", 6);
}

/* Where pip's own words start: pip (or pip3, /path/pip3.11), after sudo
 * or uv, or python -m pip; 0 when the command is not pip. */
static size_t pip_at(const sb_cmd *cmd)
{
	static const char *const wrappers[] = { "sudo", "uv", "env", "time", "nohup", "exec" };
	const char *w0 = word(cmd, 0), *w1 = word(cmd, 1), *w2 = word(cmd, 2);
	if (w0 && is_pip(w0))
		return 1;
	for (size_t i = 0; w0 && w1 && i < sizeof wrappers / sizeof wrappers[0]; i++)
		if (!strcmp(w0, wrappers[i]) && is_pip(w1))
			return 2;
	if (is_python(w0) && w1 && w2 && !strcmp(w1, "-m") && !strcmp(w2, "pip"))
		return 3;
	return 0;
}

/* pip install NAME==VERSION; only the Neuron packages, and only versions
 * the table knows. */
static void pip_pins(const sb_cmd *cmd, struct pins *ps)
{
	size_t n = sb_cmd_word_count(cmd), i = pip_at(cmd);
	if (i == 0)
		return;
	/* pip's options, then its subcommand */
	while (i < n && word(cmd, i) && word(cmd, i)[0] == '-')
		i++;
	if (!word(cmd, i) || strcmp(word(cmd, i), "install"))
		return;
	for (i++; i < n; i++) {
		const char *s = word(cmd, i);
		const char *eq = s ? strstr(s, "==") : NULL;
		if (!eq || s[0] == '-')
			continue;
		size_t name_len = strcspn(s, "[=<>!~ ");
		const char *ver = eq + 2 + (eq[2] == '=');
		struct neuron_version lo, hi;
		if (!neuron_package_known(s, name_len) ||
		    !neuron_package_sdk(s, name_len, ver, strlen(ver), &lo, &hi))
			continue;
		struct pin *p = pin_add(ps, PIN_PIP, sb_cmd_word(cmd, i), s, strlen(s));
		if (p) {
			p->lo = lo;
			p->hi = hi;
		}
	}
}

/* A Neuron DLC image tag names its SDK (...-sdk2.29.0-ubuntu24.04); a
 * Neuron DLAMI name its build date ("Deep Learning AMI Neuron (Ubuntu
 * 22.04) 20241027"). */
static void image_pins(const sb_word *w, struct pins *ps)
{
	const char *s = sb_word_value(w);
	const char *tag, *dlami;
	if (!s)
		return;
	if ((tag = strstr(s, "-sdk")) != NULL && has_neuron(s, (size_t)(tag - s))) {
		struct neuron_version v;
		size_t vl = version_len(tag + 4);
		if (neuron_version_parse(tag + 4, vl, &v)) {
			const char *colon = strrchr(s, ':');
			const char *t = colon && colon < tag ? colon + 1 : s;
			char what[80];
			snprintf(what, sizeof what, "image tag %s", t);
			struct pin *p = pin_add(ps, PIN_DLC, w, what, strlen(what));
			if (p) {
				p->lo = p->hi = v;
				p->ubuntu2204 = strstr(tag + 4 + vl, "-ubuntu22.04") != NULL;
			}
		}
	}
	if ((dlami = strstr(s, "Deep Learning AMI Neuron")) != NULL) {
		/* the last eight-digit run is the date: 20241027 */
		const char *date = NULL;
		for (const char *q = dlami; *q; q++) {
			size_t d = strspn(q, "0123456789");
			if (d == 8 && (q == s || q[-1] < '0' || q[-1] > '9'))
				date = q;
			q += d ? d - 1 : 0;
		}
		struct pin *p = date ? pin_add(ps, PIN_DLAMI, w, s, strlen(s)) : NULL;
		if (p)
			snprintf(p->date, sizeof p->date, "%.4s-%.2s-%.2s", date, date + 4, date + 6);
	}
}

static void collect(const struct sbc *c, struct pins *ps)
{
	for (size_t i = 0; i < sb_cmd_count(c->m); i++) {
		const sb_cmd *cmd = sb_cmd_at(c->m, i);
		module_pins(cmd, ps);
		pip_pins(cmd, ps);
		for (size_t k = 0; k < sb_cmd_word_count(cmd); k++)
			image_pins(sb_cmd_word(cmd, k), ps);
		for (size_t k = 0; k < sb_cmd_assign_count(cmd); k++)
			if (sb_cmd_assign(cmd, k)->value)
				image_pins(sb_cmd_assign(cmd, k)->value, ps);
	}
}

static const char *range_str(const struct pin *p, char *buf, size_t cap)
{
	char a[16], b[16];
	if (neuron_version_cmp(p->lo, p->hi) == 0 && p->lo.patch == p->hi.patch)
		snprintf(buf, cap, "Neuron %s", neuron_version_str(p->lo, a, sizeof a));
	else
		snprintf(buf, cap, "Neuron %s to %s", neuron_version_str(p->lo, a, sizeof a),
			 neuron_version_str(p->hi, b, sizeof b));
	return buf;
}

/* SB2109 neuron-sdk-too-old */
static void neuron_sdk_too_old(const struct sbc *c, const struct pins *ps)
{
	struct neuron_first_release first;
	enum accel_kind accel;
	char where[64], min[16], sdk[48];
	if (!ps->n || !sbc_neuron_accel(c, &accel, where, sizeof where) || !neuron_min_sdk(accel, &first))
		return;
	neuron_version_str(first.version, min, sizeof min);
	for (size_t i = 0; i < ps->n; i++) {
		const struct pin *p = &ps->v[i];
		struct diag *g = NULL;
		if (p->kind == PIN_DLAMI && strcmp(p->date, first.date) < 0)
			g = sbc_report(c, R_SB2109, p->span,
				"this Neuron DLAMI was built on %s, before Neuron %s (%s), the first release for %s (%s)",
				p->date, min, first.date, first.accel, where);
		else if (p->kind != PIN_DLAMI && neuron_version_cmp(p->hi, first.version) < 0)
			g = sbc_report(c, R_SB2109, p->span,
				"%s %s %s, older than %s, the first release for %s (%s)", p->what,
				p->kind == PIN_PIP ? "is the version shipped by" : p->kind == PIN_MODULE ? "loads" : "is",
				range_str(p, sdk, sizeof sdk), min, first.accel, where);
		if (g)
			diag_set_help(g, "use Neuron %s or later (docs/versions.md lists each release's package versions)", min);
	}
}

/* SB2110 neuron-bf16-variable: the SDK is known to be newer than the last
 * one that reads the variables, from a pin or from the instance's first
 * release. */
static void neuron_bf16_variable(const struct sbc *c, const struct pins *ps)
{
	static const char *const vars[] = { "XLA_USE_BF16", "XLA_DOWNCAST_BF16" };
	struct neuron_version last = neuron_bf16_vars_last();
	struct neuron_first_release first;
	enum accel_kind accel;
	char why[128] = "", where[64], v[16];
	for (size_t i = 0; i < ps->n && !why[0]; i++)
		if (ps->v[i].kind != PIN_DLAMI && neuron_version_cmp(ps->v[i].lo, last) > 0)
			snprintf(why, sizeof why, "this script pins Neuron %s (%s)",
				 neuron_version_str(ps->v[i].lo, v, sizeof v), ps->v[i].what);
	if (!why[0] && sbc_neuron_accel(c, &accel, where, sizeof where) && neuron_min_sdk(accel, &first) &&
	    neuron_version_cmp(first.version, last) > 0)
		snprintf(why, sizeof why, "%s needs Neuron %s or later", where,
			 neuron_version_str(first.version, v, sizeof v));
	if (!why[0])
		return;
	for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
		const struct sb_assign *a = sbc_assignment(c, vars[k]);
		if (!a)
			continue;
		struct diag *g = sbc_report(c, R_SB2110, a->name_span,
			"%s is not supported after Neuron %s, and %s", vars[k],
			neuron_version_str(last, v, sizeof v), why);
		diag_set_help(g, "remove it; cast the model with model.to(torch.bfloat16) or use automatic mixed precision");
	}
}

/* SB2112 neuron-image-unpublished */
static void neuron_image_unpublished(const struct sbc *c, const struct pins *ps)
{
	const char *date;
	struct neuron_version end = neuron_u2204_images_end(&date);
	char v[16], e[16];
	for (size_t i = 0; i < ps->n; i++) {
		const struct pin *p = &ps->v[i];
		if (p->kind != PIN_DLC || !p->ubuntu2204 || neuron_version_cmp(p->lo, end) < 0)
			continue;
		struct diag *g = sbc_report(c, R_SB2112, p->span,
			"no Neuron image of SDK %s on Ubuntu 22.04 exists: Neuron publishes none for Ubuntu 22.04 from %s (%s)",
			neuron_version_str(p->lo, v, sizeof v), neuron_version_str(end, e, sizeof e), date);
		diag_set_help(g, "use the tag for Ubuntu 24.04 (-ubuntu24.04)");
	}
}

void sbc_check_neuron(struct sbc *c)
{
	struct pins ps = { .n = 0 };
	collect(c, &ps);
	neuron_sdk_too_old(c, &ps);
	neuron_bf16_variable(c, &ps);
	neuron_image_unpublished(c, &ps);
}
