"""``sparkcep serve`` never opens an unauthenticated listener on a non-loopback address, however
it is configured (issue 11, Security): ``--host``, ``--http`` and every ``--conf`` spelling of
HiveServer2's listener and authentication settings are refused without ``--password-file``,
before Spark starts."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sparkcep.clients.server import ServerError, ServerOptions, check_options, listener_setting

SPARKCEP = [sys.executable, "-m", "sparkcep"]

OVERRIDES = [
    "hive.server2.thrift.bind.host=0.0.0.0",
    "spark.hadoop.hive.server2.thrift.bind.host=0.0.0.0",
    "spark.hive.server2.thrift.bind.host=::",
    "HIVE.SERVER2.THRIFT.BIND.HOST=0.0.0.0",
    "hive.server2.transport.mode=http",
    "hive.server2.authentication=NONE",
    "hive.server2.thrift.http.port=10001",
    "hive.server2.custom.authentication.class=x.Y",
]


@pytest.mark.parametrize("setting", OVERRIDES)
def test_conf_cannot_move_or_open_the_listener(setting):
    key, _, value = setting.partition("=")
    with pytest.raises(ServerError) as caught:
        check_options(ServerOptions(conf={key: value}))
    assert caught.value.code == "INSECURE_BIND"
    assert key in caught.value.message


def test_unrelated_settings_pass_the_listener_check():
    assert listener_setting("spark.sql.shuffle.partitions") is None
    assert listener_setting("hive.server2.logging.operation.enabled") is None
    assert listener_setting("spark.hadoop.hive.server2.thrift.bind.host") == (
        "hive.server2.thrift.bind.host")


@pytest.mark.parametrize("args", [
    ["--host", "0.0.0.0"],
    ["--http"],
    ["--conf", "hive.server2.thrift.bind.host=0.0.0.0"],
    ["--conf", "spark.hadoop.hive.server2.transport.mode=http"],
])
def test_cli_refuses_without_starting_spark(args):
    result = subprocess.run([*SPARKCEP, "serve", *args], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("[INSECURE_BIND] "), result.stderr
    assert "Traceback" not in result.stderr
