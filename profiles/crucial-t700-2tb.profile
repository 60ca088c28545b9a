# Crucial T700 2 TB - NVMe PCIe 5.0 x4, Phison E26, Micron 232-layer TLC at 2000 MT/s.
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = crucial-t700-2tb
aliases = t700 crucial-t700
description = Crucial T700 2 TB: NVMe PCIe 5.0 x4, Phison E26 8 ch, Micron 232L TLC (16 x 1 Tbit) at 2000 MT/s, 4 GB LPDDR4, dynamic SLC
source = docs/sources.md sections t700, interfaces, nand-timing, slc-cache, idema (Crucial rating 12400/11800 MB/s, 1.5M/1.5M IOPS; ~3 GB/s once the SLC cache is full)

iface = nvme             # [src]
pcie_gen = 5             # [src]; link 3.94 GB/s x 4 x 0.89 = 14.0 GB/s [calc]
pcie_lanes = 4           # [src]
queues = 32              # [est]
queue_depth = 1024       # [est]
ctrl_read_bw = 12400MB/s # the E26's read data path at its rating (the link carries more) [src rating]
cmd_time = 0.67us        # 1.5M IOPS rated [calc]
cmd_write_time = 0.67us  # 1.5M IOPS rated [calc]
latency = 6us            # [est]

cell = tlc               # [src]
channels = 8             # [src E26: 8 channels]
dies = 2                 # 16 dies of 1 Tbit [calc: 2 TB / 128 GiB]
planes = 4               # the die has 6 planes; the model needs a power of two [est]
page = 16k               # [src]
pages = 2048             # [est]
blocks = 1024            # raw 2 TiB [calc]
channel_rate = 2000MB/s  # 2000 MT/s NAND interface [src]
t_read = 40us            # [est]
t_prog = 350us           # 16 x 64 KiB / 350 us = 3.0 GB/s after the cache [src: ~3 GB/s after the cache (preview); calc]
t_erase = 5ms            # [est]
t_read_slc = 25us        # [est]
t_prog_slc = 89us        # the rated 11800 MB/s: 16 x 64 KiB / 11.8 GB/s [calc]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 2000398934016 # 2 TB (IDEMA) [src]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 16m       # [est]
trim = on                # [src]
idle = 1ms               # [est]
slc = dynamic            # [src]
slc_size = 60GB          # "after a few dozen GB" the rate drops (preview) [est]

rated_read = 12400MB/s   # [src]
rated_write = 11800MB/s  # [src]
rated_read_iops = 1500000 # [src]
rated_write_iops = 1500000 # [src]
