"""`csi proxy` and `csi judge --traffic`: an app's own traffic judged by the checks of `csi run`.

The proxy forwards every request unchanged to the upstream indexer and gives its answer back unchanged, and
judges each exchange on the side: the answer checks (`engine.answer_judge`, as `csi run` judges its own
requests), and the rules of a session that traffic shows (batches, notifications, cursor walks), a shadow
indexer compared (`--shadow`), served proofs verified (`--proofs verify`). A recording of the traffic is judged
the same way out of the path.
"""

from csi_conformance.harness.proxy.judge import TrafficJudge
from csi_conformance.harness.proxy.passage import Passage
from csi_conformance.harness.proxy.running import ProxyOptions, judge_traffic, running_proxy, serve_proxy

__all__ = ["Passage", "ProxyOptions", "TrafficJudge", "judge_traffic", "running_proxy", "serve_proxy"]
