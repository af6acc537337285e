#!/usr/bin/python3
"""torchrun for the e2e tests (run.sh puts a `torchrun` shim first in PATH).

Debian 12's python3-torch is importable only by /usr/bin/python3, and its
torch 1.13 torchrun fails at once under Python 3.11 with the default
--redirects/--tee of "0": Std.from_str looks the value up by iterating the
IntFlag, and Python 3.11 iterates only single-bit members, so NONE (0) and
ALL (3) come back as None ("'NoneType' object has no attribute 'get'" in
to_map). This wraps torch.distributed.run with a from_str that builds the
member from its value; nothing else changes.
"""
import re
import sys

from torch.distributed.elastic.multiprocessing import api


def _from_str(cls, vm):
    if re.fullmatch(r"\s*[0-3]\s*", vm):
        return cls(int(vm))
    if re.fullmatch(r"\s*(\d+:[0-3],)*\d+:[0-3]\s*", vm):
        return {int(i): cls(int(v)) for i, v in (m.split(":") for m in vm.strip().split(","))}
    raise ValueError(f"{vm} is neither a value 0-3 nor a mapping like 0:1,1:2")


api.Std.from_str = classmethod(_from_str)

from torch.distributed.run import main  # noqa: E402  (after the patch)

if __name__ == "__main__":
    sys.argv[0] = "torchrun"
    sys.exit(main())
