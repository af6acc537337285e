/* The target: defaults, layering and the parse of --target values. */
#include "target.h"

#include <stdio.h>
#include <string.h>

#include "buf.h"

static struct version slurm_of(struct version pc)
{
	const struct pc_release *r = pc_release_find(pc);
	return r ? r->slurm : (struct version){ 0, 0, 0, false };
}

struct target target_default(void)
{
	struct target t = { pc_newest(), slurm_of(pc_newest()), true, { 0 } };
	return t;
}

struct target target_apply(struct target t, const struct target_request *req)
{
	if (version_is_set(req->pc)) {
		t.pc = req->pc;
		t.slurm = slurm_of(req->pc);
		t.slurm_of_pc = true;
	}
	if (version_is_set(req->slurm)) {
		t.slurm = req->slurm;
		t.slurm_of_pc = false;
	}
	for (int f = 0; f < FW__COUNT; f++)
		if (req->fw[f])
			t.fw[f] = req->fw[f];
	return t;
}

size_t target_fw_version(const struct target *t, enum framework f)
{
	return t && t->fw[f] ? (size_t)(t->fw[f] - 1) : fw_version_default(f);
}

bool target_fw_named(const struct target *t, enum framework f)
{
	return t && t->fw[f];
}

bool target_equal(const struct target *a, const struct target *b)
{
	return version_cmp(a->pc, b->pc) == 0 && a->pc.line == b->pc.line &&
	       version_cmp(a->slurm, b->slurm) == 0 && a->slurm.line == b->slurm.line &&
	       !memcmp(a->fw, b->fw, sizeof a->fw);
}

/* "3.11 to 3.16, or a release: 3.11.0, ..." */
static void known_pc(char *err, size_t cap, const char *what, size_t len, const char *s)
{
	struct buf b = BUF_INIT;
	struct version first = pc_oldest_target(), last = pc_newest();
	buf_printf(&b, "%s ParallelCluster version '%.*s'; known: %s to %s, or a release:", what,
		   (int)len, s, PC_TEXT(first), PC_TEXT(last));
	for (size_t i = 0, n = 0; i < pc_release_count(); i++) {
		const struct pc_release *r = pc_release_at(i);
		if (version_cmp(r->pc, first) >= 0 || version_same_line(r->pc, first))
			buf_printf(&b, "%s %s", n++ ? "," : "", PC_TEXT(r->pc));
	}
	snprintf(err, cap, "%s", b.p);
	buf_free(&b);
}

bool target_parse_pc(const char *s, size_t len, struct version *out, char *err, size_t cap)
{
	struct version v;
	if (!version_parse(s, len, &v)) {
		known_pc(err, cap, "not a", len, s);
		return false;
	}
	struct version first = pc_oldest_target();
	bool in_range = (version_cmp(v, first) >= 0 || version_same_line(v, first)) &&
			version_cmp(v, pc_newest()) <= 0;
	if (!in_range) {
		known_pc(err, cap, "unknown", len, s);
		return false;
	}
	if (!pc_release_find(v)) {
		/* The release exists, but no source gives its Slurm: the
		 * line stands for it (docs/versions.md, "pc-releases"). */
		snprintf(err, cap,
			 "ParallelCluster %.*s is not in the release table (no source gives its Slurm); "
			 "name its line, parallelcluster=%s", (int)len, s, PC_TEXT(version_line_of(v)));
		return false;
	}
	*out = v;
	return true;
}

bool target_parse_slurm(const char *s, size_t len, struct version *out, char *err, size_t cap)
{
	struct version v;
	if (version_parse(s, len, &v) && slurm_line_known(v)) {
		*out = v;
		return true;
	}
	struct buf b = BUF_INIT;
	buf_printf(&b, "%s Slurm version '%.*s'; known:", version_parse(s, len, &v) ? "unknown" : "not a",
		   (int)len, s);
	for (size_t i = 0; i < slurm_line_count(); i++)
		buf_printf(&b, "%s %s", i ? "," : "", SLURM_TEXT(slurm_line_at(i)));
	buf_puts(&b, " (a line, or a release of one such as 25.11.8)");
	snprintf(err, cap, "%s", b.p);
	buf_free(&b);
	return false;
}

bool target_parse_fw(enum framework f, const char *s, size_t len, unsigned char *out, char *err,
		     size_t cap)
{
	int i = fw_version_find(f, s, len);
	if (i >= 0) {
		*out = (unsigned char)(i + 1);
		return true;
	}
	struct buf b = BUF_INIT;
	buf_printf(&b, "unknown %s version '%.*s'; known:", fw_def(f)->title, (int)len, s);
	for (size_t k = 0; k < fw_version_count(f); k++) {
		const struct fw_version *v = fw_version_at(f, k);
		buf_printf(&b, "%s %s", k ? "," : "", v->name);
		if (v->alias)
			buf_printf(&b, " (%s)", v->alias);
	}
	buf_printf(&b, "; the default is %s", fw_version_at(f, fw_version_default(f))->name);
	snprintf(err, cap, "%s", b.p);
	buf_free(&b);
	return false;
}

bool target_parse_arg(const char *arg, struct target_request *req, char *err, size_t cap)
{
	static const char *const names[] = { "parallelcluster", "slurm" };
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	for (size_t i = 0; eq && i < 2; i++) {
		if (strlen(names[i]) != n || strncmp(arg, names[i], n) != 0)
			continue;
		const char *v = eq + 1;
		return i == 0 ? target_parse_pc(v, strlen(v), &req->pc, err, cap)
			      : target_parse_slurm(v, strlen(v), &req->slurm, err, cap);
	}
	enum framework f;
	if (eq && fw_from_name(arg, n, &f) && f != FW_PLAIN)
		return target_parse_fw(f, eq + 1, strlen(eq + 1), &req->fw[f], err, cap);
	snprintf(err, cap,
		 "'%s' is not parallelcluster=VERSION, slurm=VERSION, megatron=VERSION, nxd=VERSION or torchtitan=VERSION",
		 arg);
	return false;
}

struct target_text target_fw_describe(const struct target *t, enum framework f)
{
	struct target_text d;
	snprintf(d.s, sizeof d.s, "%s, %s", fw_version_at(f, target_fw_version(t, f))->title,
		 target_fw_named(t, f) ? "the target" : "the pinned default");
	return d;
}

struct target_text target_describe(const struct target *t)
{
	struct target_text d;
	snprintf(d.s, sizeof d.s, "ParallelCluster %s (Slurm %s)", PC_TEXT(t->pc), SLURM_TEXT(t->slurm));
	return d;
}
