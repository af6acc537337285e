/* Job spec rules (JS), one line a case, one test per area of rules.def.
 * A job spec is linted as `trainforge lint job.yaml` lints it: the input
 * checks, then the generator's spec and plan checks through the hook the
 * CLI installs. tests/unit/rules_verify.h says how a case runs. */
#include "rules_verify.h"

/* A spec for instance, with more top-level lines. */
#define SPEC(instance, more)                                                              \
	"trainforge: 1\nname: job\ninstance: " instance "\n"                              \
	"entry: {script: /fsx/train.py}\n"                                                \
	"cluster: {subnet: subnet-0123456789abcdef0, head_subnet: subnet-0123456789abcdef1, ssh_key: training-key}\n" more
/* Two trn1.32xlarge nodes: 64 processes. */
#define TRN1(more) SPEC("trn1.32xlarge", "nodes: 2\n" more)
/* A mixed fleet of trn1.32xlarge: 4 reserved and 2 spot nodes, TP 32. */
#define FLEET(capacity)                                                            \
	SPEC("trn1.32xlarge", "parallel: {tensor: 32}\nbatch: {micro: 1, global: 60}\n" \
			      "s3_buckets: [job-artifacts]\ncapacity: " capacity "\n")

static void js_schema(void **state)
{
	(void)state;
	verify(R_JS0001, TRN1("nodes: 4\n"));
	verify_not(R_JS0001, TRN1(""));
	verify(R_JS0002, TRN1("paralel: {tensor: 8}\n"));
	verify_not(R_JS0002, TRN1("parallel: {tensor: 8}\n"));
	verify(R_JS0003, SPEC("trn1.32xlarge", "nodes: two\n"));
	verify_not(R_JS0003, SPEC("trn1.32xlarge", "nodes: 2\n"));
	verify(R_JS0004, "trainforge: 1\nname: job\ninstance: trn1.32xlarge\nnodes: 2\n"
			 "cluster: {subnet: subnet-0123456789abcdef0, ssh_key: training-key}\n");
	verify_not(R_JS0004, TRN1(""));
	verify(R_JS0005, TRN1("") "storage: {type: nfs}\n");
	verify_not(R_JS0005, TRN1("") "storage: {type: ebs, mount: /shared}\n");
}

static void js_instance(void **state)
{
	(void)state;
	verify(R_JS1001, SPEC("trn9.48xlarge", "nodes: 2\n"));
	verify_not(R_JS1001, SPEC("trn2.48xlarge", "nodes: 2\n"));
	verify(R_JS1002, SPEC("trn1.2xlarge", "nodes: 2\n"));
	verify_not(R_JS1002, SPEC("trn1.2xlarge", "nodes: 1\n"));
	verify(R_JS1002, SPEC("trn2.3xlarge", "nodes: 2\n"));      /* EFA unknown */
	verify_not(R_JS1002, SPEC("trn2.3xlarge", "nodes: 1\n"));
	verify(R_JS1005, SPEC("trn3.48xlarge", "nodes: 2\nlnc: 2\n"));
	verify_not(R_JS1005, SPEC("trn2.48xlarge", "nodes: 2\nlnc: 2\n"));
	verify(R_JS1006, SPEC("trn3.48xlarge", "nodes: 2\n"));
	verify_not(R_JS1006, SPEC("trn3.48xlarge", "nodes: 2\nlnc: 2\n"));
	verify_not(R_JS1006, SPEC("trn2.48xlarge", "nodes: 2\n"));
	verify(R_JS1003, SPEC("trn1.32xlarge", "nodes: 2\nlnc: 2\n"));
	verify_not(R_JS1003, SPEC("trn3.48xlarge", "nodes: 2\nlnc: 2\n"));
	verify(R_JS1004, "trainforge: 1\nname: job\ninstance: trn1.32xlarge\nnodes: 2\n"
			 "entry: {script: /fsx/train.py}\n"
			 "cluster: {region: us-moon-1, subnet: subnet-0123456789abcdef0, ssh_key: training-key}\n");
	verify_not(R_JS1004, "trainforge: 1\nname: job\ninstance: trn1.32xlarge\nnodes: 2\n"
			     "entry: {script: /fsx/train.py}\n"
			     "cluster: {region: us-west-2, subnet: subnet-0123456789abcdef0, ssh_key: training-key}\n");
}

