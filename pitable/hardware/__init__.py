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
"""

import os as _os

# pygame prints a banner on import; luma.emulator, the window's keys and the display
# probe all import it through this package, so one line here keeps every start quiet.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
