# WD_BLACK SN850X 1 TB - NVMe PCIe 4.0 x4, WD G2 controller, BiCS5 112-layer TLC, nCache 4.0 (static + dynamic SLC).
# Format and keys: docs/simulator.md.  [src] cited, [calc] derived, [est] estimate.
name = wd-sn850x-1tb
aliases = sn850x wd-sn850x
description = WD_BLACK SN850X 1 TB: NVMe PCIe 4.0 x4, WD G2 controller 8 ch, Kioxia/WD BiCS5 112L TLC at 1600 MT/s, 1 GB DDR4, ~300 GB SLC cache
source = docs/sources.md sections sn850x, interfaces, nand-timing, slc-cache, idema (WD rating 7300/6300 MB/s, 800k/1100k IOPS; 288 GB dynamic + 12 GB static SLC)

iface = nvme             # [src]
pcie_gen = 4             # [src]
pcie_lanes = 4           # [src]
link_bw = 7300MB/s       # the rated read [src]
queues = 32              # [est]
queue_depth = 1024       # [est]
cmd_time = 1.25us        # 800k IOPS rated random read [calc]
cmd_write_time = 0.9us   # 1.1M IOPS rated random write [calc]
latency = 6us            # [est]

cell = tlc               # [src]
channels = 8             # [src]
dies = 2                 # 16 dies of 512 Gbit [calc: 1 TB / 64 GiB]
planes = 4               # [est]
page = 16k               # [est]
pages = 1024             # [est]
blocks = 1024            # raw 1 TiB [calc]
channel_rate = 1600MB/s  # toggle interface at 1600 MT/s [src]
t_read = 55us            # [est]
t_prog = 700us           # 16 x 64 KiB / 700 us = 1.5 GB/s after the cache [est: no after-cache figure found]
t_erase = 5ms            # [est]
t_read_slc = 30us        # [est]
t_prog_slc = 166us       # the rated 6300 MB/s: 16 x 64 KiB / 6.3 GB/s [calc]
t_suspend = 20us         # [est]
suspend = on             # [est]

capacity = 1000204886016 # [src IDEMA]
map_unit = 4k            # [est]
gc = greedy              # [est]
write_buffer = 8m        # [est]
trim = on                # [src]
idle = 1ms               # [est]
slc = dynamic            # nCache 4.0 [src]
slc_size = 300GB         # 288 GB dynamic + 12 GB static, held as one dynamic cache [src, est: the split is not modelled]

rated_read = 7300MB/s    # [src]
rated_write = 6300MB/s   # [src]
rated_read_iops = 800000 # [src]
rated_write_iops = 1100000 # [src]
