/* ParallelCluster config rules (PC), one line a case, one test per area
 * of rules.def. tests/unit/rules_verify.h says how a case runs. */
#include "rules_verify.h"

#define CLEAN VERIFY_CLUSTER_HEAD VERIFY_QUEUE
/* One queue "train" (its Networking value and one compute resource) in a
 * config whose Image is image. */
#define QUEUE_IN(image, net, cr)                                                \
	VERIFY_CLUSTER_HEAD_IMAGE(image) "    - Name: train\n      Networking: " net \
	"\n      ComputeResources:\n        - " cr "\n"
#define QUEUE(net, cr) QUEUE_IN("{Os: alinux2023}", net, cr)
#define SUBNET "SubnetIds: [subnet-0fedcba9876543210]"
#define TWO_SUBNETS "SubnetIds: [subnet-0fedcba9876543210, subnet-0123456789abcdef1]"
#define GROUP "{" SUBNET ", PlacementGroup: {Enabled: true}}"
/* The compute resource p5 of up to four p5.48xlarge, with more keys. */
#define P5(more) "{Name: p5, InstanceType: p5.48xlarge, MaxCount: 4" more "}"
/* The same with Instances, as a queue in several subnets needs. */
#define P5_FLEX(more) "{Name: p5, Instances: [{InstanceType: p5.48xlarge}], MaxCount: 4" more "}"
#define EFA ", Efa: {Enabled: true}"
#define TRN2 "{Name: trn2, InstanceType: trn2.48xlarge, MaxCount: 4" EFA "}"
#define TRN1 "{Name: trn1, InstanceType: trn1.32xlarge, MaxCount: 4" EFA "}"
#define TRN3 "{Name: trn3, InstanceType: trn3.48xlarge, MaxCount: 4" EFA "}"
/* Neuron's ParallelCluster install script of a release, on node start-up. */
#define NEURON_INSTALL(v) "s3://neuron-s3/pcluster/post-install-scripts/neuron-installation/v" v "/u22/pt/install_neuron.sh"
#define NEURON_SCRIPT(v) "CustomActions: {OnNodeConfigured: {Script: " NEURON_INSTALL(v) "}}"
#define NEURON_SEQUENCE(v) "CustomActions: {OnNodeConfigured: {Sequence: [{Script: s3://b/setup.sh}, {Script: " NEURON_INSTALL(v) "}]}}"
/* A queue line of its own, before Networking (CapacityType, ...). */
#define QUEUE_KEY(key, net, cr)                                                       \
	VERIFY_CLUSTER_HEAD "    - Name: train\n      " key "\n      Networking: " net \
	"\n      ComputeResources:\n        - " cr "\n"
#define QUEUE_KEY_IN(image, key, net, cr)                                             \
	VERIFY_CLUSTER_HEAD_IMAGE(image) "    - Name: train\n      " key "\n      Networking: " net \
	"\n      ComputeResources:\n        - " cr "\n"
/* A clean config with one shared storage. */
#define STORAGE(s) CLEAN "SharedStorage:\n  - " s "\n"
#define FSX(dir, size)                                                           \
	"{Name: fsx, StorageType: FsxLustre, MountDir: " dir ", FsxLustreSettings: " \
	"{StorageCapacity: " size ", DeploymentType: PERSISTENT_2, PerUnitStorageThroughput: 250}}"

static void pc_schema(void **state)
{
	(void)state;
	verify(R_PC0001, CLEAN "Image: {Os: ubuntu2204}\n");
	verify_not(R_PC0001, CLEAN);
	verify(R_PC0002, "region: us-east-2\n" CLEAN);
	verify_not(R_PC0002, "Region: us-east-2\n" CLEAN);
	verify(R_PC0003, QUEUE(GROUP, "{Name: p5, InstanceType: p5.48xlarge, MaxCount: four" EFA "}"));
	verify_not(R_PC0003, QUEUE(GROUP, P5(EFA)));
	verify(R_PC0004, "Image: {Os: alinux2023}\nHeadNode: {InstanceType: c5.xlarge}\n"
			 "Scheduling:\n  Scheduler: slurm\n  SlurmQueues:\n" VERIFY_QUEUE);
	verify_not(R_PC0004, CLEAN);
	verify(R_PC0005, QUEUE(GROUP, "{Name: P5_nodes, InstanceType: p5.48xlarge, MaxCount: 4" EFA "}"));
	verify_not(R_PC0005, QUEUE(GROUP, "{Name: p5-nodes, InstanceType: p5.48xlarge, MaxCount: 4" EFA "}"));
	verify(R_PC0006, QUEUE(GROUP, P5(EFA ", Instances: [{InstanceType: p5.48xlarge}]")));
	verify_not(R_PC0006, QUEUE(GROUP, P5_FLEX(EFA)));
}

