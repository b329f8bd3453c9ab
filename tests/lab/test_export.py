"""``ranchhand export``: one flat row per game in CSV, JSON and (with pyarrow) Parquet."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ranchhand.cli.main import app
from ranchhand.lab.export import INSTALL_PYARROW
from tests.lab.helpers import made, stored

runner = CliRunner()


def _store(tmp_path: Path) -> str:
    store, _ = stored(tmp_path / "s.sqlite", "rancho", 3, [made(i, (i % 3,), 3) for i in range(9)])
    store.close()
    return str(tmp_path / "s.sqlite")


def test_csv_and_json_hold_the_same_flat_rows(tmp_path: Path) -> None:
    path = _store(tmp_path)
    out_csv, out_json = tmp_path / "g.csv", tmp_path / "g.json"
    made_csv = runner.invoke(app, ["export", "--store", path, "--out", str(out_csv)])
    assert made_csv.exit_code == 0 and "9 games as csv" in " ".join(made_csv.output.split())
    made_json = runner.invoke(app, ["export", "1", "--store", path, "--format", "json",
                                    "--out", str(out_json)])  # fmt: skip
    assert made_json.exit_code == 0, made_json.output
    table = list(csv.DictReader(out_csv.open()))
    rows = json.loads(out_json.read_text())
    assert len(table) == len(rows) == 9 and list(table[0]) == list(rows[0])
    first = rows[4]
    assert first["index"] == 4 and first["winners"] == "1" and first["won_1"] == 1
    assert first["won_0"] == 0 and first["lead_change"] == pytest.approx(1 / 6)
    assert first["duration_turns"] == first["turns"] == 14 and first["players"] == 3
    assert json.loads(first["actions"])[1] == {"deal for sheep": 1}
    assert all(not isinstance(v, dict | list) for v in first.values())  # flat
    assert table[4]["lead_change"] == str(first["lead_change"])


def test_parquet_without_pyarrow_says_so_in_one_line(tmp_path: Path) -> None:
    path = _store(tmp_path)
    out = tmp_path / "g.parquet"
    result = runner.invoke(app, ["export", "--store", path, "--format", "parquet", "--out",
                                 str(out)])  # fmt: skip
    if importlib.util.find_spec("pyarrow") is None:
        assert result.exit_code == 2 and not out.exists()
        assert INSTALL_PYARROW in " ".join(result.output.split())
    else:
        import pyarrow.parquet as pq

        assert result.exit_code == 0 and pq.read_table(out).num_rows == 9


def test_an_unknown_format_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "--store", _store(tmp_path), "--format", "xls"])
    assert result.exit_code == 2 and "formats are: csv, json, parquet" in result.output