static void js_layout(void **state)
{
	(void)state;
	verify(R_JS2001, TRN1("parallel: {tensor: 8, pipeline: 3}\n"));
	verify_not(R_JS2001, TRN1("parallel: {tensor: 8, pipeline: 4}\n"));
	verify(R_JS2003, TRN1("parallel: {tensor: 8}\nbatch: {micro: 2, global: 20}\n"));
	verify_not(R_JS2003, TRN1("parallel: {tensor: 8}\nbatch: {micro: 2, global: 32}\n"));
	verify(R_JS2004, TRN1("framework: megatron\nparallel: {tensor: 8, pipeline: 4}\nmodel: {layers: 30}\n"));
	verify_not(R_JS2004, TRN1("framework: megatron\nparallel: {tensor: 8, pipeline: 4}\nmodel: {layers: 32}\n"));
	verify(R_JS2012, TRN1("paths: {compile_cache: /var/tmp/neuron-compile-cache}\n"));
	verify_not(R_JS2012, TRN1("paths: {compile_cache: /fsx/neuron-compile-cache}\n"));
}

static void js_fleet(void **state)
{
	(void)state;
	verify(R_JS2015, FLEET("{reserved: 4, spot: 2}"));
	verify_not(R_JS2015, FLEET("{reserved: 4, spot: 2, placement_group: job-pg}"));
	verify(R_JS2014, SPEC("trn1.32xlarge", "parallel: {tensor: 32, pipeline: 2}\n"
					       "batch: {micro: 1, global: 8}\ns3_buckets: [job-artifacts]\n"
					       "capacity: {reserved: 4, spot: 4, placement_group: job-pg}\n"));
	verify_not(R_JS2014, FLEET("{reserved: 4, spot: 2, placement_group: job-pg}"));
}

static void js_software(void **state)
{
	(void)state;
	verify(R_JS3001, SPEC("trn2.48xlarge", "nodes: 2\nsoftware: {neuron: \"2.20.0\"}\n"));
	verify_not(R_JS3001, SPEC("trn2.48xlarge", "nodes: 2\nsoftware: {neuron: \"2.21.0\"}\n"));
	verify(R_JS3001, SPEC("trn3.48xlarge", "nodes: 2\nlnc: 2\nsoftware: {neuron: \"2.26.1\"}\n"));
	verify_not(R_JS3001, SPEC("trn3.48xlarge", "nodes: 2\nlnc: 2\nsoftware: {neuron: \"2.27\"}\n"));
	verify_not(R_JS3001, TRN1("software: {neuron: \"2.18.0\"}\n"));
	verify(R_JS3003, TRN1(""));
	verify(R_JS3003, SPEC("inf2.48xlarge", "nodes: 1\n"));
	verify_not(R_JS3003, TRN1("software: {neuron: \"2.29.0\"}\n"));
	verify_not(R_JS3003, "trainforge: 1\nname: job\ninstance: trn2.48xlarge\nnodes: 2\n"
			     "entry: {script: /fsx/train.py}\n"
			     "cluster: {subnet: subnet-0123456789abcdef0, ssh_key: training-key, ami: ami-0123456789abcdef0}\n");
	verify_not(R_JS3003, SPEC("p5.48xlarge", "nodes: 2\n"));
}

/* What every worker runs (the entry point is SPEC's own, so the argument
 * rules have their cases in tests/cases/JS4003 and JS4004). */
