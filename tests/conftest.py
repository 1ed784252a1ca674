"""Settings for every test process under tests/, made before any test module imports gRPC."""

from __future__ import annotations

import os

# The CLI tests start `menagerie` in a pseudo-terminal with pexpect, which forks this process and
# closes its descriptors before exec. gRPC core's fork support (on by default in its core, off on
# its Python side) restarts its poller in such a child, which then aborts on a closed descriptor
# (`Check failed: wakeup_fd_->Wakeup().ok()`) before the exec. A process whose forks always exec
# is what GRPC_ENABLE_FORK_SUPPORT=false is for (gRPC's fork-support documentation); it also makes the
# core agree with gRPC Python's own default. A value set from outside is kept.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
