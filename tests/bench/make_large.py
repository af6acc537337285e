"""Writes a config-shaped YAML file of at least N bytes: many queues with
compute resources, tags and custom Slurm settings. It need not be a valid
cluster; it exercises the parser, the tree and the schema walk. Its queues
are as a multi-node training queue should be (JobExclusiveAllocation):
the bench measures the findings a file has apart, with a copy that leaves
the key out (a PC2220 on every queue)."""
import sys

target = int(sys.argv[2]) if len(sys.argv) > 2 else 5 * 1024 * 1024
out = open(sys.argv[1], "w")
out.write("""Region: us-east-1
Image:
  Os: alinux2023
HeadNode:
  InstanceType: c5.xlarge
  Networking:
    SubnetId: subnet-0123456789abcdef0
Scheduling:
  Scheduler: slurm
  SlurmQueues:
""")
size, i = 0, 0
while size < target:
    block = f"""    - Name: q{i}
      CapacityType: ONDEMAND
      JobExclusiveAllocation: true
      ComputeResources:
        - Name: cr{i}
          InstanceType: p5.48xlarge
          MinCount: 0
          MaxCount: {i % 64 + 1}
          Efa: {{Enabled: true}}
          CustomSlurmSettings: {{Weight: {i}, Features: "gpu,efa"}}
          Tags:
            - {{Key: team, Value: "ml-{i}"}}
            - {{Key: cost-center, Value: "cc-{i % 97}"}}
      Networking:
        SubnetIds: [subnet-0fedcba9876543210]
        PlacementGroup: {{Enabled: true}}
      CustomActions:
        OnNodeConfigured:
          Script: s3://bucket/configure-{i}.sh
          Args: ["--queue", "q{i}", "--verbose"]
"""
    out.write(block)
    size += len(block)
    i += 1
out.close()