static void js_run(void **state)
{
	(void)state;
	verify(R_JS4001, TRN1("env: {PATH: \"/fsx/venv/bin:$PATH\"}\n"));
	verify(R_JS4001, TRN1("env: {LD_LIBRARY_PATH: \"/fsx/lib:${LD_LIBRARY_PATH}\"}\n"));
	verify_not(R_JS4001, TRN1("env: {LD_LIBRARY_PATH: /opt/amazon/efa/lib}\n"));
	verify_not(R_JS4001, TRN1("path_prepend: {PATH: [/fsx/venv/bin]}\n"));
	/* NEURON_CC_FLAGS is extended: flags without an LNC join the generated one */
	verify_not(R_JS4002, SPEC("trn2.48xlarge", "nodes: 2\nlnc: 1\nenv: {NEURON_CC_FLAGS: -O1}\n"));
	verify(R_JS4002, SPEC("trn2.48xlarge", "nodes: 2\nlnc: 1\nenv: {NEURON_CC_FLAGS: \"--logical-nc-config=2\"}\n"));
	verify_not(R_JS4002, SPEC("trn2.48xlarge", "nodes: 2\nlnc: 1\nenv: {NEURON_CC_FLAGS: \"-O1 --logical-nc-config=1\"}\n"));
	verify_not(R_JS4002, TRN1("env: {NEURON_CC_FLAGS: -O1}\n")); /* trn1: gen sets none */
	verify(R_JS4002, TRN1("env: {CHECKPOINT_DIR: /tmp/ckpt}\n"));
	verify_not(R_JS4002, TRN1("env: {FI_PROVIDER: efa}\n"));
	verify(R_JS4005, SPEC("p5.48xlarge", "nodes: 2\nframework: megatron\ntraining: {zero_stage: 3}\n"));
	verify_not(R_JS4005, SPEC("p5.48xlarge", "nodes: 2\nframework: megatron\ntraining: {zero_stage: 2}\n"));
	verify(R_JS4005, SPEC("p5.48xlarge", "nodes: 2\nframework: torchtitan\n"));
	verify(R_JS4005, SPEC("p5.48xlarge", "nodes: 2\nframework: nxd\ntraining: {zero_stage: 3}\n"));
	verify_not(R_JS4005, SPEC("p5.48xlarge", "nodes: 2\nframework: nxd\ntraining: {zero_stage: 1}\n"));
}

/* The framework (its cases with whole specs are tests/cases/JS4007-JS4011). */
#define MEGATRON_ARGS "entry: {script: /fsx/pretrain_gpt.py, args: [--lr, '1e-4', --tokenizer-type, NullTokenizer, --mock-data]}\n"
#define SHAPE "model: {layers: 8, hidden_size: 1024, attention_heads: 8, seq_length: 2048, tokens: 1e9}\n"
#define GPU(fw, more)                                                                       \
	"trainforge: 1\nname: job\ninstance: p5.48xlarge\nnodes: 2\nframework: " fw "\n"    \
	"cluster: {subnet: subnet-0123456789abcdef0, head_subnet: subnet-0123456789abcdef1, ssh_key: training-key}\n" more
#define TRN2(fw, more)                                                                      \
	"trainforge: 1\nname: job\ninstance: trn2.48xlarge\nnodes: 2\nframework: " fw "\n"  \
	"cluster: {subnet: subnet-0123456789abcdef0, head_subnet: subnet-0123456789abcdef1, ssh_key: training-key, os: ubuntu2404}\n"  \
	"storage: {type: fsx-lustre, mount: /fsx}\n" more

