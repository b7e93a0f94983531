"""One options model: `csi run`, the pytest plugin and a csi.toml build the same `RunOptions` from the same
inputs, and a value that cannot work is one `UsageError` naming its option, whatever face it came through."""

from __future__ import annotations

from pathlib import Path

import pytest
from csi_conformance.harness.core.errors import ConfigError, UsageError
from csi_conformance.harness.core.model import Status
from csi_conformance.harness.engine.options import OPTIONS, RunOptions, config_schema, find_config
from csi_conformance.harness.engine.shard import Shard
from csi_conformance.harness.faces.cli import build_parser
from csi_conformance.harness.faces.pytest_plugin import options_from_config
from csi_conformance.harness.faces.run import options_from_args
from csi_conformance.ledger_ingest import LedgerSource

pytest_plugins = ["pytester"]

INPUTS = [
    ["--target", "https://indexer.example/rpc", "--profile", "strict", "--seed", "7", "--only", "health",
     "--only", "crypto", "--skip", "crypto.groth16-proof", "--timeout", "2.5", "--rate", "20/s",
     "--max-requests", "500", "--fail-on", "warn", "--shard", "2/3", "--report-dir", "out"],
    ["--scenario", "default", "--api-key", "k-123", "--fail-on", "skip"],
    ["--ledger-rpc", "https://rpc.example/?api-key=secret", "--slots", "10..20"],
    ["--ledger-rpc", "https://rpc.example/", "--slots", "10..20", "--ledger-cache", "blocks", "--ledger-wait", "5"],
    ["--ledger", "https://rpc.example/#slots=10..20", "--no-ledger-cache"],
    [],
]


def _cli(argv: list[str], tmp_path: Path) -> RunOptions:
    return options_from_args(build_parser().parse_args(["run", *argv]), env={})


def _plugin(pytester: pytest.Pytester, argv: list[str]) -> RunOptions:
    config = pytester.parseconfig(*[a.replace("--", "--csi-", 1) if a.startswith("--") else a for a in argv])
    return options_from_config(config)