static void pc_values(void **state)
{
	(void)state;
	verify(R_PC1001, QUEUE(GROUP, "{Name: p9, InstanceType: p9.48xlarge, MaxCount: 4" EFA "}"));
	verify_not(R_PC1001, CLEAN);
	verify(R_PC1002, QUEUE(GROUP, "{Name: p5, InstanceType: p5-48xlarge, MaxCount: 4" EFA "}"));
	verify_not(R_PC1002, QUEUE(GROUP, "{Name: p9, InstanceType: p9.48xlarge, MaxCount: 4" EFA "}"));
	verify(R_PC1003, "Region: us-moon-1\n" CLEAN);
	verify_not(R_PC1003, "Region: eu-west-1\n" CLEAN);
	/* U+2011, a non-breaking hyphen pasted from a web page: in a value
	 * ParallelCluster refuses, and in text it takes as it is */
	verify(R_PC1004, "Region: us\xe2\x80\x91" "east-1\n" CLEAN);
	verify_not(R_PC1004, CLEAN "Tags: [{Key: team, Value: \"ml\xe2\x80\x91infra\"}]\n");
	verify(R_PC1006, CLEAN "Tags: [{Key: team, Value: \"ml\xe2\x80\x91infra\"}]\n");
	verify_not(R_PC1006, CLEAN "Tags: [{Key: team, Value: \"ml-infra\"}]\n");
	verify_not(R_PC1006, "Region: us\xe2\x80\x91" "east-1\n" CLEAN);
	/* a type the catalog holds provisionally, in either spelling of the list */
	verify(R_PC1005, QUEUE(GROUP, "{Name: trn3, InstanceType: trn3.48xlarge, MaxCount: 4" EFA "}"));
	verify(R_PC1005, QUEUE(GROUP, "{Name: trn3, Instances: [{InstanceType: trn3.48xlarge}], MaxCount: 4" EFA "}"));
	verify_not(R_PC1005, QUEUE(GROUP, TRN2));
}

static void pc_efa(void **state)
{
	(void)state;
	verify(R_PC2001, QUEUE(GROUP, "{Name: c5, InstanceType: c5.xlarge, MaxCount: 4" EFA "}"));
	verify_not(R_PC2001, QUEUE(GROUP, "{Name: c5n, InstanceType: c5n.18xlarge, MaxCount: 4" EFA "}"));
	verify(R_PC2002, QUEUE(GROUP, P5("")));
	verify_not(R_PC2002, QUEUE(GROUP, P5(EFA)));
	verify_not(R_PC2002, QUEUE(GROUP, "{Name: p5, InstanceType: p5.48xlarge, MaxCount: 1}"));
	verify(R_PC2004, QUEUE(GROUP, P5(", Efa: {GdrSupport: true}")));
	verify_not(R_PC2004, QUEUE(GROUP, P5(", Efa: {Enabled: true, GdrSupport: true}")));
}

static void pc_placement(void **state)
{
	(void)state;
	verify(R_PC2101, QUEUE("{" SUBNET "}", P5(EFA)));
	verify_not(R_PC2101, QUEUE(GROUP, P5(EFA)));
	verify(R_PC2102, QUEUE("{" SUBNET ", PlacementGroup: {Enabled: false}}", P5(EFA)));
	verify_not(R_PC2102, QUEUE("{" SUBNET ", PlacementGroup: {Enabled: true, Name: my-group}}", P5(EFA)));
	verify(R_PC2103, QUEUE("{" TWO_SUBNETS "}", P5_FLEX(EFA)));
	verify_not(R_PC2103, QUEUE("{" TWO_SUBNETS "}", P5_FLEX("")));
}

