from pitable.hardware.busmeter import CountingSerial


def test_counts_and_records():
    s = CountingSerial()
    s.command(0x21, 0, 127)
    s.data([1, 2, 3, 4])
    s.data(bytearray(b"\x05"))
    assert (s.commands, s.command_bytes, s.data_calls, s.data_bytes) == (1, 3, 2, 5)
    assert s.bytes == 8 and s.transactions == 3
    assert s.log == [("command", b"\x21\x00\x7f"), ("data", b"\1\2\3\4"), ("data", b"\5")]
    s.reset()
    assert s.bytes == 0 and s.log == []


def test_forwards_to_inner_without_recording():
    inner = CountingSerial()
    s = CountingSerial(inner, record=False)
    s.command(1, 2, 3)
    s.data([4, 5])
    s.cleanup()
    assert s.bytes == 5 and s.log == []
    assert inner.log == [("command", b"\1\2\3"), ("data", b"\4\5")]
