# Samsung PM1733 3.84 TB U.2 - enterprise NVMe PCIe 4.0 x4, V-NAND TLC, no SLC cache, power-loss protection.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
# Built from Samsung's announced ratings only (docs/sources.md#pm1733), before the
# pm1733-md-raid0-fio validation set was run: nothing here was set from that set.
name = samsung-pm1733-3.84tb
aliases = pm1733 samsung-pm1733
description = Samsung PM1733 3.84 TB U.2: enterprise NVMe PCIe 4.0 x4, V-NAND TLC (64 dies), direct TLC writes, 1 DWPD
source = docs/sources.md sections pm1733, interfaces, nand-timing, idema (Samsung, via Hardwareluxx: U.2 up to 6.4 GB/s reads and 3.8 GB/s writes, 1450k/260k IOPS, 1 DWPD)

iface = nvme             # [src]
pcie_gen = 4             # [src]
pcie_lanes = 4           # [src]; 7.0 GB/s practical [calc]
queues = 64              # [est]
queue_depth = 1024       # [est]
ctrl_read_bw = 6400MB/s  # rated read of the U.2 [src]
cmd_time = 0.69us        # 1450k IOPS random read [calc]
cmd_write_time = 3.85us  # 260k IOPS random write [calc]
latency = 8us            # [est], as the PM9A3's

cell = tlc               # [est]: the ratings read give no NAND type
channels = 8             # [est]
dies = 8                 # 64 dies of 512 Gbit [calc: 3.84 TB over 64 GiB dies, est die size]
planes = 4               # [est]
page = 16k               # [est]
pages = 1024             # [est]
blocks = 1024            # raw 4 TiB [calc]
channel_rate = 1200MB/s  # [est]
t_read = 60us            # [est], as the PM9A3's
t_prog = 1100us          # 64 x 64 KiB / 1.1 ms = 3.8 GB/s, the rated write [calc]
t_erase = 5ms            # [est]
t_read_slc = 60us        # no SLC mode in use [est]
t_prog_slc = 1100us      # [est]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 3840755982336 # 3.84 TB [src: one of the U.2 capacities]; spare 14.5 % of 4 TiB raw [calc]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 32m       # capacitor-backed DRAM [est]
trim = on                # [est]
idle = 1ms               # [est]
slc = off                # data-centre drives write TLC directly [est]

rated_read = 6400MB/s    # [src]
rated_write = 3800MB/s   # [src]
rated_read_iops = 1450000 # [src]
rated_write_iops = 260000 # [src]