static void pc_capacity(void **state)
{
	(void)state;
	verify(R_PC2201, QUEUE(GROUP, P5(", MinCount: 8" EFA)));
	verify_not(R_PC2201, QUEUE(GROUP, P5(", MinCount: 4" EFA)));
	verify(R_PC2204, QUEUE_KEY("CapacityType: CAPACITY_BLOCK", "{" SUBNET "}", P5(", MinCount: 4" EFA)));
	verify_not(R_PC2204, QUEUE_KEY("CapacityType: CAPACITY_BLOCK", "{" SUBNET "}",
				       P5(", MinCount: 4" EFA ", CapacityReservationTarget: "
					  "{CapacityReservationId: cr-0123456789abcdef0}")));
	verify(R_PC2205, QUEUE(GROUP, P5(", SpotPrice: 20" EFA)));
	verify_not(R_PC2205, QUEUE_KEY("CapacityType: SPOT", GROUP, P5(", SpotPrice: 20" EFA)));
	verify(R_PC2206, CLEAN VERIFY_QUEUE);
	verify_not(R_PC2206, CLEAN "    - Name: eval\n      Networking: " GROUP
				   "\n      ComputeResources:\n        - " P5(EFA) "\n");
}

static void pc_platform(void **state)
{
	(void)state;
	verify(R_PC3001, QUEUE_IN("{Os: alinux2}", GROUP, TRN2));
	verify_not(R_PC3001, QUEUE_IN("{Os: ubuntu2204}", GROUP, TRN2));
	verify(R_PC3001, QUEUE_IN("{Os: alinux2}", GROUP, TRN3));
	verify(R_PC3001, QUEUE_KEY_IN("{Os: alinux2}", NEURON_SCRIPT("2.20.0"), GROUP, TRN1));
	verify_not(R_PC3001, QUEUE_KEY_IN("{Os: alinux2}", NEURON_SCRIPT("2.19.1"), GROUP, TRN1));
	verify(R_PC3005, QUEUE_KEY_IN("{Os: ubuntu2204}", NEURON_SCRIPT("2.20.0"), GROUP, TRN2));
	verify(R_PC3005, QUEUE_KEY_IN("{Os: ubuntu2204}", NEURON_SEQUENCE("2.26.1"), GROUP, TRN3));
	verify_not(R_PC3005, QUEUE_KEY_IN("{Os: ubuntu2204}", NEURON_SCRIPT("2.21.0"), GROUP, TRN2));
	verify_not(R_PC3005, QUEUE_KEY_IN("{Os: ubuntu2204}", NEURON_SCRIPT("2.18.0"), GROUP, TRN1));
	/* a version that is not one: nothing to compare */
	verify_not(R_PC3005, QUEUE_KEY_IN("{Os: ubuntu2204}", NEURON_SCRIPT("latest"), GROUP, TRN2));
	verify(R_PC3002, QUEUE_IN("{Os: rocky9}", GROUP, P5(EFA)));
	verify_not(R_PC3002, QUEUE_IN("{Os: rocky9, CustomAmi: ami-0123456789abcdef0}", GROUP, P5(EFA)));
	verify(R_PC3010, "Imds: {ImdsSupport: v1.0}\n" CLEAN);
	verify_not(R_PC3010, "Imds: {ImdsSupport: v2.0}\n" CLEAN);
	/* c5.xlarge has 8 GiB: enough for (8 - 0.6) x 25 = 185 nodes */
	verify(R_PC3011, VERIFY_CLUSTER_HEAD "    - Name: train\n      Networking: " GROUP
			 "\n      ComputeResources:\n        - {Name: p5, InstanceType: p5.48xlarge, MaxCount: 186" EFA "}\n");
	verify_not(R_PC3011, VERIFY_CLUSTER_HEAD "    - Name: train\n      Networking: " GROUP
			     "\n      ComputeResources:\n        - {Name: p5, InstanceType: p5.48xlarge, MaxCount: 185" EFA "}\n");
}

#define SHARED_JOB(opts) "#!/bin/bash\n#SBATCH --partition=train\n#SBATCH --nodes=2\n" opts \
	"srun hostname\n"
