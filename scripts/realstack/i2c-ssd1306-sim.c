// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An I2C bus with one SSD1306/SH1106 OLED on it, for pitable's real-stack test.
 *
 * QEMU's x86 machines have no I2C adapter that does plain I2C transfers (I2C_RDWR),
 * which luma.oled needs. This module registers bus 1 (/dev/i2c-1 with i2c-dev) whose
 * only device answers at 0x3C, takes the controller's commands (addressing modes,
 * column and page ranges, page-mode addresses) and keeps its display RAM: 8 pages of
 * 132 columns, readable as the sysfs file "gddram" of the adapter (8 x 132 bytes,
 * page by page; an SSD1306's 128 columns are the first 128 of each page).
 * "commands" counts the command bytes taken, "data" the data bytes.
 */
#include <linux/i2c.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sysfs.h>

#define OLED_ADDR	0x3c
#define PAGES		8
#define COLS		132

static struct {
	struct mutex lock;
	u8 ram[PAGES][COLS];
	u8 mode;		/* 0 horizontal, 1 vertical, 2 page (the reset value) */
	u8 col, col_start, col_end, page, page_start, page_end;
	u8 cmd[8];		/* a command and its arguments, as they come */
	u8 have, need;
	unsigned long commands, data;
} oled;

static int args_of(u8 c)
{
	switch (c) {
	case 0x20: case 0x81: case 0x8d: case 0xa8: case 0xd3: case 0xd5:
	case 0xd9: case 0xda: case 0xdb: case 0xad:
		return 1;
	case 0x21: case 0x22: case 0xa3:
		return 2;
	case 0x29: case 0x2a:
		return 5;
	case 0x26: case 0x27:
		return 6;
	default:
		return 0;
	}
}

static void run_command(void)
{
	u8 c = oled.cmd[0];

	switch (c) {
	case 0x20:
		oled.mode = oled.cmd[1] & 3;
		break;
	case 0x21:
		oled.col_start = oled.col = min_t(u8, oled.cmd[1], COLS - 1);
		oled.col_end = min_t(u8, oled.cmd[2], COLS - 1);
		break;
	case 0x22:
		oled.page_start = oled.page = oled.cmd[1] & 7;
		oled.page_end = oled.cmd[2] & 7;
		break;
	default:
		if (c <= 0x0f)
			oled.col = (oled.col & 0xf0) | c;
		else if (c <= 0x1f)
			oled.col = min_t(u8, ((c & 0x0f) << 4) | (oled.col & 0x0f), COLS - 1);
		else if (c >= 0xb0 && c <= 0xb7)
			oled.page = c & 7;
		break;
	}
}

static void take_command(u8 b)
{
	oled.commands++;
	if (oled.have == 0) {
		oled.cmd[0] = b;
		oled.need = args_of(b);
		oled.have = 1;
	} else {
		oled.cmd[oled.have++] = b;
	}
	if (oled.have > oled.need) {
		run_command();
		oled.have = 0;
	}
}

static void take_data(u8 b)
{
	oled.data++;
	oled.ram[oled.page][oled.col] = b;
	switch (oled.mode) {
	case 0:		/* horizontal: along the column range, then the next page */
		if (oled.col >= oled.col_end) {
			oled.col = oled.col_start;
			oled.page = oled.page >= oled.page_end ? oled.page_start : oled.page + 1;
		} else {
			oled.col++;
		}
		break;
	case 1:		/* vertical: down the page range, then the next column */
		if (oled.page >= oled.page_end) {
			oled.page = oled.page_start;
			oled.col = oled.col >= oled.col_end ? oled.col_start : oled.col + 1;
		} else {
			oled.page++;
		}
		break;
	default:	/* page mode: along the page, staying on it */
		if (oled.col < COLS - 1)
			oled.col++;
		break;
	}
}

static int oled_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	int i, j;

	mutex_lock(&oled.lock);
	for (i = 0; i < num; i++) {
		struct i2c_msg *m = &msgs[i];

		if (m->addr != OLED_ADDR) {
			mutex_unlock(&oled.lock);
			return -ENXIO;	/* nobody acknowledges */
		}
		if (m->flags & I2C_M_RD) {
			memset(m->buf, 0, m->len);	/* status: on, nothing busy */
			continue;
		}
		/* a control byte: 0x00 commands follow, 0x40 display data follow */
		for (j = 1; j < m->len; j++) {
			if (m->buf[0] & 0x40)
				take_data(m->buf[j]);
			else
				take_command(m->buf[j]);
		}
	}
	mutex_unlock(&oled.lock);
	return num;
}

static u32 oled_func(struct i2c_adapter *adap)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm oled_algo = {
	.master_xfer = oled_xfer,
	.functionality = oled_func,
};

static struct i2c_adapter oled_adapter = {
	.owner = THIS_MODULE,
	.class = I2C_CLASS_HWMON,
	.algo = &oled_algo,
	.name = "pitable ssd1306 sim",
	.nr = 1,
};

static ssize_t gddram_read(struct file *f, struct kobject *kobj, struct bin_attribute *a,
			   char *buf, loff_t off, size_t count)
{
	if (off >= sizeof(oled.ram))
		return 0;
	count = min_t(size_t, count, sizeof(oled.ram) - off);
	mutex_lock(&oled.lock);
	memcpy(buf, (u8 *)oled.ram + off, count);
	mutex_unlock(&oled.lock);
	return count;
}

static struct bin_attribute gddram_attr = {
	.attr = { .name = "gddram", .mode = 0444 },
	.size = sizeof(oled.ram),
	.read = gddram_read,
};

static ssize_t counts_show(struct device *dev, struct device_attribute *a, char *buf)
{
	return sysfs_emit(buf, "%lu %lu\n", oled.commands, oled.data);
}
static DEVICE_ATTR_RO(counts);

static int __init oled_init(void)
{
	int ret;

	mutex_init(&oled.lock);
	oled.mode = 2;
	oled.col_end = COLS - 1;
	oled.page_end = PAGES - 1;
	ret = i2c_add_numbered_adapter(&oled_adapter);
	if (ret)
		return ret;
	ret = device_create_bin_file(&oled_adapter.dev, &gddram_attr);
	if (!ret)
		ret = device_create_file(&oled_adapter.dev, &dev_attr_counts);
	if (ret)
		i2c_del_adapter(&oled_adapter);
	return ret;
}

static void __exit oled_exit(void)
{
	device_remove_file(&oled_adapter.dev, &dev_attr_counts);
	device_remove_bin_file(&oled_adapter.dev, &gddram_attr);
	i2c_del_adapter(&oled_adapter);
}

module_init(oled_init);
module_exit(oled_exit);
MODULE_DESCRIPTION("An I2C bus with a simulated SSD1306 at 0x3C (pitable's real-stack test)");
MODULE_LICENSE("GPL");
