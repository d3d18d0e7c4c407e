# config.txt lines for pitable, sourced by systemd/install.sh (and run alone by the tests):
#   boot_lines /boot/firmware/config.txt
# A block of its own at the end, rewritten on every run (so running it again changes
# nothing): core_freq=250 under [pi3] and [pi02], whose I2C clock is divided from the
# core clock (which the firmware lowers when idle), core_freq_min=500 under [pi4] (its VPU
# clock scales with the load too; 500 MHz is its normal clock, the usual advice for its SPI
# and UART; its SCL is not yet measured), then [all] and the I2C baud rate, so
# that the rate holds on every board whatever section the file ended in. A bare
# baud-rate line an older install appended is taken out; a rate of the user's own is kept.
boot_lines() {
    file=$1
    begin="# >>> pitable: I2C at 400 kHz on a steady core clock (systemd/install.sh)"
    end="# <<< pitable"
    tmp="$file.pitable.$$"
    # drop our old block and our old bare line; keep everything else as it is
    awk -v b="$begin" -v e="$end" '
        $0 == b {skip = 1; next}
        skip && $0 == e {skip = 0; next}
        skip {next}
        $0 == "dtparam=i2c_arm_baudrate=400000" {next}
        {print}
    ' "$file" > "$tmp"
    rate=400000
    own=$(grep -E "^[[:space:]]*dtparam=([^#]*,)?i2c_arm_baudrate=" "$tmp" | tail -n 1 \
          | sed -E 's/.*i2c_arm_baudrate=([0-9]+).*/\1/')
    [ -n "$own" ] && rate=$own
    # the file may end without a newline
    [ -s "$tmp" ] && [ "$(tail -c 1 "$tmp" | od -An -c | tr -d ' ')" != '\n' ] && echo >> "$tmp"
    {
        echo "$begin"
        echo "[pi3]"
        echo "core_freq=250"
        echo "[pi02]"
        echo "core_freq=250"
        echo "[pi4]"
        echo "core_freq_min=500"
        echo "[all]"
        echo "dtparam=i2c_arm_baudrate=$rate"
        echo "$end"
    } >> "$tmp"
    cat "$tmp" > "$file"
    rm -f "$tmp"
}