static void pc_sharing(void **state)
{
	(void)state;
	verify(R_PC2220, CLEAN);
	verify_not(R_PC2220, QUEUE_KEY("JobExclusiveAllocation: true", GROUP, P5(EFA)));
	/* a paired script that asks for --exclusive makes its queue's jobs exclusive */
	verify_at(__FILE__, __LINE__, true, R_PC2220, 0, CLEAN, NULL, "job.sbatch", SHARED_JOB(""),
		  strlen(SHARED_JOB("")));
	verify_at(__FILE__, __LINE__, false, R_PC2220, 0, CLEAN, NULL, "job.sbatch",
		  SHARED_JOB("#SBATCH --exclusive\n"), strlen(SHARED_JOB("#SBATCH --exclusive\n")));
	/* one node at a time is no multi-node training */
	verify_not(R_PC2220, QUEUE(GROUP, "{Name: p5, InstanceType: p5.48xlarge, MaxCount: 1" EFA "}"));
}

static void pc_storage(void **state)
{
	(void)state;
	verify(R_PC4001, STORAGE(FSX("/usr", "1200")));
	verify_not(R_PC4001, STORAGE(FSX("/fsx", "1200")));
	verify(R_PC4003, STORAGE(FSX("fsx", "1200")));
	verify_not(R_PC4003, STORAGE(FSX("/fsx", "1200")));
	verify(R_PC4006, STORAGE(FSX("/fsx", "3600")));
	verify_not(R_PC4006, STORAGE(FSX("/fsx", "4800")));
}

/* A clean config with its head node type, QueueUpdateStrategy (a value
 * of SlurmSettings) and the compute resource p5's counts, and a tail. */
#define CHANGE(head, strategy, min, max, tail)                                            \
	"Image: {Os: alinux2023}\n"                                                        \
	"HeadNode: {InstanceType: " head ", Networking: {SubnetId: subnet-0123456789abcdef0}}\n" \
	"Scheduling:\n  Scheduler: slurm\n  SlurmSettings: {QueueUpdateStrategy: " strategy "}\n" \
	"  SlurmQueues:\n    - Name: train\n"                                             \
	"      Networking: {SubnetIds: [subnet-0fedcba9876543210], PlacementGroup: {Enabled: true}}\n" \
	"      ComputeResources:\n        - {Name: p5, InstanceType: p5.48xlarge, MinCount: " min \
	", MaxCount: " max ", Efa: {Enabled: true}}\n" tail
#define AT(strategy, max) CHANGE("c5.xlarge", strategy, "0", max, "")
#define LOGIN(type, count)                                                              \
	"LoginNodes: {Pools: [{Name: login, InstanceType: " type ", Count: " count              \
	", Networking: {SubnetIds: [subnet-0123456789abcdef0]}}]}\n"
#define MANAGED_FSX(policy) \
	"SharedStorage: [{Name: fsx, StorageType: FsxLustre, MountDir: /fsx, FsxLustreSettings: " \
	"{StorageCapacity: 1200" policy "}}]\n"

static void pc_update(void **state)
{
	(void)state;
	const char *fleet_stop = AT("COMPUTE_FLEET_STOP", "16");
	verify_change(R_PC5001, fleet_stop, CHANGE("c5.2xlarge", "COMPUTE_FLEET_STOP", "0", "16", ""));
	verify_change_not(R_PC5001, fleet_stop, AT("COMPUTE_FLEET_STOP", "32"));
	verify_change(R_PC5002, fleet_stop, AT("COMPUTE_FLEET_STOP", "8"));
	verify_change_not(R_PC5002, AT("TERMINATE", "16"), AT("TERMINATE", "8"));
	verify_change(R_PC5003, AT("DRAIN", "16"),
		      CHANGE("c5.xlarge", "DRAIN", "0", "16", "      Image: {CustomAmi: ami-0123456789abcdef0}\n"));
	verify_change_not(R_PC5003, AT("DRAIN", "16"), AT("DRAIN", "32"));
	verify_change(R_PC5004, AT("TERMINATE", "16"), AT("TERMINATE", "8"));
	verify_change_not(R_PC5004, AT("TERMINATE", "16"), AT("TERMINATE", "24"));
	verify_change(R_PC5005, CHANGE("c5.xlarge", "DRAIN", "0", "16", LOGIN("c5.large", "2")),
		      CHANGE("c5.xlarge", "DRAIN", "0", "16", LOGIN("c5.xlarge", "2")));
	verify_change_not(R_PC5005, CHANGE("c5.xlarge", "DRAIN", "0", "16", LOGIN("c5.large", "0")),
			  CHANGE("c5.xlarge", "DRAIN", "0", "16", LOGIN("c5.xlarge", "0")));
	verify_change(R_PC5006, CHANGE("c5.xlarge", "DRAIN", "0", "16", MANAGED_FSX("")), AT("DRAIN", "16"));
	verify_change_not(R_PC5006, CHANGE("c5.xlarge", "DRAIN", "0", "16", MANAGED_FSX(", DeletionPolicy: Retain")),
			  AT("DRAIN", "16"));
	verify_change(R_PC5007, fleet_stop, AT("COMPUTE_FLEET_STOP", "64"));
	verify_change_not(R_PC5007, fleet_stop, fleet_stop);
	verify_change(R_PC5008, fleet_stop, CHANGE("c5.xlarge", "COMPUTE_FLEET_STOP", "0", "16", "Frobnicate: 1\n"));
	verify_change_not(R_PC5008, fleet_stop, AT("COMPUTE_FLEET_STOP", "64"));
	verify_change(R_PC5009, "HeadNode: [\n", fleet_stop);
	verify_change_not(R_PC5009, fleet_stop, fleet_stop);
}

