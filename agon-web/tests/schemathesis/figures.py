"""The figures of a Schemathesis run: requests sent, and operations of the document covered.

Reads the run's NDJSON events (--report ndjson): each finished scenario records its cases
and the interaction (request and response) of each. An operation counts as covered when a
request to it got an answer; the methods Schemathesis also tries on each path (405s, the
unsupported_method check) count as requests but not as operations.
"""

import json
import sys
import urllib.request
from collections import Counter

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def main(events_path: str, document_url: str) -> None:
    with urllib.request.urlopen(document_url) as response:
        document = json.load(response)
    documented = {
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method in item
        if method in METHODS
    }
    requests = 0
    statuses: Counter[int] = Counter()
    covered: set[tuple[str, str]] = set()
    with open(events_path, encoding="utf-8") as events:
        for line in events:
            finished = json.loads(line).get("ScenarioFinished")
            if not finished:
                continue
            recorder = finished["recorder"]
            interactions = recorder.get("interactions", {})
            for case_id, case in recorder.get("cases", {}).items():
                interaction = interactions.get(case_id)
                if not interaction or not interaction.get("response"):
                    continue
                requests += 1
                statuses[interaction["response"]["status_code"]] += 1
                operation = (case["value"]["method"], case["value"]["path"])
                if operation in documented:
                    covered.add(operation)
    by_status = ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items()))
    print(f"Schemathesis sent {requests} requests ({by_status})")
    print(f"operations covered: {len(covered)} of the {len(documented)} documented")
    for method, path in sorted(documented - covered):
        print(f"  not covered: {method} {path}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