@pytest.mark.parametrize("argv", INPUTS, ids=["most", "scenario", "ledger", "ledger-cache", "no-ledger-cache", "none"])
def test_the_cli_and_the_plugin_build_the_same_options(argv: list[str], pytester: pytest.Pytester,
                                                        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CSI_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()  # no csi.toml above this folder is read
    assert _cli(argv, tmp_path) == _plugin(pytester, argv)


def test_every_run_option_is_a_flag_of_both_faces(pytester: pytest.Pytester) -> None:
    run_help = build_parser().parse_args(["run"])
    config = pytester.parseconfig()
    for option in OPTIONS:
        assert hasattr(run_help, option.field), option.name
        assert config.getoption(f"csi_{option.field}") is None, option.name


def test_values_are_read_exactly(tmp_path: Path) -> None:
    options = _cli(INPUTS[0], tmp_path)
    assert (options.target, options.profile, options.seed, options.only, options.skip) == (
        "https://indexer.example/rpc", "strict", 7, ("health", "crypto"), ("crypto.groth16-proof",))
    assert (options.timeout, options.rate, options.max_requests, options.fail_on, options.shard) == (
        2.5, 20.0, 500, Status.WARN, Shard(2, 3))
    ledger = _cli(INPUTS[2], tmp_path).ledger
    assert ledger == LedgerSource.rpc("https://rpc.example/?api-key=secret", "10..20")
    assert "secret" not in str(ledger) and "secret" not in ledger.describe()
    kept = _cli(INPUTS[3], tmp_path).ledger
    assert (kept.cache, kept.cached, kept.wait) == (Path("blocks"), True, 5.0)
    fresh = _cli(INPUTS[4], tmp_path).ledger
    assert (fresh.kind, fresh.cache, fresh.cached) == ("rpc", None, False)


def test_the_ledger_cache_options_live_in_a_config_file_too(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "csi.toml").write_text('[run]\nledger-rpc = "https://rpc.example/"\nslots = "1..2"\n'
                                       'no-ledger-cache = true\nledger-wait = 30\n')
    ledger = RunOptions.from_inputs({}, env={}, cwd=tmp_path).ledger
    assert (ledger.cached, ledger.wait) == (False, 30.0)
    assert RunOptions.from_inputs({"no-ledger-cache": False}, env={}, cwd=tmp_path).ledger.cached


@pytest.mark.parametrize(("argv", "named"), [
    (["--max-requests", "0"], "--max-requests"), (["--max-requests", "-3"], "--max-requests"),
    (["--max-requests", "many"], "--max-requests"), (["--timeout", "0"], "--timeout"),
    (["--timeout", "inf"], "--timeout"), (["--seed", "-1"], "--seed"), (["--rate", "0/s"], "--rate"),
    (["--fail-on", "never"], "--fail-on"), (["--profile", "loose"], "--profile"), (["--shard", "3/2"], "--shard"),
    (["--target", "indexer.example"], "--target"), (["--keys", "no-such.yaml"], "--keys"),
    (["--slots", "5..1", "--ledger-rpc", "https://rpc.example/"], "--slots"),
    (["--ledger-rpc", "https://rpc.example/"], "--ledger-rpc and --slots go together"),
    (["--ledger-wait", "0"], "--ledger-wait"),
    (["--ledger-cache", "d", "--no-ledger-cache"], "--ledger-cache names where blocks are kept"),
])
def test_a_value_that_cannot_work_is_one_usage_error_naming_its_option(argv: list[str], named: str,
                                                                        tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        _cli(argv, tmp_path)
    assert str(caught.value).startswith(named) and "\n" not in str(caught.value)


def test_a_config_file_fills_what_was_not_given(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "csi.toml").write_text('[run]\ntarget = "https://from-file.example"\nprofile = "lenient"\n'
                                       'only = ["health"]\nmax-requests = 200\ntimeout = 3\n')
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    options = RunOptions.from_inputs({"profile": "strict"}, env={}, cwd=inner)
    assert (options.target, options.profile, options.only, options.max_requests, options.timeout) == (
        "https://from-file.example", "strict", ("health",), 200, 3.0)  # given beats the file
    assert options.config == tmp_path / "csi.toml"
    assert find_config(tmp_path.parent) is None or find_config(tmp_path.parent) != tmp_path / "csi.toml"


@pytest.mark.parametrize(("text", "says"), [
    ('[run]\ntargett = "x"\n', "targett"), ('[runs]\ntarget = "x"\n', "runs"),
    ('[run]\nmax-requests = 0\n', "--max-requests"), ('[run]\nonly = [1, {}]\n', "only"),
    ('[run]\napi-key = "k"\n', "keep the API key out of files"), ("[run\n", "TOML"),
])
def test_a_config_file_that_cannot_work_says_where(text: str, says: str, tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "csi.toml").write_text(text)
    with pytest.raises((ConfigError, UsageError)) as caught:
        RunOptions.from_inputs({}, env={}, cwd=tmp_path)
    assert says in str(caught.value)


def test_the_key_comes_from_the_environment_unless_given(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    assert RunOptions.from_inputs({}, env={"CSI_API_KEY": "from-env"}, cwd=tmp_path).api_key == "from-env"
    assert RunOptions.from_inputs({"api-key": "given"}, env={"CSI_API_KEY": "e"}, cwd=tmp_path).api_key == "given"


def test_the_config_schema_names_every_option_but_config() -> None:
    assert set(config_schema()["properties"]["run"]["properties"]) == {o.name for o in OPTIONS} - {"config"}


def test_each_option_has_one_default_the_table_s() -> None:
    """What the options, the engine and the checks' facts fall back on is the table's default, and its help says
    it: `--concurrency` once had 8 in the table and 1 in the engine."""
    import dataclasses
    import re

    from csi_conformance.harness.context import RunFacts
    from csi_conformance.harness.core.profile import PROFILES
    from csi_conformance.harness.engine.runner import RunConfig

    defaults = {option.field: option.default for option in OPTIONS if option.default is not None}
    plain = RunOptions()
    assert {name: getattr(plain, name) for name in defaults} == defaults
    assert RunConfig().concurrency == defaults["concurrency"]
    assert RunFacts(profile=PROFILES[defaults["profile"]]).seed == defaults["seed"]
    unset = [field.name for field in dataclasses.fields(RunOptions)
             if field.name not in defaults and field.default not in (None, ())]
    assert unset == [], "a default belongs in the options table"
    for option in OPTIONS:
        said = re.search(r"\(default (\S+?)[,);]", option.help)
        if option.default is not None and said and not option.flag:
            shown = option.default.value.lower() if isinstance(option.default, Status) else option.default
            assert said.group(1) in (str(shown), f"{shown:g}" if isinstance(shown, float) else str(shown)), option.name
