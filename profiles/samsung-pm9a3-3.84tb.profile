# Samsung PM9A3 3.84 TB U.2 - enterprise NVMe PCIe 4.0 x4, 128-layer V-NAND TLC, no SLC cache, power-loss protection.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = samsung-pm9a3-3.84tb
aliases = pm9a3 samsung-pm9a3
description = Samsung PM9A3 3.84 TB U.2: enterprise NVMe PCIe 4.0 x4, 128L V-NAND TLC (64 dies), direct TLC writes, 1.3 DWPD
source = docs/sources.md sections pm9a3, interfaces, nand-timing, idema (Samsung: U.2 up to 6.5 GB/s and 900k IOPS reads, 3.5 GB/s and 200k IOPS writes, 1.3 DWPD)

iface = nvme             # [src]
pcie_gen = 4             # [src]
pcie_lanes = 4           # [src]; 7.0 GB/s practical [calc]
queues = 64              # [est]
queue_depth = 1024       # [est]
ctrl_read_bw = 6500MB/s  # rated read [src]
cmd_time = 1.1us         # 900k IOPS random read [calc]
cmd_write_time = 5us     # 200k IOPS random write (steady state of a data-centre rating) [calc]
latency = 8us            # [est]

cell = tlc               # [src]
channels = 8             # [est]
dies = 8                 # 64 dies of 512 Gbit [calc: 3.84 TB over 64 GiB dies]
planes = 4               # [est]
page = 16k               # [est]
pages = 1024             # [est]
blocks = 1024            # raw 4 TiB [calc]
channel_rate = 1200MB/s  # [est]
t_read = 60us            # [est]
t_prog = 1200us          # 64 x 64 KiB / 1.2 ms = 3.5 GB/s, the rated write [calc]
t_erase = 5ms            # [est]
t_read_slc = 60us        # no SLC mode in use [est]
t_prog_slc = 1200us      # [est]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 3840755982336 # 3.84 TB [src]; spare 14.5 % of 4 TiB raw [calc]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 32m       # capacitor-backed DRAM [est]
trim = on                # [src]
idle = 1ms               # [est]
slc = off                # data-centre drives write TLC directly [est]

rated_read = 6500MB/s    # [src]
rated_write = 3500MB/s   # [src]
rated_read_iops = 900000 # [src]
rated_write_iops = 200000 # [src]
