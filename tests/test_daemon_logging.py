"""The daemon's log level: ``--log-level``, else ``PITABLE_LOG_LEVEL``, else info; a name it
does not know is a clear error (exit 2, no traceback), as a bad config is. Its loggers are
named after their modules."""

from __future__ import annotations

import logging

import pytest

from pitable.cli import main
from pitable.daemon import log_level
from pitable.errors import ConfigError


def test_the_flag_wins_over_the_environment_and_info_is_the_default(monkeypatch):
    monkeypatch.delenv("PITABLE_LOG_LEVEL", raising=False)
    assert log_level(None) == logging.INFO
    monkeypatch.setenv("PITABLE_LOG_LEVEL", "debug")
    assert log_level(None) == logging.DEBUG
    assert log_level("WARNING") == logging.WARNING


def test_an_unknown_level_names_where_it_came_from(monkeypatch):
    monkeypatch.setenv("PITABLE_LOG_LEVEL", "chatty")
    with pytest.raises(ConfigError, match="PITABLE_LOG_LEVEL: unknown log level 'chatty'"):
        log_level(None)


def test_pitable_run_with_an_unknown_level_exits_2_without_a_traceback(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    assert main(["run", "--log-level", "loud", "--display", "terminal"]) == 2
    err = capsys.readouterr().err
    assert "--log-level: unknown log level 'loud' (choose debug, info, warning, error)" in err
    assert "Traceback" not in err


def test_the_daemon_and_the_host_log_under_their_module_names():
    from pitable import daemon, host

    assert daemon.log.name == "pitable.daemon"
    assert host.log.name == "pitable.host"
