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
    # Spark Connect beyond loopback without --token-file
    ["--connect", "--host", "0.0.0.0"],
    ["--connect", "--host", "::"],
    ["--connect", "--conf", "spark.connect.grpc.binding.address=0.0.0.0"],
])
def test_cli_refuses_without_starting_spark(args):
    result = subprocess.run([*SPARKCEP, "serve", *args], capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("[INSECURE_BIND] "), result.stderr
    assert "Traceback" not in result.stderr


# Spark Connect (issue 25): the same rule, and no --conf opens a Connect listener in either mode
CONNECT_OVERRIDES = [
    "spark.connect.grpc.binding.address=0.0.0.0",
    "spark.connect.grpc.binding.port=15003",
    "spark.connect.authenticate.token=",
    "spark.plugins=org.apache.spark.sql.connect.SparkConnectPlugin",
    "spark.remote=local",
    "spark.api.mode=connect",
]


@pytest.mark.parametrize("setting", CONNECT_OVERRIDES)
@pytest.mark.parametrize("connect", [False, True])
def test_conf_cannot_open_a_connect_listener(setting, connect):
    from sparkcep.clients.connect_server import check_connect_options

    key, _, value = setting.partition("=")
    check = check_connect_options if connect else check_options
    with pytest.raises(ServerError) as caught:
        check(ServerOptions(conf={key: value}, connect=connect))
    assert caught.value.code == "INSECURE_BIND"


def test_other_plugins_pass_the_listener_check():
    assert listener_setting("spark.plugins", "com.example.MetricsPlugin") is None


def test_connect_beyond_loopback_with_a_token_passes_the_check(tmp_path):
    from sparkcep.clients.connect_server import check_connect_options, connect_settings

    token = tmp_path / "token"
    token.write_text("# Spark Connect token\nq8W3p0s2Lr7xYc1mZt5v\n")
    from clients_support import free_port

    options = ServerOptions(host="0.0.0.0", port=free_port(), connect=True, token_file=str(token))
    check_connect_options(options)
    settings = connect_settings(options)
    assert settings["spark.connect.authenticate.token"] == "q8W3p0s2Lr7xYc1mZt5v"
    assert settings["spark.connect.grpc.binding.address"] == "0.0.0.0"
    # the run-time error interceptor is sparkcep's; Spark adds the token's own interceptor apart
    assert settings["spark.connect.grpc.interceptor.classes"] == "sparkcep.jvm.ConnectErrorInterceptor"


@pytest.mark.parametrize("text", ["", "# only a comment\n", "short\n", "has a blank inside it\n"])
def test_a_weak_or_empty_token_file_is_refused(tmp_path, text):
    from sparkcep.clients.connect_server import check_connect_options

    token = tmp_path / "token"
    token.write_text(text)
    with pytest.raises(ServerError) as caught:
        check_connect_options(ServerOptions(connect=True, token_file=str(token)))
    assert caught.value.code == "BAD_TOKEN_FILE"