static void js_framework(void **state)
{
	(void)state;
	verify(R_JS4007, TRN2("megatron", SHAPE MEGATRON_ARGS "software: {neuron: '2.34.0'}\n"));
	verify_not(R_JS4007, GPU("megatron", SHAPE MEGATRON_ARGS));
	verify(R_JS4007, GPU("nxd", SHAPE "entry: {script: /fsx/run_llama_nxd.py}\n"));
	verify_not(R_JS4007, TRN2("plain", "entry: {script: /fsx/train.py}\nsoftware: {neuron: '2.34.0'}\n"));
	verify(R_JS4008, TRN2("torchtitan", SHAPE "entry: {script: /fsx/t.py, args: [--module, m, --config, c]}\n"
				 "training: {zero_stage: 3}\nsoftware: {neuron: '2.31.0'}\n"));
	verify_not(R_JS4008, TRN2("torchtitan", SHAPE "entry: {script: /fsx/t.py, args: [--module, m, --config, c]}\n"
				     "training: {zero_stage: 3}\nsoftware: {neuron: '2.33.0'}\n"));
	verify(R_JS4009, GPU("torchtitan", SHAPE "entry: {script: /fsx/t.py, args: [--job.config_file, /fsx/a.toml]}\n"));
	verify_not(R_JS4009, GPU("torchtitan", SHAPE "entry: {script: /fsx/t.py, args: [--module, m, --config, c]}\n"));
	verify(R_JS4010, TRN2("torchtitan", SHAPE "parallel: {expert: 2}\n"
				 "entry: {script: /fsx/t.py, args: [--module, m, --config, c]}\nsoftware: {neuron: '2.34.0'}\n"));
	verify_not(R_JS4010, GPU("torchtitan", SHAPE "parallel: {expert: 2}\n"
				     "entry: {script: /fsx/t.py, args: [--module, m, --config, c]}\n"));
	verify(R_JS4011, GPU("megatron", SHAPE "entry: {script: /fsx/pretrain_gpt.py}\n"));
	verify(R_JS4011, GPU("megatron", "model: {seq_length: 2048, tokens: 1e9}\n" MEGATRON_ARGS));
	verify_not(R_JS4011, GPU("megatron", SHAPE MEGATRON_ARGS));
	verify_not(R_JS4011, GPU("plain", ""));
}

/* The model: stated counts against the shape's (2%). */
static void js_model(void **state)
{
	(void)state;
	/* 8 layers at hidden 1024, FFN 2816 gated, vocabulary 32000 (padded to 32768), untied: 1.683e8 */
	verify(R_JS4012, GPU("megatron", "model: {parameters: 2e8, layers: 8, hidden_size: 1024, attention_heads: 8,"
					 " ffn_hidden_size: 2816, vocab_size: 32000, seq_length: 2048, tokens: 1e9}\n" MEGATRON_ARGS));
	verify_not(R_JS4012, GPU("megatron", "model: {parameters: 1.68e8, layers: 8, hidden_size: 1024, attention_heads: 8,"
					     " ffn_hidden_size: 2816, vocab_size: 32000, seq_length: 2048, tokens: 1e9}\n" MEGATRON_ARGS));
	verify_not(R_JS4012, GPU("megatron", "model: {parameters: 2e8, seq_length: 2048, tokens: 1e9}\n" MEGATRON_ARGS));
}

/* A spec with a cluster mapping of its own. */
#define SPEC_AT(instance, cluster, more)                                            \
	"trainforge: 1\nname: job\ninstance: " instance "\nnodes: 2\n"                \
	"entry: {script: /fsx/train.py}\n"                                             \
	"cluster: {subnet: subnet-0123456789abcdef0, ssh_key: training-key" cluster "}\n" more
#define HEAD ", head_subnet: subnet-0123456789abcdef1"
#define NEURON_VENV "software: {neuron: \"2.29.0\", python: {venv: /fsx/envs/neuron}}\n"
#define DLC "763104351884.dkr.ecr.us-east-1.amazonaws.com#pytorch-training:2.6.0-gpu-py312-cu126-ubuntu22.04-ec2"

