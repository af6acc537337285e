/* The --tco file (gen/tco.h): the input is parsed and checked as a cost
 * inputs file; when it passes, the model runs over it against fixed plans
 * of the reference scenario (one fleet and a mixed one) and every printer
 * (text, JSON, SVG) writes to /dev/null. A rejected file must have said
 * why, with a position; an accepted one holds its schema's promises. */
#include <stdbool.h>
#include <string.h>

#include "buf.h"
#include "fuzz.h"
#include "jobspec_hook.h"
#include "source.h"
#include "tco.h"
#include "trouble.h"
#include "xalloc.h"

static const char *const specs[] = {
	"trainforge: 1\nname: moe-176b\ninstance: trn2.48xlarge\nnodes: 64\nframework: megatron\n"
	"parallel: {tensor: 8, pipeline: 4, virtual_stages: 2, expert: 8}\n"
	"model: {parameters: 176e9, active_parameters: 33e9, experts: 64, experts_per_token: 1, tokens: 1e12,"
	" layers: 96, hidden_size: 12288, attention_heads: 96, query_groups: 8, seq_length: 4096}\n"
	"batch: {micro: 1, global: 1024}\ntraining: {zero_stage: 1, recompute: full}\n"
	"entry: {script: /fsx/train.py}\ncluster: {region: us-east-2, subnet: subnet-0fedcba9876543210, ssh_key: k}\n"
	"storage: {type: fsx-lustre, mount: /fsx, size_gib: 9600}\nsoftware: {neuron: \"2.29.0\"}\n",
	"trainforge: 1\nname: p5-mixed\ninstance: p5.48xlarge\nframework: megatron\nparallel: {tensor: 8}\n"
	"model: {parameters: 70e9, tokens: 1e12, layers: 80, hidden_size: 8192, attention_heads: 64, seq_length: 4096}\n"
	"batch: {micro: 1, global: 64}\nentry: {script: /fsx/train.py}\n"
	"capacity: {reserved: 2, spot: 2, spot_discount: 0.5, placement_group: pg, watcher: {script_url: https://x/w.sh}}\n"
	"cluster: {subnet: subnet-0123456789abcdef0, ssh_key: k}\n",
};

struct fixed {
	struct source *src;
	yamldoc *doc;
	struct spec spec;
	struct plan plan;
	bool ok;
};

static struct fixed *plans(void)
{
	static struct fixed f[sizeof specs / sizeof specs[0]];
	static bool done;
	if (done)
		return f;
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct diag_list diags = { 0 };
		f[i].src = source_new("job.yaml", xstrdup(specs[i]), strlen(specs[i]));
		f[i].doc = yamldoc_parse(f[i].src->text, f[i].src->len, NULL);
		f[i].ok = fuzz_jobspec_check(f[i].src, f[i].doc, &f[i].spec, &f[i].plan, &diags);
		FUZZ_CHECK(f[i].ok); /* the fixed specs are valid */
		diag_list_free(&diags);
	}
	done = true;
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fixed *f = plans();
	struct trouble t = { 0 };
	struct tco_spec *tco = tco_parse("tco.yaml", (const char *)data, size, &t);
	if (!tco) {
		FUZZ_CHECK(t.len > 0);
		FUZZ_CHECK(strncmp(t.msgs[0], "tco.yaml:", 9) == 0);
		trouble_free(&t);
		return 0;
	}
	FUZZ_CHECK(t.len == 0);
	FUZZ_CHECK(tco->years >= 1 && tco->years <= TCO_MAX_YEARS);
	FUZZ_CHECK(tco->owned && tco->cloud && tco->owned->like_instance);
	FUZZ_CHECK(tco->owned->utilization > 0 && tco->owned->utilization <= 1);
	FILE *null = fuzz_devnull();
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct tco_result r;
		plan_tco_compute(&f[i].plan, tco, &r);
		for (int k = 0; k < TCO__COUNT; k++)
			if (r.opt[k].known)
				FUZZ_CHECK(r.opt[k].total >= 0);
		struct buf b = BUF_INIT;
		plan_tco_text(&f[i].plan, tco, &b);
		plan_tco_json(&f[i].plan, tco, &b);
		fputs(b.p ? b.p : "", null);
		buf_free(&b);
		plan_tco_svg(&f[i].plan, tco, null);
	}
	fflush(null);
	tco_free(tco);
	return 0;
}
