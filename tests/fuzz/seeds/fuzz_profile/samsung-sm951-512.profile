# Samsung SM951 512 GB - PCIe 3.0 x4, 16 nm planar MLC, no SLC cache.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
# The ratings below are the launch figures of the first SM951, an AHCI drive; iface=ahci models
# it (one queue of 32).  The later SM951-NVMe was rated 300k/100k IOPS: this profile does not
# model that variant's command path.
name = samsung-sm951-512
aliases = sm951 samsung-sm951
description = Samsung SM951 512 GB: PCIe 3.0 x4 (iface=ahci: the AHCI drive the ratings are for), UBX controller 8 ch, 16 nm MLC
source = Samsung SM951 product brief: 2150/1550 MB/s, up to 130k/85k IOPS (512 GB, AHCI; 6donline launch report)
source = custompcreview SM951-NVMe review: the NVMe variant rated 2150/1550 MB/s, 300k/100k IOPS
source = techgage, 6donline, AnandTech 8979, Tom's Hardware SM951 reviews: PCIe 3.0 x4, limited to 1600/1350 MB/s on PCIe 2.0 x4, DRAM caches the page table
source = AnandTech "Understanding TLC NAND": MLC read 50 us, erase 2-3 ms
source = docs/sources.md sections sm951, interfaces, nand-timing, dram, idema

iface = nvme             # the rated drive is AHCI: iface=ahci [est]
pcie_gen = 3             # [src]
pcie_lanes = 4           # [src]
queues = 8               # [est]
queue_depth = 256        # [est]
cmd_time = 7.5us         # fitted to 130k read IOPS [calc]
cmd_write_time = 11.5us  # fitted to 85k write IOPS [calc]
latency = 8us            # [est]
ctrl_read_bw = 2150MB/s  # UBX data path, fitted to the rated read [calc]

cell = mlc               # [src]
channels = 8             # [src]
dies = 4                 # 32 x 128 Gbit dies [est]
planes = 2               # [est]
page = 16k               # [est]
pages = 256              # [est]
blocks = 2048            # raw 512 GiB [calc]
channel_rate = 400MB/s   # Toggle DDR 2.0 [est]
t_read = 50us            # [src AnandTech MLC]
t_prog = 680us           # fitted to 1550 MB/s: 32 x 32 KiB / 1.55 GB/s [calc]
t_erase = 3ms            # [src]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 512110190592  # 512 GB (IDEMA) [src]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 8m        # [est]
trim = on                # [est]
idle = 1ms               # [est]
slc = off                # [est]

rated_read = 2150MB/s    # [src]
rated_write = 1550MB/s   # [src]
rated_read_iops = 130000 # [src]
rated_write_iops = 85000 # [src]
