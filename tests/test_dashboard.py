"""The Grafana dashboard and the Prometheus alerts in ``deploy/`` name only metrics that exist:
each ``stalactites_*`` name in their PromQL is one a live server's ``/metrics`` exposes (a
histogram's as ``_bucket``, ``_sum`` or ``_count``), and every other name is one of the few
from outside, listed here."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from server_kit import REPO, InProcessServer

pytestmark = pytest.mark.usefixtures("close_clients")

DASHBOARD = REPO / "deploy" / "grafana-dashboard.json"
ALERTS = REPO / "deploy" / "prometheus-alerts.yml"

OUTSIDE = {
    "up": "Prometheus's own, per scraped target",
    "redis_up": "redis_exporter",
    "redis_memory_used_bytes": "redis_exporter",
    "redis_memory_max_bytes": "redis_exporter",
}
"""Names not from the race server, and whose they are."""

KEYWORDS = {"and", "or", "unless", "bool", "offset", "group_left", "group_right", "inf", "nan"}
HISTOGRAM = ("_bucket", "_sum", "_count")


def dashboard_exprs() -> list[str]:
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel["targets"]]


def alert_exprs() -> list[str]:
    """Each rule's ``expr:`` (the file keeps each on one line)."""
    found = re.findall(r"^\s+expr:\s*(.+)$", ALERTS.read_text(), re.MULTILINE)
    rules = re.findall(r"^\s+- alert: \w+$", ALERTS.read_text(), re.MULTILINE)
    assert len(found) == len(rules) > 0
    return found


def metric_names(expr: str) -> set[str]:
    """The metric names in a PromQL expression: identifiers that are not functions, keywords,
    label names (in ``{...}``, ``by (...)``, ``without (...)``), numbers or durations."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"(?<![\w:])[0-9][0-9.]*(e[+-]?[0-9]+|(ms|[smhdwy])+)?", " ", text)
    words = re.findall(r"([A-Za-z_:][A-Za-z0-9_:]*)\s*(\()?", text)
    return {word for word, call in words if not call and word.lower() not in KEYWORDS}


def exposed(text: str) -> set[str]:
    """The names a scrape can select: each declared family's, a histogram's by its suffixes."""
    names: set[str] = set()
    for family, kind in re.findall(r"^# TYPE (\S+) (\S+)$", text, re.MULTILINE):
        names |= {family + end for end in HISTOGRAM} if kind == "histogram" else {family}
    return names


def test_the_name_reader_tells_metrics_from_functions_labels_and_keywords() -> None:
    expr = (
        'histogram_quantile(0.99, sum by (le) (rate(a_bucket{code="x"}[5m]))) '
        "/ on (job) b > bool 1e-9 and c offset 5m"
    )
    assert metric_names(expr) == {"a_bucket", "b", "c"}


async def test_every_panel_and_alert_names_a_metric_the_server_exposes(
    redis_server: InProcessServer,
) -> None:
    with urllib.request.urlopen(f"{redis_server.url}/metrics", timeout=30) as answer:
        live = exposed(answer.read().decode())
    exprs = dashboard_exprs() + alert_exprs()
    named = set().union(*(metric_names(expr) for expr in exprs))
    ours = {name for name in named if name.startswith("stalactites_")}
    assert ours - live == set()
    assert named - ours == set(OUTSIDE)  # each outside name is listed, and each listed is used
    # What the issue asks of the dashboard: move latency, errors, backlog, Redis memory, up.
    for wanted in (
        "stalactites_move_commit_seconds_bucket",
        "stalactites_moves_rejected_total",
        "stalactites_results_oldest_age_seconds",
        "stalactites_match_waiting",
        "stalactites_solver_waiting",
        "stalactites_build_info",
        "redis_memory_used_bytes",
        "up",
    ):
        assert wanted in set().union(*(metric_names(expr) for expr in dashboard_exprs()))