static void js_neuron(void **state)
{
	(void)state;
	verify(R_JS5001, SPEC_AT("trn2.48xlarge", HEAD, NEURON_VENV));
	verify_not(R_JS5001, SPEC_AT("trn2.48xlarge", HEAD ", ami: ami-0123456789abcdef0", NEURON_VENV));
	verify(R_JS5002, SPEC_AT("trn2.48xlarge", HEAD,
				 "software: {neuron: \"2.29.0\", neuron_script: extrapolated, python: {venv: /fsx/v}}\n"));
	verify(R_JS5005, SPEC_AT("trn2.48xlarge", HEAD, "software: {neuron: \"2.29.0\", neuron_script: extrapolated}\n"));
	verify_not(R_JS5005, SPEC_AT("trn2.48xlarge", HEAD,
				     "software: {neuron: \"2.29.0\", neuron_script: extrapolated, python: {venv: /fsx/v}}\n"));
	verify(R_JS5004, SPEC_AT("trn2.48xlarge", HEAD ", ami: ami-0123456789abcdef0, root_volume_gib: 511", ""));
	verify_not(R_JS5004, SPEC_AT("trn2.48xlarge", HEAD ", ami: ami-0123456789abcdef0, root_volume_gib: 512", ""));
	verify(R_JS5006, SPEC_AT("trn2.48xlarge", HEAD,
				 "software: {neuron: \"2.29.0\", neuron_image: {parent: ami-0123456789abcdef0}}\n"));
	verify_not(R_JS5003, SPEC_AT("trn2.48xlarge", HEAD,
				     "software: {neuron: \"2.29.0\", neuron_script: extrapolated, python: {venv: /fsx/v}}\n"));
}

static void js_cluster(void **state)
{
	(void)state;
	verify(R_JS5012, SPEC_AT("p5.48xlarge", "", ""));
	verify_not(R_JS5012, SPEC_AT("p5.48xlarge", HEAD, ""));
	verify_not(R_JS5012, SPEC_AT("g5.48xlarge", "", "")); /* one network card */
	verify(R_JS5012, SPEC_AT("c6in.32xlarge", "", ""));    /* EFA, two cards in the catalog */
	verify(R_JS5013, "trainforge: 1\nname: job\ninstance: trn3.48xlarge\nlnc: 2\nnodes: 2\n" /* provisional: */
			 "entry: {script: /fsx/train.py}\n"                           /* cards not in */
			 "cluster: {subnet: subnet-0123456789abcdef0, ssh_key: k, ami: ami-0123456789abcdef0}\n" /* the catalog */
			 "software: {neuron: \"2.29.0\"}\n");
	verify(R_JS5010, SPEC_AT("p5.48xlarge", HEAD, "storage: {deletion_policy: delete}\n"));
	verify_not(R_JS5010, SPEC_AT("p5.48xlarge", HEAD, "storage: {type: ebs, mount: /fsx, deletion_policy: snapshot}\n"));
	verify(R_JS5011, SPEC_AT("p5.48xlarge", HEAD, "storage: {type: efs, mount: /fsx, deletion_policy: snapshot}\n"));
	verify(R_JS5011, SPEC_AT("p5.48xlarge", HEAD, "storage: {id: fs-0123456789abcdef0, deletion_policy: retain}\n"));
	verify(R_JS5014, SPEC_AT("p5.48xlarge", HEAD, "software: {container: {image: \"" DLC "\"}}\n"));
	verify_not(R_JS5014, SPEC_AT("p5.48xlarge", HEAD ", bootstrap: s3://boot-bucket/x", "software: {container: {image: \"" DLC "\"}}\n"));
	verify(R_JS5015, SPEC_AT("p5.48xlarge", HEAD ", bootstrap: s3://boot-bucket/x", "s3_buckets: [boot-bucket]\n"
				 "software: {container: {image: \"" DLC "\"}}\n"));
	verify(R_JS5016, SPEC_AT("p5.48xlarge", HEAD ", name: the-name-has-thirty-two-letters2", ""));
	verify_not(R_JS5016, SPEC_AT("p5.48xlarge", HEAD ", name: the-name-has-thirty-one-letters", ""));
	verify(R_JS5017, FLEET("{reserved: 4, spot: 2, placement_group: job-pg}"));
	verify_not(R_JS5017, FLEET("{type: reservation, reservation_id: cr-0123456789abcdef0, reserved: 4, spot: 2, "
				   "placement_group: job-pg}"));
}

