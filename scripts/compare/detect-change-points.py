#!/usr/bin/env python3
"""Change points of tagbench series with apache-otava (E-divisive means with a t-test, the
"Hunter" algorithm of Fleming et al., ICPE 2023). Reads JSON on stdin:

  {"options": {"windowLen": 50, "maxPValue": 0.001, "minMagnitude": 0.0},
   "series": [{"key": "point-query|throughput", "values": [1.0, ...]}]}

and writes JSON on stdout:

  {"otavaVersion": "0.8.0", "results": [{"key": ..., "changePoints":
     [{"index": 6, "pValue": 1e-05, "meanBefore": ..., "meanAfter": ..., "forwardChangePct": ...}]}]}

Exit 3 when apache-otava cannot be imported (the caller reports it and carries on).
"""
import json
import sys

try:
    from importlib.metadata import version
    from otava.analysis import compute_change_points
except ImportError as err:  # reported by the Node side as "unavailable"
    sys.stderr.write(f"apache-otava is not importable ({err}); run setup/compare.sh\n")
    sys.exit(3)


def main():
    request = json.load(sys.stdin)
    opts = request.get("options", {})
    results = []
    for s in request["series"]:
        values = [float(v) for v in s["values"]]
        points = []
        if len(values) >= 2:
            found, _weak = compute_change_points(
                values,
                window_len=int(opts.get("windowLen", 50)),
                max_pvalue=float(opts.get("maxPValue", 0.001)),
                min_magnitude=float(opts.get("minMagnitude", 0.0)),
            )
            for cp in found:
                st = cp.stats
                points.append({
                    "index": int(cp.index),
                    "pValue": float(st.pvalue),
                    "meanBefore": float(st.mean_1),
                    "meanAfter": float(st.mean_2),
                    "forwardChangePct": float(st.forward_change_percent()),
                })
        results.append({"key": s["key"], "changePoints": points})
    json.dump({"otavaVersion": version("apache-otava"), "results": results}, sys.stdout)


if __name__ == "__main__":
    main()
