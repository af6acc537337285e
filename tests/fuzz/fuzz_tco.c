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

/* The reference examples, one fleet (examples/jobs/moe-176b-trn2.yaml)
 * and the mixed one (moe-176b-trn2-mixed.yaml), without their comments. */
static const char *const specs[] = {
	"trainforge: 1\nname: moe-176b\ninstance: trn2.48xlarge\nnodes: 64\nframework: torchtitan\n"
	"parallel: {tensor: 8, pipeline: 4}\nmodel:\n  parameters: 176e9\n  active_parameters: 34.5e9\n"
	"  experts: 64\n  experts_per_token: 1\n  expert_ffn_hidden_size: 640\n  tokens: 0.8e12\n"
	"  layers: 96\n  hidden_size: 12288\n  attention_heads: 96\n  query_groups: 8\n  vocab_size: 32000\n"
	"  seq_length: 4096\nbatch: {micro: 1, global: 1024}\ntraining: {zero_stage: 3, recompute: full}\n"
	"entry:\n  script: /fsx/torchtitan/torchtitan/train.py\n"
	"  args: [--module, moe176b.config_registry, --config, moe_176b_top1, --hf_assets_path, /fsx/tokenizer]\n"
	"cluster:\n  region: us-east-2\n  subnet: subnet-0fedcba9876543210\n"
	"  head_subnet: subnet-0fedcba9876543211\n  ssh_key: training-key\n  os: ubuntu2404\n"
	"  ami: ami-0a1b2c3d4e5f67001\nstorage: {type: fsx-lustre, mount: /fsx, size_gib: 9600}\n"
	"time_limit: 20-00:00:00\nsoftware:\n  neuron: \"2.34.0\"\n"
	"  neuron_image: {parent: ami-0f1e2d3c4b5a69001}\n",
	"trainforge: 1\nname: moe-176b-mixed\ninstance: trn2.48xlarge\nframework: torchtitan\n"
	"parallel: {tensor: 8, pipeline: 4}\nmodel:\n  parameters: 176e9\n  active_parameters: 34.5e9\n"
	"  experts: 64\n  experts_per_token: 1\n  expert_ffn_hidden_size: 640\n  tokens: 0.8e12\n"
	"  layers: 96\n  hidden_size: 12288\n  attention_heads: 96\n  query_groups: 8\n  vocab_size: 32000\n"
	"  seq_length: 4096\nbatch: {micro: 1, global: 1536}\ntraining: {zero_stage: 3, recompute: full}\n"
	"capacity:\n  type: reservation\n  reservation_id: cr-0123456789abcdef1\n  reserved: 48\n  spot: 16\n"
	"  spot_discount: 0.6\n  max_restarts: 32\n  placement_group: moe-176b-pg\nentry:\n"
	"  script: /fsx/torchtitan/torchtitan/train.py\n"
	"  args: [--module, moe176b.config_registry, --config, moe_176b_top1, --hf_assets_path, /fsx/tokenizer]\n"
	"cluster:\n  region: us-east-2\n  subnet: subnet-0fedcba9876543210\n"
	"  head_subnet: subnet-0fedcba9876543211\n  ssh_key: training-key\n  os: ubuntu2404\n"
	"  ami: ami-0a1b2c3d4e5f67001\n"
	"  bootstrap: s3://moe-176b-cluster-bootstrap/trainforge/moe-176b-mixed\n"
	"storage: {type: fsx-lustre, mount: /fsx, size_gib: 9600}\ns3_buckets: [moe-training-artifacts]\n"
	"time_limit: 20-00:00:00\nsoftware:\n  neuron: \"2.34.0\"\n"
	"  neuron_image: {parent: ami-0f1e2d3c4b5a69001}\n",
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
	FUZZ_CHECK(tco->owned->accelerators_per_server >= 0 && tco->owned->accelerators_per_server <= 64);
	FILE *null = fuzz_devnull();
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		struct tco_result r;
		plan_tco_compute(&f[i].plan, tco, &r);
		for (int k = 0; k < TCO__COUNT; k++)
			if (r.opt[k].known)
				FUZZ_CHECK(r.opt[k].total >= 0);
		/* a cloud run's cost is the cloud fleet's own: another owned
		 * cluster's size leaves it where it was */
		struct tco_result again;
		int servers = tco->owned->servers;
		tco->owned->servers = servers < 50000 ? servers * 2 : servers / 2;
		plan_tco_compute(&f[i].plan, tco, &again);
		tco->owned->servers = servers;
		for (int k = TCO_ON_DEMAND; k < TCO__COUNT; k++)
			FUZZ_CHECK(again.opt[k].usd_per_run == r.opt[k].usd_per_run);
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