static void js_runnable(void **state)
{
	(void)state;
	verify(R_JS5020, SPEC_AT("p4d.24xlarge", HEAD,
				 "model: {parameters: 7.5e9, layers: 32, hidden_size: 4096, seq_length: 2048}\n"));
	verify_not(R_JS5020, SPEC_AT("p4d.24xlarge", HEAD,
				     "model: {parameters: 7.5e9, layers: 32, hidden_size: 4096, seq_length: 2048}\n"
				     "training: {zero_stage: 3}\n"));
	verify(R_JS5021, SPEC_AT("p4d.24xlarge", HEAD, "model: {parameters: 1e9}\n"));
	verify(R_JS5022, SPEC_AT("p5.48xlarge", HEAD, "paths: {checkpoints: /tmp/ckpt}\n"));
	verify_not(R_JS5022, SPEC_AT("p5.48xlarge", HEAD, "paths: {checkpoints: /home/ubuntu/ckpt}\n"));
	verify(R_JS5023, SPEC_AT("p5.48xlarge", HEAD ", ami: ami-0123456789abcdef0", "path_prepend: {PYTHONPATH: [/opt/code]}\n"));
	verify(R_JS5024, SPEC_AT("p5.48xlarge", HEAD, "training: {precompile: true}\n"));
	verify_not(R_JS5024, SPEC_AT("trn2.48xlarge", HEAD ", ami: ami-0123456789abcdef0", "training: {precompile: true}\n"));
}

static void js_container(void **state)
{
	(void)state;
	verify(R_JS5032, SPEC_AT("p5.48xlarge", HEAD ", bootstrap: s3://boot-bucket/x",
				 "software: {container: {image: \"nvcr.io#nvidia/pytorch:24.12-py3\"}}\n"));
	verify_not(R_JS5032, SPEC_AT("p5.48xlarge", HEAD ", bootstrap: s3://boot-bucket/x",
				     "software: {container: {image: \"nvcr.io#nvidia/pytorch:24.12-py3\", efa: true}}\n"));
	verify(R_JS5031, SPEC_AT("p5.48xlarge", HEAD ", bootstrap: s3://boot-bucket/x", "software: {container: {image: /fsx/img.sqsh}}\n"));
	verify_not(R_JS5031, SPEC_AT("p5.48xlarge", HEAD ", bootstrap: s3://boot-bucket/x", "software: {container: {image: \"" DLC "\"}}\n"));
	verify_not(R_JS5030, SPEC_AT("p5.48xlarge", HEAD ", bootstrap: s3://boot-bucket/x", "software: {container: {image: \"" DLC "\"}}\n"));
}

#define P5_8B "nodes: 4\nparallel: {tensor: 8}\nbatch: {micro: 1, global: 64}\n" \
	"model: {parameters: 8e9, tokens: 1e12, layers: 32, hidden_size: 4096, attention_heads: 32, seq_length: 4096}\n"
#define BLOCK "nodes: 2\nparallel: {tensor: 8}\nbatch: {micro: 1, global: 32}\n" \
	"capacity: {type: capacity-block, reservation_id: cr-0123456789abcdef0, block_hours: 48}\n"

static void js_bill(void **state)
{
	(void)state;
	/* 49.8 days of run: past 2 days, within 10% of 52, clear of 60 */
	verify(R_JS8001, SPEC("p5.48xlarge", P5_8B "time_limit: 2-00:00:00\n"));
	verify(R_JS8001, SPEC("p5.48xlarge", P5_8B "time_limit: 52-00:00:00\n"));
	verify_not(R_JS8001, SPEC("p5.48xlarge", P5_8B "time_limit: 60-00:00:00\n"));
	verify_not(R_JS8001, SPEC("p5.48xlarge", P5_8B));
	/* a 48-hour block leaves 47 hours */
	verify(R_JS8002, SPEC("p5.48xlarge", BLOCK "time_limit: 1-23:00:01\n"));
	verify_not(R_JS8002, SPEC("p5.48xlarge", BLOCK "time_limit: 1-23:00:00\n"));
}

/* JS4006 lints the rendered files, which cli/ composes from gen and lint;
 * the verify lines here link neither cli/ nor lint's run of outputs. */
static void js_output(void **state)
{
	(void)state;
	verify_skip_area(AREA_JS_OUTPUT, "cli/jobspec.c renders and lints the outputs: its cases are "
			 "tests/cases/JS4006 and tests/gen/run.sh (user-value-finding-*, user-template-finding-at-line)");
}

