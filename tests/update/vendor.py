"""ParallelCluster 3.11's own package (../shared/vendor), made importable
the way the update suites load it: on sys.path, with a default region and
no instance metadata lookups. A suite that cannot have it prints its skip
line and exits 0, as the shell suites do."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..", "..", "shared", "vendor", "aws-parallelcluster-3.11", "cli", "src")


def use_vendored(result):
    """Puts the vendored package on sys.path, or skips RESULT."""
    if not os.path.isdir(SRC):
        print("RESULT skip %s: ../shared/vendor/aws-parallelcluster-3.11 is absent" % result)
        sys.exit(0)
    sys.path.insert(0, SRC)
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    os.environ["AWS_EC2_METADATA_DISABLED"] = "true"


def skip_unimportable(result, err):
    print("RESULT skip %s: cannot import ParallelCluster (%s; tools/deps.sh installs "
          "python3-marshmallow, python3-yaml and python3-boto3)" % (result, err))
    sys.exit(0)