static void pc_cost(void **state)
{
	(void)state;
	verify(R_PC6001, CHANGE("c5.xlarge", "DRAIN", "2", "16", ""));
	verify_not(R_PC6001, CHANGE("c5.xlarge", "DRAIN", "0", "16", ""));
	/* a capacity block is paid for whatever its nodes do */
	verify_not(R_PC6001, QUEUE_KEY("CapacityType: CAPACITY_BLOCK", "{" SUBNET "}",
				       P5(", MinCount: 4, CapacityReservationTarget: {CapacityReservationId: cr-0123456789abcdef0}")));
}

static void pc_network(void **state)
{
	(void)state;
	/* the head node in the queue's subnet, a type of 32 network cards */
	verify(R_PC2701, VERIFY_CLUSTER_HEAD "    - Name: train\n"
			 "      Networking: {SubnetIds: [subnet-0123456789abcdef0], PlacementGroup: {Enabled: true}}\n"
			 "      ComputeResources:\n        - " TRN2 "\n");
	verify_not(R_PC2701, CLEAN);
	/* one network card: the subnet may be public for both */
	verify_not(R_PC2701, VERIFY_CLUSTER_HEAD "    - Name: train\n"
			     "      Networking: {SubnetIds: [subnet-0123456789abcdef0]}\n"
			     "      ComputeResources:\n        - {Name: c5, InstanceType: c5.xlarge, MaxCount: 4}\n");
}

#define WRITES(bucket, key) "Iam: {S3Access: [{BucketName: " bucket key ", EnableWriteAccess: true}]}"
#define SCRIPT(url) "CustomActions: {OnNodeConfigured: {Script: " url "}}"

static void pc_bootstrap(void **state)
{
	(void)state;
	verify(R_PC2702, QUEUE_KEY(SCRIPT("s3://b/setup.sh") "\n      " WRITES("b", ""), GROUP, P5(EFA)));
	verify(R_PC2702, QUEUE_KEY(SCRIPT("s3://b/jobs/setup.sh") "\n      " WRITES("b", ", KeyName: 'jobs/*'"), GROUP, P5(EFA)));
	verify_not(R_PC2702, QUEUE_KEY(SCRIPT("s3://b/scripts/setup.sh") "\n      " WRITES("b", ", KeyName: 'data/*'"), GROUP,
				       P5(EFA)));
	verify_not(R_PC2702, QUEUE_KEY(SCRIPT("s3://b/setup.sh") "\n      " WRITES("other", ""), GROUP, P5(EFA)));
	verify_not(R_PC2702, QUEUE_KEY(SCRIPT(NEURON_INSTALL("2.29.0")), GROUP, P5(EFA)));
}

static void every_area_has_cases(void **state)
{
	(void)state;
	verify_areas_covered();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pc_schema),
		cmocka_unit_test(pc_values),
		cmocka_unit_test(pc_efa),
		cmocka_unit_test(pc_placement),
		cmocka_unit_test(pc_capacity),
		cmocka_unit_test(pc_platform),
		cmocka_unit_test(pc_sharing),
		cmocka_unit_test(pc_storage),
		cmocka_unit_test(pc_update),
		cmocka_unit_test(pc_cost),
		cmocka_unit_test(pc_network),
		cmocka_unit_test(pc_bootstrap),
		cmocka_unit_test(every_area_has_cases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
