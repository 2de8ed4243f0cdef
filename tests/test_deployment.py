"""The instance variants under pipelines/deploy/: every YAML parses, Dagster's instance schema
accepts them, and the PostgreSQL one records a real run in a real PostgreSQL server that the
test starts itself (skipped without PostgreSQL or dagster-postgres, except under CI)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[1] / "pipelines" / "deploy"
VARIANTS = ("postgres", "k8s")
#: postgres_db field -> the environment variable it reads
PG_FIELDS = {"hostname": "NYAYA_PG_HOST", "port": "NYAYA_PG_PORT", "username": "NYAYA_PG_USER",
             "password": "NYAYA_PG_PASSWORD", "db_name": "NYAYA_PG_DB"}
POOLS = ("embedding", "qdrant_writes")


def _env_refs(node: Any) -> set[str]:
    """Every `{env: NAME}` in a parsed YAML document."""
    if isinstance(node, dict):
        if set(node) == {"env"}:
            return {node["env"]}
        return set().union(*(_env_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_env_refs(value) for value in node))
    return set()


def test_every_deploy_yaml_parses() -> None:
    files = sorted([*DEPLOY.rglob("*.yaml"), *DEPLOY.rglob("*.yml")])
    assert {path.parent.name for path in files} >= set(VARIANTS), files
    for path in files:
        document = yaml.safe_load(path.read_text())
        assert isinstance(document, dict) and document, f"{path}: empty or not a mapping"


@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_passes_the_instance_schema(variant: str) -> None:
    from dagster._core.instance.config import dagster_instance_config
    from dagster._core.instance.ref import InstanceRef

    config, custom_class = dagster_instance_config(str(DEPLOY / variant))
    assert custom_class is None
    assert config["telemetry"] == {"enabled": False}
    assert config["storage"]["postgres"]["postgres_db"] == {
        **{field: {"env": name} for field, name in PG_FIELDS.items()},
        "scheme": "postgresql+psycopg2"}
    assert config["concurrency"]["pools"]["default_limit"] == 1
    assert config["concurrency"]["runs"]["max_concurrent_runs"] > 0
    ref = InstanceRef.from_dir(str(DEPLOY / variant))
    assert ref.storage_data.module_name == "dagster_postgres"
    assert ref.storage_data.class_name == "DagsterPostgresStorage"
    assert ref.run_coordinator_data.class_name == "QueuedRunCoordinator"


def test_the_schema_check_rejects_a_broken_variant(tmp_path: Path) -> None:
    """The check above is not vacuous: a misspelt storage or concurrency field fails it."""
    from dagster._core.errors import DagsterInvalidConfigError
    from dagster._core.instance.config import dagster_instance_config

    good = yaml.safe_load((DEPLOY / "postgres" / "dagster.yaml").read_text())
    for section, field in (("storage", "postgres"), ("concurrency", "pools")):
        broken = json.loads(json.dumps(good))
        broken[section][field]["misspelt_field"] = 1
        (tmp_path / "dagster.yaml").write_text(yaml.safe_dump(broken))
        with pytest.raises(DagsterInvalidConfigError):
            dagster_instance_config(str(tmp_path))


def test_readme_documents_every_variable_and_pool() -> None:
    readme = (DEPLOY / "README.md").read_text()
    names = set().union(*(_env_refs(yaml.safe_load(path.read_text()))
                          for path in DEPLOY.rglob("*.yaml")))
    assert names >= set(PG_FIELDS.values())
    missing = sorted(name for name in names | set(POOLS) | {"NYAYA_QDRANT_URL", "DAGSTER_HOME"}
                     if f"`{name}`" not in readme)
    assert not missing, f"pipelines/deploy/README.md does not mention {missing}"


# --- a real PostgreSQL server ----------------------------------------------------------------

def _missing(what: str) -> NoReturn:
    """Skip without the PostgreSQL pieces, but fail under CI (CI installs them)."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must have {what}")
    pytest.skip(f"{what} is not installed")


