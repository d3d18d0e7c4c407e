"""web: in the config: off when absent, checked with file, key and what is wrong."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pitable.config import WebConfig, parse_config
from pitable.errors import ConfigError


def test_web_is_off_unless_the_config_has_a_web_section():
    assert parse_config({}, "f.yaml").web is None
    assert parse_config({"web": None}, "f.yaml").web == WebConfig()
    assert parse_config({"web": {"port": 9000, "bind": "127.0.0.1"}}, "f.yaml").web == WebConfig(9000, "127.0.0.1")


@pytest.mark.parametrize("web, said", [
    ({"port": 0}, "f.yaml: web.port: must be between 1 and 65535, got 0"),
    ({"port": "80"}, "f.yaml: web.port:"),
    ({"bind": "everywhere"}, "f.yaml: web.bind: expected an IP address"),
    ({"host": "a b"}, "f.yaml: web.host: expected a host name"),
    ({"prot": 8080}, "f.yaml: web.prot: unknown key (did you mean port?)"),
    ([8080], "f.yaml: web: expected a mapping"),
])
def test_a_bad_web_section_names_the_file_the_key_and_what_is_wrong(web, said):
    with pytest.raises(ConfigError) as e:
        parse_config({"web": web}, "f.yaml")
    assert str(e.value).startswith(said)


def test_start_up_without_web_imports_nothing_of_it(tmp_path):
    code = ("import sys; from pitable.cli import main; "
            "main(['run', '--display', 'dummy', '--exit-after-first-frame', "
            f"'--config', {str(tmp_path / 'c.yaml')!r}]); "
            "print(sorted(m for m in sys.modules if m.startswith(('pitable.web', 'segno', 'asyncio'))))")
    (tmp_path / "c.yaml").write_text(f"log_dir: {tmp_path}\npads:\n  wiring: keyboard\ndisplay:\n  display: dummy\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stderr


def test_a_taken_port_is_a_config_error_naming_web_port(tmp_path):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    port = s.getsockname()[1]
    (tmp_path / "c.yaml").write_text(f"log_dir: {tmp_path}\npads:\n  wiring: keyboard\ndisplay:\n  display: dummy\n"
                                     f"web:\n  port: {port}\n  bind: 127.0.0.1\n")
    out = subprocess.run([sys.executable, "-m", "pitable", "run", "--config", str(tmp_path / "c.yaml"),
                          "--exit-after-first-frame"], capture_output=True, text=True, timeout=60)
    s.close()
    assert out.returncode == 2
    assert "web.port: cannot listen on 127.0.0.1" in out.stderr and "Traceback" not in out.stderr


def test_doctor_says_the_address_to_open(tmp_path):
    from pitable.service.doctor import check_web

    off = check_web(parse_config({}, "f.yaml"))
    assert off.level == "ok" and "off" in off.detail
    on = check_web(parse_config({"web": {"port": 8123, "bind": "127.0.0.1"}}, "f.yaml"))
    assert "http://127.0.0.1:8123/" in on.detail and on.level in ("ok", "warn")
    named = check_web(parse_config({"web": {"host": "pitable.local", "port": 8123}}, "f.yaml"))
    assert "http://pitable.local:8123/" in named.detail
