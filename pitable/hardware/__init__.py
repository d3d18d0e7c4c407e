"""Hardware: pads, keys, displays. Knows nothing of the rules.

Modules (import what you need; nothing is imported here, so opening a terminal
display does not load gpiozero, and nothing loads luma.emulator/pygame unless asked):

* ``keys``: KeyEdge/KeyEvent, Debouncer, KeyTracker (pure logic)
* ``pads``: DirectPads, MatrixPads, SeatSignals (gpiozero)
* ``mockmatrix``: MockMatrix, MockDirectKeys (simulated pads for tests/benchmarks)
* ``keyboard``: KeyMap, KeyboardPads (terminal), PygameKeys (emulator window)
* ``display``: open_display, TerminalDisplay
* ``pagediff``: PagedSSD1306/PagedSSD1309/PagedSH1106 (send only changed pages)
* ``busmeter``: CountingSerial (counts what a display driver sends)
* ``header``: the 40-pin header's map and the pins that bite (pure data)
* ``wiring``: which pin does what for a config, and the parts (pure); ``wiring_text``
  and ``wiring_picture`` print and draw it (PNG with Pillow, SVG as text)
"""

import os as _os

# pygame prints a banner on import; luma.emulator, the window's keys and the display
# probe all import it through this package, so one line here keeps every start quiet.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