def _postgres_bin() -> Path | None:
    """The folder with initdb and pg_ctl: on PATH, else Debian's newest /usr/lib/postgresql."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = [path.parent for path in Path("/usr/lib/postgresql").glob("*/bin/initdb")]
    versions.sort(key=lambda folder: int(folder.parent.name) if folder.parent.name.isdigit() else 0)
    return versions[-1] if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def postgres_server() -> Iterator[dict[str, str]]:
    """A throwaway PostgreSQL cluster on a free local port with one empty database; yields
    the NYAYA_PG_* variables. PostgreSQL refuses to run as root, so under root the server
    runs as the `postgres` system user."""
    try:
        import psycopg2
    except ImportError:
        _missing("dagster-postgres (and its psycopg2)")
    bin_dir = _postgres_bin()
    if bin_dir is None or not (bin_dir / "pg_ctl").exists():
        _missing("PostgreSQL (initdb, pg_ctl: apt-get install postgresql)")
    as_user: list[str] = []
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            _missing("runuser (util-linux), to run PostgreSQL as a non-root user")
        if subprocess.run(["id", "-u", "postgres"], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
        as_user = [runuser, "-u", "postgres", "--"]

    root = Path(tempfile.mkdtemp(prefix="nyaya-pg-"))
    data, sockets, log = root / "data", root / "sockets", root / "server.log"
    sockets.mkdir()
    password, port = "nyaya-test-password", _free_port()
    (root / "password").write_text(password + "\n")
    if as_user:
        shutil.chown(root, "postgres")
        for path in (sockets, root / "password"):
            shutil.chown(path, "postgres")

    def run(*args: str | Path) -> None:
        done = subprocess.run([*as_user, *map(str, args)], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, (f"{args[0]} failed:\n{done.stdout}{done.stderr}"
                                      + (log.read_text()[-3000:] if log.exists() else ""))

    started = False
    try:
        run(bin_dir / "initdb", "-D", data, "-U", "nyaya", f"--pwfile={root / 'password'}",
            "-A", "scram-sha-256", "-E", "UTF8", "--no-locale", "--no-sync")
        run(bin_dir / "pg_ctl", "-D", data, "-l", log, "-w", "-t", "30", "-o",
            f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off", "start")
        started = True
        admin = psycopg2.connect(host="127.0.0.1", port=port, user="nyaya", password=password,
                                 dbname="postgres")
        admin.autocommit = True
        with admin.cursor() as cursor:
            cursor.execute("CREATE DATABASE nyaya_dagster")
        admin.close()
        yield {"NYAYA_PG_HOST": "127.0.0.1", "NYAYA_PG_PORT": str(port),
               "NYAYA_PG_USER": "nyaya", "NYAYA_PG_PASSWORD": password,
               "NYAYA_PG_DB": "nyaya_dagster"}
    finally:
        if started:
            run(bin_dir / "pg_ctl", "-D", data, "-m", "fast", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)


#: run in a second process: what it sees of the instance the test wrote
_READER = """
import json, dagster as dg
with dg.DagsterInstance.get() as instance:
    event = instance.get_latest_materialization_event(dg.AssetKey("statute_vectors"))
    print(json.dumps({"runs": [run.run_id for run in instance.get_runs()],
                      "statute_vectors": event.run_id if event else None}))
"""


def test_postgres_variant_records_a_run(postgres_server: dict[str, str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import dagster as dg
    import psycopg2
    from dagster._core.storage.dagster_run import DagsterRunStatus

    home = tmp_path / "dagster_home"
    shutil.copytree(DEPLOY / "postgres", home)
    for name, value in {**postgres_server, "DAGSTER_HOME": str(home),
                        "NYAYA_DAGSTER_STORAGE": str(tmp_path / "storage")}.items():
        monkeypatch.setenv(name, value)

    @dg.asset
    def statute_count() -> int:
        return 3

    @dg.asset(pool="embedding")
    def statute_vectors(statute_count: int) -> list[float]:
        return [0.5] * statute_count

    with dg.DagsterInstance.get() as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        assert type(instance.event_log_storage).__name__ == "PostgresEventLogStorage"
        concurrency = instance.get_concurrency_config()
        assert concurrency.pool_config.default_pool_limit == 1
        assert concurrency.run_queue_config.max_concurrent_runs == 4
        assert {limit["key"] for limit in concurrency.run_queue_config.tag_concurrency_limits} \
            >= {"dagster/backfill"}

        result = dg.materialize([statute_count, statute_vectors], instance=instance)
        assert result.success
        runs = instance.get_runs()
        assert [run.run_id for run in runs] == [result.run_id]
        assert runs[0].status == DagsterRunStatus.SUCCESS
        for key in ("statute_count", "statute_vectors"):
            event = instance.get_latest_materialization_event(dg.AssetKey(key))
            assert event is not None and event.run_id == result.run_id, key
        # the step in pool `embedding` set up the pool with the default limit, in PostgreSQL
        assert "embedding" in instance.event_log_storage.get_concurrency_keys()
        pool = instance.event_log_storage.get_concurrency_info("embedding")
        assert (pool.slot_count, pool.active_slot_count) == (1, 0)

    # another process with the same DAGSTER_HOME sees the same run: the point of the variant
    reader = subprocess.run([sys.executable, "-c", _READER], capture_output=True, text=True,
                            timeout=60, env=dict(os.environ))
    assert reader.returncode == 0, reader.stderr[-3000:]
    assert json.loads(reader.stdout.strip().splitlines()[-1]) == {
        "runs": [result.run_id], "statute_vectors": result.run_id}

    # and it is really in the server's tables, not in a sqlite file somewhere
    connection = psycopg2.connect(host=postgres_server["NYAYA_PG_HOST"],
                                  port=int(postgres_server["NYAYA_PG_PORT"]),
                                  user=postgres_server["NYAYA_PG_USER"],
                                  password=postgres_server["NYAYA_PG_PASSWORD"],
                                  dbname=postgres_server["NYAYA_PG_DB"])
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT run_id, status FROM runs")
            assert cursor.fetchall() == [(result.run_id, "SUCCESS")]
            cursor.execute("SELECT count(*) FROM event_logs WHERE run_id = %s "
                           "AND dagster_event_type = 'ASSET_MATERIALIZATION'", (result.run_id,))
            assert cursor.fetchone() == (2,)
    finally:
        connection.close()
    assert not list((tmp_path / "storage").rglob("*.db")), "a sqlite file was written"