/* Checkpoints and interruptions: Megatron-LM on p5 with a model the plan
 * can time (Llama 3's 70B shape on 2e10 tokens: 4.1 days at 8 nodes, 8.1
 * at 4), and torchtitan with its 8B shape. */
#define SURVIVAL(framework, shape, args, more)                                                        \
	"trainforge: 1\nname: job\ninstance: p5.48xlarge\nframework: " framework "\n"                  \
	"parallel: {tensor: 8}\nbatch: {micro: 1, global: 840}\n"                                       \
	"model: {" shape ", vocab_size: 128256, seq_length: 4096}\n"                                    \
	"entry: {script: /fsx/train.py, args: [" args "]}\n"                                            \
	"cluster: {subnet: subnet-0123456789abcdef0, head_subnet: subnet-0123456789abcdef1,"            \
	" bootstrap: s3://job-bootstrap/x, ssh_key: training-key}\n" more
#define TIMED(more)                                                                                 \
	SURVIVAL("megatron", "layers: 80, hidden_size: 8192, attention_heads: 64, query_groups: 8,"      \
		 " ffn_hidden_size: 28672, tokens: 2e10", "--lr, '1e-4', --tokenizer-type, NullTokenizer, --mock-data", \
		 "training: {zero_stage: 1}\n" more)
#define TITAN(more)                                                                                 \
	SURVIVAL("torchtitan", "layers: 32, hidden_size: 4096, attention_heads: 32, query_groups: 8,"    \
		 " ffn_hidden_size: 14336, tokens: 1e10", "--module, llama3, --config, llama3_8b",          \
		 "training: {zero_stage: 3}\n" more)
#define FLEET_4_4 "capacity: {reserved: 4, spot: 4, placement_group: job-pg}\ns3_buckets: [job-artifacts]\n"

static void js_survival(void **state)
{
	(void)state;
	verify(R_JS7001, TIMED(FLEET_4_4 "time_limit: 3-00:00:00\n")); /* the whole fleet too slow */
	verify(R_JS7001, TIMED(FLEET_4_4 "time_limit: 5-00:00:00\n")); /* the reserved alone too slow */
	verify(R_JS7001, TIMED(FLEET_4_4 "time_limit: 9-00:00:00\n")); /* an early reclaim loses too much */
	verify_not(R_JS7001, TIMED(FLEET_4_4 "time_limit: 10-00:00:00\n"));
	verify_not(R_JS7001, TIMED(FLEET_4_4));
	verify(R_JS7002, TIMED("nodes: 8\nstorage: {type: fsx-lustre, mount: /fsx, id: fs-0123456789abcdef0}\n"));
	verify_not(R_JS7002, TIMED("nodes: 8\nstorage: {type: fsx-lustre, mount: /fsx, id: fs-0123456789abcdef0, write_mb_per_s: 500}\n"));
	verify_not(R_JS7002, TIMED("nodes: 8\n"));
	verify(R_JS7003, TIMED("nodes: 8\ncheckpoint: {interval_minutes: 10}\n"));
	verify_not(R_JS7003, TIMED("nodes: 8\ncheckpoint: {interval_minutes: 480}\n"));
	verify(R_JS7004, TITAN(FLEET_4_4));
	verify_not(R_JS7004, TIMED(FLEET_4_4));
}

static void every_area_has_cases(void **state)
{
	(void)state;
	verify_areas_covered();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(js_schema),
		cmocka_unit_test(js_instance),
		cmocka_unit_test(js_layout),
		cmocka_unit_test(js_fleet),
		cmocka_unit_test(js_software),
		cmocka_unit_test(js_run),
		cmocka_unit_test(js_framework),
		cmocka_unit_test(js_model),
		cmocka_unit_test(js_output),
		cmocka_unit_test(js_neuron),
		cmocka_unit_test(js_cluster),
		cmocka_unit_test(js_runnable),
		cmocka_unit_test(js_container),
		cmocka_unit_test(js_bill),
		cmocka_unit_test(js_survival),
		cmocka_unit_test(every_area_has_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
